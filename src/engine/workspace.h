#pragma once

#include <QString>

#include <optional>

namespace Engine {

// The folder the file tools may touch, and the one place that decides whether a path is
// inside it. Every path a model gives is resolved here before any file is opened: relative
// paths are taken from the root, `..` is collapsed, and the longest existing prefix is
// canonicalized so that a symlink inside the workspace cannot lead outside it. Shared (by
// std::shared_ptr) between the built-in tools; immutable after construction, so it may be
// read from any thread.
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

private:
    QString m_root;
    bool m_valid = false;
};

} // namespace Engine
