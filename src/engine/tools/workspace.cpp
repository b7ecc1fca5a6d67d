#include "workspace.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace Engine {

namespace {

// The file tools' messages share one translation context with the tools themselves.
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(Engine::BuiltinTools)
};

// Windows and (by default) macOS file systems compare names without case, so a path that
// differs from the root only in case is still inside it.
#if defined(Q_OS_WIN) || defined(Q_OS_MACOS)
constexpr Qt::CaseSensitivity PathCase = Qt::CaseInsensitive;
#else
constexpr Qt::CaseSensitivity PathCase = Qt::CaseSensitive;
#endif

// Exists, or is a symlink (even a dangling one): the point where canonicalization starts.
// A dangling symlink must not count as "missing", or a write could follow it outside.
bool existsOrIsLink(const QString &path)
{
    const QFileInfo info(path);
    return info.exists() || info.isSymLink();
}

} // namespace

Workspace::Workspace(QString root)
{
    const QString absolute = QDir::cleanPath(QDir(root).absolutePath());
    const QString canonical = QFileInfo(absolute).canonicalFilePath();
    m_valid = !canonical.isEmpty() && QFileInfo(canonical).isDir();
    m_root = m_valid ? canonical : absolute;
    setSensitivePatterns(defaultSensitivePatterns());
}

QStringList Workspace::defaultSensitivePatterns()
{
    // Where the usual tools keep secrets: dotenv files, SSH and GnuPG keys, AWS credentials,
    // netrc passwords, PEM certificates and keys, SSH key files (id_rsa, id_ed25519, ...); a
    // token in a git remote's URL and git's credential store; npm, Yarn and PyPI tokens;
    // Docker's and Kubernetes' logins; PKCS#12 bundles; cloud CLIs' credentials files;
    // Terraform state (it holds the resources' secrets).
    QStringList patterns;
    for (const char *pattern :
         {".env*",  ".ssh/",    ".gnupg/",      ".aws/",       ".netrc",
          "*.pem",  "*.key",    "id_*",         ".git/config", ".git-credentials",
          ".npmrc", ".yarnrc*", ".pypirc",      ".docker/",    ".kube/",
          "*.p12",  "*.pfx",    "credentials*", "*.tfstate*",  ".pgpass"})
        patterns << QString::fromLatin1(pattern);
    return patterns;
}

void Workspace::setSensitivePatterns(const QStringList &patterns)
{
    m_sensitivePatterns.clear();
    m_sensitiveRegexes.clear();
    for (const QString &pattern : patterns) {
        const QStringList globs = pattern.trimmed().split(QLatin1Char('/'), Qt::SkipEmptyParts);
        std::vector<QRegularExpression> components;
        for (const QString &glob : globs) {
            QRegularExpression regex(QRegularExpression::wildcardToRegularExpression(glob),
                                     PathCase == Qt::CaseInsensitive
                                             ? QRegularExpression::CaseInsensitiveOption
                                             : QRegularExpression::NoPatternOption);
            if (!regex.isValid())
                break;
            components.push_back(std::move(regex));
        }
        if (components.empty() || components.size() != std::size_t(globs.size()))
            continue;
        m_sensitivePatterns << pattern.trimmed();
        m_sensitiveRegexes.push_back(std::move(components));
    }
}

std::optional<QString> Workspace::sensitiveMatch(const QString &canonicalPath) const
{
    if (!contains(canonicalPath))
        return std::nullopt;
    const QString relative = displayPath(canonicalPath);
    if (relative == QLatin1String("."))
        return std::nullopt;
    return matchComponents(relative);
}

std::optional<QString> Workspace::sensitiveMatchAnywhere(const QString &canonicalPath) const
{
    return contains(canonicalPath) ? sensitiveMatch(canonicalPath) : matchComponents(canonicalPath);
}

std::optional<QString> Workspace::matchComponents(const QString &path) const
{
    const QStringList parts = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    for (qsizetype at = 0; at < parts.size(); ++at) {
        for (std::size_t i = 0; i < m_sensitiveRegexes.size(); ++i) {
            const std::vector<QRegularExpression> &components = m_sensitiveRegexes[i];
            if (at + qsizetype(components.size()) > parts.size())
                continue;
            bool all = true;
            for (std::size_t c = 0; c < components.size() && all; ++c)
                all = components[c].match(parts.at(at + qsizetype(c))).hasMatch();
            if (all)
                return m_sensitivePatterns.at(qsizetype(i));
        }
    }
    return std::nullopt;
}

bool Workspace::contains(const QString &canonicalPath) const
{
    if (canonicalPath.compare(m_root, PathCase) == 0)
        return true;
    // "/" (or "C:/") already ends with a separator; every other root gets one, so that
    // "/work2" is not taken to be inside "/work".
    const QString prefix = m_root.endsWith(QLatin1Char('/')) ? m_root : m_root + QLatin1Char('/');
    return canonicalPath.startsWith(prefix, PathCase);
}

QString Workspace::displayPath(const QString &canonicalPath) const
{
    if (canonicalPath.compare(m_root, PathCase) == 0)
        return QStringLiteral(".");
    return QDir(m_root).relativeFilePath(canonicalPath);
}

std::optional<QString> Workspace::resolve(const QString &path, QString *error, bool mustExist) const
{
    auto fail = [&](const QString &message) -> std::optional<QString> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    if (!m_valid)
        return fail(Text::tr("the workspace folder %1 does not exist").arg(m_root));
    if (path.isEmpty())
        return fail(Text::tr("the path is empty; give a path relative to the workspace %1")
                            .arg(m_root));
    // A NUL would cut the name short in the C API below Qt: the file opened would not be the
    // one checked.
    if (path.contains(QChar(0)))
        return fail(Text::tr("the path contains a NUL character"));

    // cleanPath collapses "." and ".." lexically; the result is then what gets checked and
    // what gets returned, so the checked path and the opened path are the same.
    const QString absolute
            = QDir::cleanPath(QDir::isAbsolutePath(path) ? path : m_root + QLatin1Char('/') + path);
    const QString outside = Text::tr("path '%1' is outside the workspace %2").arg(path, m_root);

    // Canonicalize the longest prefix that exists: it resolves every symlink on the way, and
    // what is left does not exist yet, so it cannot contain a symlink.
    QString existing = absolute;
    QStringList missing;
    while (!existsOrIsLink(existing)) {
        const QFileInfo info(existing);
        const QString parent = info.path();
        if (parent == existing) // reached the file system's root: nothing exists (odd)
            return fail(outside);
        missing.prepend(info.fileName());
        existing = parent;
    }
    const QString canonical = QFileInfo(existing).canonicalFilePath();
    if (canonical.isEmpty()) {
        // A dangling symlink (or a loop): where it would lead cannot be checked.
        if (!contains(absolute))
            return fail(outside);
        return fail(Text::tr("path '%1' goes through a symbolic link that cannot be resolved (%2)")
                            .arg(path, QDir::toNativeSeparators(existing)));
    }
    if (!contains(canonical))
        return fail(outside);
    if (!missing.isEmpty()) {
        if (mustExist)
            return fail(Text::tr("'%1' does not exist in the workspace %2").arg(path, m_root));
        if (!QFileInfo(canonical).isDir())
            return fail(Text::tr("cannot create '%1': '%2' is not a directory")
                                .arg(path, displayPath(canonical)));
    }
    QString result = canonical;
    for (const QString &part : std::as_const(missing)) {
        if (!result.endsWith(QLatin1Char('/')))
            result += QLatin1Char('/');
        result += part;
    }
    return result;
}

} // namespace Engine
