#pragma once

#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace Engine {

// The folder the file tools may touch, and the one place that decides whether a path is
// inside it. Every path a model gives is resolved here before any file is opened: relative
// paths are taken from the root, `..` is collapsed, and the longest existing prefix is
// canonicalized so that a symlink inside the workspace cannot lead outside it. It also knows
// which files look like secrets (keys, credentials), so that the read tools ask before
// touching them. Shared (by std::shared_ptr) between the built-in tools; the root is fixed at
// construction, the sensitive-file list is replaced (Settings) only on the thread that runs
// the tools.
class Workspace
{
public:
    // `root` may be relative (to the current directory) or contain symlinks; it is
    // canonicalized once here. A root that does not exist makes every resolve() fail.
    explicit Workspace(QString root);

    // The canonical root (or the cleaned absolute path when it does not exist).
    const QString &root() const { return m_root; }
    bool isValid() const { return m_valid; }

    // The canonical absolute path `path` names, or std::nullopt and a message for the model
    // in *error (may be null). With mustExist false, missing trailing components are allowed
    // (a file about to be written), but the part that exists must be inside the workspace.
    std::optional<QString> resolve(const QString &path, QString *error,
                                   bool mustExist = true) const;

    // Whether an absolute, canonical path is the root or below it.
    bool contains(const QString &canonicalPath) const;

    // A canonical path inside the workspace as the model should see it: relative to the
    // root ("src/main.cpp"), "." for the root itself.
    QString displayPath(const QString &canonicalPath) const;

    // Files that look like secrets: `.env*`, `.ssh/`, `.gnupg/`, `.aws/`, `.netrc`, `*.pem`,
    // `*.key`, `id_*`, and the credentials of git, npm, PyPI, Docker, Kubernetes, PKCS#12
    // bundles, cloud CLIs and Terraform state. Each pattern is a wildcard matched against the
    // components of a path inside the workspace: one component anywhere (`*.pem`), or
    // consecutive ones (`.git/config`); a trailing `/` only says it names a folder.
    static QStringList defaultSensitivePatterns();
    void setSensitivePatterns(const QStringList &patterns);
    QStringList sensitivePatterns() const { return m_sensitivePatterns; }
    // The pattern a canonical path inside the workspace matches (in any of its components
    // below the root), or std::nullopt when it does not look sensitive.
    std::optional<QString> sensitiveMatch(const QString &canonicalPath) const;
    // The same for a path anywhere (a file the user attaches from outside the workspace):
    // every component of the path is matched.
    std::optional<QString> sensitiveMatchAnywhere(const QString &canonicalPath) const;

private:
    std::optional<QString> matchComponents(const QString &path) const;

    QString m_root;
    bool m_valid = false;
    QStringList m_sensitivePatterns;
    // One per pattern, same order: a wildcard per component.
    std::vector<std::vector<QRegularExpression>> m_sensitiveRegexes;
};

} // namespace Engine
