#include "searchjob.h"

namespace Engine::Builtin {

// Translates a glob into an anchored regular expression over '/'-separated relative paths:
// `*` and `?` stay inside one path segment, `**/` spans any number of directories (zero
// included), `[abc]`/`[!abc]` are character classes and `{a,b}` alternatives.
QString globToRegex(const QString &glob)
{
    QString rx;
    int braces = 0;
    for (qsizetype i = 0; i < glob.size(); ++i) {
        const QChar c = glob.at(i);
        if (c == QLatin1Char('*')) {
            if (i + 1 < glob.size() && glob.at(i + 1) == QLatin1Char('*')) {
                ++i;
                if (i + 1 < glob.size() && glob.at(i + 1) == QLatin1Char('/')) {
                    ++i;
                    rx += QLatin1String("(?:.*/)?");
                } else {
                    rx += QLatin1String(".*");
                }
            } else {
                rx += QLatin1String("[^/]*");
            }
        } else if (c == QLatin1Char('?')) {
            rx += QLatin1String("[^/]");
        } else if (c == QLatin1Char('[')) {
            const qsizetype close = glob.indexOf(QLatin1Char(']'), i + 2);
            if (close < 0) {
                rx += QLatin1String("\\[");
                continue;
            }
            QString cls = glob.mid(i + 1, close - i - 1);
            if (cls.startsWith(QLatin1Char('!')))
                cls[0] = QLatin1Char('^');
            cls.replace(QLatin1Char('\\'), QLatin1String("\\\\"));
            rx += QLatin1Char('[') + cls + QLatin1Char(']');
            i = close;
        } else if (c == QLatin1Char('{')) {
            ++braces;
            rx += QLatin1String("(?:");
        } else if (c == QLatin1Char('}') && braces > 0) {
            --braces;
            rx += QLatin1Char(')');
        } else if (c == QLatin1Char(',') && braces > 0) {
            rx += QLatin1Char('|');
        } else {
            rx += QRegularExpression::escape(QString(c));
        }
    }
    while (braces-- > 0) // an unclosed brace: close it rather than fail
        rx += QLatin1Char(')');
    return QRegularExpression::anchoredPattern(rx);
}

bool hasGlobCharacters(const QString &segment)
{
    for (const QChar c : segment) {
        if (c == QLatin1Char('*') || c == QLatin1Char('?') || c == QLatin1Char('[')
            || c == QLatin1Char('{'))
            return true;
    }
    return false;
}

// Directories whose content is generated or vendored: searching them buries the real hits.
// A pattern that names one explicitly (its literal prefix) is still searched inside it.
bool isSkippedDirectory(const QFileInfo &dir)
{
    static const QSet<QString> names{QStringLiteral(".git"),        QStringLiteral(".hg"),
                                     QStringLiteral(".svn"),        QStringLiteral("node_modules"),
                                     QStringLiteral("__pycache__"), QStringLiteral(".venv"),
                                     QStringLiteral(".tox"),        QStringLiteral(".mypy_cache"),
                                     QStringLiteral(".cache"),      QStringLiteral("build")};
    const QString name = dir.fileName();
    return names.contains(name) || name.startsWith(QLatin1String("build-"))
           || name.startsWith(QLatin1String("cmake-build-"))
           || QFileInfo::exists(dir.filePath() + QLatin1String("/CMakeCache.txt"));
}

} // namespace Engine::Builtin
