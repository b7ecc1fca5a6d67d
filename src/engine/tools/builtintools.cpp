#include "builtintools.h"

#include "workspace.h"

#include <mcp/process/childenvironment.h>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSet>
#include <QStringDecoder>
#include <QTimer>

#include <algorithm>
#include <cmath>

#ifdef Q_OS_UNIX
#include <csignal>
#include <unistd.h>
#endif

namespace Engine {

using namespace BuiltinLimits;

namespace {

// Every message of the built-in tools shares this translation context.
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(Engine::BuiltinTools)
};

QString fromJson(const Json &value)
{
    return QString::fromStdString(value.get_ref<const std::string &>());
}

// Reads the model's arguments. Models send sloppy JSON ("10" for 10, 10.0 for 10), so the
// reader accepts what is unambiguous and otherwise records one clear error, checked once
// after all arguments are read.
class Args
{
public:
    explicit Args(const Json &arguments)
        : m_args(arguments)
    {
    }

    QString string(const char *key, bool required = true, const QString &fallback = {})
    {
        const auto it = m_args.find(key);
        if (it == m_args.end() || it->is_null()) {
            if (required)
                setError(Text::tr("'%1' is required (a string)").arg(QLatin1String(key)));
            return fallback;
        }
        if (!it->is_string()) {
            setError(Text::tr("'%1' must be a string").arg(QLatin1String(key)));
            return fallback;
        }
        return fromJson(*it);
    }

    qint64 integer(const char *key, qint64 fallback, qint64 min, qint64 max)
    {
        const auto it = m_args.find(key);
        if (it == m_args.end() || it->is_null())
            return fallback;
        std::optional<qint64> value;
        if (it->is_number_integer()) {
            value = it->get<qint64>();
        } else if (it->is_number_float()) {
            const double d = it->get<double>();
            if (std::isfinite(d) && d == std::floor(d) && std::abs(d) < 1e15)
                value = qint64(d);
        } else if (it->is_string()) {
            bool ok = false;
            const qint64 parsed = fromJson(*it).trimmed().toLongLong(&ok);
            if (ok)
                value = parsed;
        }
        if (!value || *value < min || *value > max) {
            setError(Text::tr("'%1' must be an integer from %2 to %3")
                             .arg(QLatin1String(key))
                             .arg(min)
                             .arg(max));
            return fallback;
        }
        return *value;
    }

    bool boolean(const char *key, bool fallback)
    {
        const auto it = m_args.find(key);
        if (it == m_args.end() || it->is_null())
            return fallback;
        if (it->is_boolean())
            return it->get<bool>();
        if (it->is_string()) {
            const QString text = fromJson(*it);
            if (text == QLatin1String("true") || text == QLatin1String("false"))
                return text == QLatin1String("true");
        }
        setError(Text::tr("'%1' must be true or false").arg(QLatin1String(key)));
        return fallback;
    }

    bool failed() const { return !m_error.isEmpty(); }
    const QString &error() const { return m_error; }

private:
    void setError(const QString &message)
    {
        if (m_error.isEmpty()) // the first problem is the one to fix first
            m_error = message;
    }

    const Json &m_args;
    QString m_error;
};

bool looksBinary(const QByteArray &data)
{
    return data.left(BinaryProbeBytes).contains('\0');
}

QString sizeText(qint64 bytes)
{
    return QLocale::c().formattedDataSize(bytes, 1, QLocale::DataSizeIecFormat);
}

// Splits file text into lines without their terminators ("\n" or "\r\n"); a final newline
// does not start another line.
QStringList splitLines(const QString &text)
{
    QStringList lines = text.split(QLatin1Char('\n'));
    if (!lines.isEmpty() && lines.constLast().isEmpty())
        lines.removeLast();
    for (QString &line : lines) {
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
    }
    return lines;
}

// Cuts a line for display without splitting a surrogate pair.
QString cutLine(const QString &line, int maxChars)
{
    if (line.size() <= maxChars)
        return line;
    qsizetype keep = maxChars;
    if (line.at(keep - 1).isHighSurrogate())
        --keep;
    return line.left(keep)
           + Text::tr(" … [line cut: %n more characters]", nullptr, int(line.size() - keep));
}

// Reads a text file that read_file or edit_file was asked about, with the checks both need:
// a regular file, under the size cap, not binary.
std::optional<QByteArray> readTextFile(const QString &canonical, const QString &shownPath,
                                       QString *error)
{
    const QFileInfo info(canonical);
    if (info.isDir()) {
        *error = Text::tr("'%1' is a directory; use list_dir to see its entries").arg(shownPath);
        return std::nullopt;
    }
    if (!info.isFile()) {
        *error = Text::tr("'%1' is not a regular file").arg(shownPath);
        return std::nullopt;
    }
    if (info.size() > MaxFileBytes) {
        *error = Text::tr("'%1' is %2, larger than the %3 this tool reads; use search_files to "
                          "find the lines you need, or bash (head, sed -n) to read a part")
                         .arg(shownPath, sizeText(info.size()), sizeText(MaxFileBytes));
        return std::nullopt;
    }
    QFile file(canonical);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = Text::tr("cannot open '%1': %2").arg(shownPath, file.errorString());
        return std::nullopt;
    }
    // read() with the cap, not readAll(): the file may have grown since the size check.
    QByteArray data = file.read(MaxFileBytes + 1);
    if (data.size() > MaxFileBytes) {
        *error = Text::tr("'%1' is larger than the %2 this tool reads")
                         .arg(shownPath, sizeText(MaxFileBytes));
        return std::nullopt;
    }
    if (looksBinary(data)) {
        *error = Text::tr("'%1' is a binary file (it contains NUL bytes); this tool reads text "
                          "only")
                         .arg(shownPath);
        return std::nullopt;
    }
    return data;
}

// Writes through QSaveFile: the new content appears all at once (rename) or not at all, so
// a failed or interrupted write never leaves half a file.
bool writeAtomically(const QString &canonical, const QByteArray &data, const QString &shownPath,
                     QString *error)
{
    QSaveFile file(canonical);
    file.setDirectWriteFallback(false); // a direct write would not be atomic
    if (!file.open(QIODevice::WriteOnly)) {
        *error = Text::tr("cannot write '%1': %2").arg(shownPath, file.errorString());
        return false;
    }
    if (file.write(data) != data.size()) {
        *error = Text::tr("cannot write '%1': %2").arg(shownPath, file.errorString());
        file.cancelWriting();
        return false;
    }
    if (!file.commit()) {
        *error = Text::tr("cannot write '%1': %2").arg(shownPath, file.errorString());
        return false;
    }
    return true;
}

Json pathProperty(const char *description)
{
    return {{"type", "string"}, {"description", description}};
}

// Common ground of the built-ins: the workspace they are confined to.
class BuiltinTool : public Tool
{
public:
    explicit BuiltinTool(std::shared_ptr<Workspace> workspace)
        : m_workspace(std::move(workspace))
    {
    }

protected:
    // Resolves a path argument; the error already names the path and the workspace.
    std::optional<QString> resolve(const QString &path, QString *error, bool mustExist) const
    {
        return m_workspace->resolve(path, error, mustExist);
    }
    QString shown(const QString &canonical) const { return m_workspace->displayPath(canonical); }

    // The approval reason of a read tool whose `path` argument names a file or folder that
    // may hold secrets (Workspace::sensitiveMatch); std::nullopt otherwise, and for a path
    // that does not resolve (the call then fails without touching anything).
    std::optional<QString> sensitivePathReason(const Json &arguments,
                                               const QString &fallbackPath = QString()) const
    {
        const auto it = arguments.find("path");
        const QString path = it != arguments.end() && it->is_string()
                                     ? QString::fromStdString(it->get<std::string>())
                                     : fallbackPath;
        if (path.isEmpty())
            return std::nullopt;
        const auto canonical = m_workspace->resolve(path, nullptr, true);
        if (!canonical)
            return std::nullopt;
        const auto match = m_workspace->sensitiveMatch(*canonical);
        if (!match)
            return std::nullopt;
        return Text::tr("%1 touches '%2', which may hold secrets (it matches \"%3\" in the "
                        "list of sensitive files)")
                .arg(name(), shown(*canonical), *match);
    }

    std::shared_ptr<Workspace> m_workspace;
};

// A tool whose work is bounded by the caps above and done at once: done runs before
// execute() returns, so there is nothing left to cancel.
class SyncTool : public BuiltinTool
{
public:
    using BuiltinTool::BuiltinTool;

protected:
    virtual ToolOutput run(const Json &arguments) = 0;

    CancelHandle execute(const Json &arguments, const ToolContext &,
                         std::function<void(ToolOutput)> done) final
    {
        ToolOutput output;
        try {
            output = run(arguments);
        } catch (const std::exception &e) {
            // A JSON type surprise or an allocation failure must become an observation the
            // model can react to, never a crash of the window.
            output = ToolOutput::error(
                    Text::tr("%1 failed: %2").arg(name(), QString::fromLocal8Bit(e.what())));
        }
        done(std::move(output));
        return [] {
        };
    }
};

// ---------------------------------------------------------------------------------------

// read_file: numbered lines of a text file, a window at a time.
class ReadFileTool final : public SyncTool
{
public:
    using SyncTool::SyncTool;
    QString name() const override { return QStringLiteral("read_file"); }
    Risk risk() const override { return Risk::Read; }
    std::optional<QString> approvalReason(const Json &arguments, const ToolContext &) const override
    {
        return sensitivePathReason(arguments);
    }
    QString description() const override
    {
        return QLatin1String(QT_TRANSLATE_NOOP(
                "Engine::BuiltinTools",
                "Read a text file in the workspace. Each output line is the line number, a tab, "
                "then the line as it is in the file (the number and tab are not part of the "
                "file: leave them out when you quote text for edit_file). Reads up to 2000 "
                "lines from `offset` (1-based, default 1); when more remain, the output ends "
                "with the offset to continue from. Binary files and files over 10 MiB are "
                "refused. Paths are relative to the workspace root."));
    }
    Json inputSchema() const override
    {
        return {{"type", "object"},
                {"properties",
                 {{"path", pathProperty("File path, relative to the workspace root.")},
                  {"offset",
                   {{"type", "integer"},
                    {"minimum", 1},
                    {"description", "First line to read (1-based). Default 1."}}},
                  {"limit",
                   {{"type", "integer"},
                    {"minimum", 1},
                    {"description", "Number of lines to read. Default 2000."}}}}},
                {"required", {"path"}},
                {"additionalProperties", false}};
    }

protected:
    ToolOutput run(const Json &arguments) override
    {
        Args args(arguments);
        const QString path = args.string("path");
        const qint64 offset = args.integer("offset", 1, 1, std::numeric_limits<int>::max());
        const qint64 limit
                = args.integer("limit", DefaultReadLines, 1, std::numeric_limits<int>::max());
        if (args.failed())
            return ToolOutput::error(args.error());
        QString error;
        const auto canonical = resolve(path, &error, true);
        if (!canonical)
            return ToolOutput::error(error);
        const QString shownPath = shown(*canonical);
        const auto data = readTextFile(*canonical, shownPath, &error);
        if (!data)
            return ToolOutput::error(error);

        const QStringList lines = splitLines(QString::fromUtf8(*data));
        const qsizetype total = lines.size();
        Json structured{{"path", shownPath.toStdString()}, {"totalLines", total}};
        if (total == 0) {
            ToolOutput output = ToolOutput::text(Text::tr("(%1 is empty)").arg(shownPath));
            output.structuredContent = std::move(structured);
            return output;
        }
        if (offset > total) {
            return ToolOutput::error(
                    Text::tr("offset %1 is past the end of '%2' (%n lines)", nullptr, int(total))
                            .arg(offset)
                            .arg(shownPath));
        }
        // Numbers right-aligned to six places, then a tab: the `cat -n` layout that models
        // know from their training data.
        QString text;
        qsizetype index = offset - 1;
        const qsizetype end = std::min<qsizetype>(total, index + limit);
        for (; index < end; ++index) {
            const QString line = QStringLiteral("%1\t%2\n")
                                         .arg(index + 1, 6)
                                         .arg(cutLine(lines.at(index), MaxLineChars));
            if (!text.isEmpty() && text.size() + line.size() > ReadOutputChars)
                break; // the budget: let the model ask for the rest
            text += line;
        }
        const qsizetype lastLine = index; // 1-based number of the last line shown
        if (lastLine < total) {
            text += Text::tr("[lines %1-%2 of %3; call read_file with offset=%4 to read more]")
                            .arg(offset)
                            .arg(lastLine)
                            .arg(total)
                            .arg(lastLine + 1);
        } else {
            text.chop(1); // the final newline
        }
        structured["startLine"] = offset;
        structured["endLine"] = lastLine;
        ToolOutput output = ToolOutput::text(text);
        output.structuredContent = std::move(structured);
        return output;
    }
};

// ---------------------------------------------------------------------------------------

// list_dir: the entries of one directory, directories first.
class ListDirTool final : public SyncTool
{
public:
    using SyncTool::SyncTool;
    QString name() const override { return QStringLiteral("list_dir"); }
    Risk risk() const override { return Risk::Read; }
    std::optional<QString> approvalReason(const Json &arguments, const ToolContext &) const override
    {
        return sensitivePathReason(arguments, QStringLiteral("."));
    }
    QString description() const override
    {
        return QLatin1String(QT_TRANSLATE_NOOP(
                "Engine::BuiltinTools",
                "List a directory in the workspace (not recursive). One entry per line: "
                "directories end with '/', files show their size in bytes, symbolic links show "
                "their target. Directories come first, then files, each sorted by name; hidden "
                "entries are included. At most 1000 entries. Use search_files to find files "
                "by pattern across directories."));
    }
    Json inputSchema() const override
    {
        return {{"type", "object"},
                {"properties",
                 {{"path", pathProperty("Directory, relative to the workspace root. Default: "
                                        "the root.")}}},
                {"additionalProperties", false}};
    }

protected:
    ToolOutput run(const Json &arguments) override
    {
        Args args(arguments);
        QString path = args.string("path", false, QStringLiteral("."));
        if (args.failed())
            return ToolOutput::error(args.error());
        if (path.isEmpty())
            path = QStringLiteral(".");
        QString error;
        const auto canonical = resolve(path, &error, true);
        if (!canonical)
            return ToolOutput::error(error);
        const QString shownPath = shown(*canonical);
        const QFileInfo dirInfo(*canonical);
        if (!dirInfo.isDir())
            return ToolOutput::error(
                    Text::tr("'%1' is a file, not a directory; use read_file to read it")
                            .arg(shownPath));
        if (!dirInfo.isReadable())
            return ToolOutput::error(Text::tr("cannot read the directory '%1'").arg(shownPath));

        QFileInfoList entries = QDir(*canonical)
                                        .entryInfoList(QDir::AllEntries | QDir::NoDotAndDotDot
                                                               | QDir::Hidden | QDir::System,
                                                       QDir::NoSort);
        // Sorted here rather than by QDir, so that the order does not depend on the locale.
        std::sort(entries.begin(), entries.end(), [](const QFileInfo &a, const QFileInfo &b) {
            const bool aDir = a.isDir() && !a.isSymLink();
            const bool bDir = b.isDir() && !b.isSymLink();
            if (aDir != bDir)
                return aDir;
            const int folded = a.fileName().compare(b.fileName(), Qt::CaseInsensitive);
            return folded != 0 ? folded < 0 : a.fileName() < b.fileName();
        });

        QStringList lines;
        Json list = Json::array();
        const qsizetype shownCount = std::min<qsizetype>(entries.size(), MaxListEntries);
        for (qsizetype i = 0; i < shownCount; ++i) {
            const QFileInfo &entry = entries.at(i);
            Json item{{"name", entry.fileName().toStdString()}};
            if (entry.isSymLink()) {
                const QString target = entry.symLinkTarget();
                const QString targetShown = m_workspace->contains(target)
                                                    ? shown(target)
                                                    : QDir::toNativeSeparators(target);
                lines << QStringLiteral("%1 -> %2").arg(entry.fileName(), targetShown);
                item["type"] = "symlink";
                item["target"] = targetShown.toStdString();
            } else if (entry.isDir()) {
                lines << entry.fileName() + QLatin1Char('/');
                item["type"] = "directory";
            } else {
                lines << Text::tr("%1  (%n bytes)", nullptr,
                                  int(std::min<qint64>(entry.size(), INT_MAX)))
                                 .arg(entry.fileName());
                item["type"] = entry.isFile() ? "file" : "other";
                item["size"] = entry.size();
            }
            list.push_back(std::move(item));
        }
        QString text = Text::tr("%1 (%n entries)", nullptr, int(entries.size())).arg(shownPath);
        if (!lines.isEmpty())
            text += QLatin1Char('\n') + lines.join(QLatin1Char('\n'));
        if (entries.size() > shownCount)
            text += QLatin1Char('\n')
                    + Text::tr("[… %n more entries not shown]", nullptr,
                               int(entries.size() - shownCount));
        ToolOutput output = ToolOutput::text(text);
        output.structuredContent = {{"path", shownPath.toStdString()},
                                    {"entries", std::move(list)},
                                    {"total", entries.size()}};
        return output;
    }
};

// ---------------------------------------------------------------------------------------

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

// One search_files run. It walks the tree on the event loop in short slices, so a large
// workspace never freezes the window, and stops early when cancelled. Kept alive by the
// slice that is queued next; the cancel handle holds it weakly.
class SearchJob : public std::enable_shared_from_this<SearchJob>
{
public:
    std::shared_ptr<Workspace> workspace;
    QRegularExpression glob;
    bool matchName = false;        // a pattern without '/' matches the file name at any depth
    bool includeSensitive = false; // the user allowed searching inside sensitive files
    QString pattern;
    QString query;
    std::optional<QRegularExpression> regex;
    Qt::CaseSensitivity caseSensitivity = Qt::CaseSensitive;
    int maxResults = DefaultSearchResults;
    std::function<void(ToolOutput)> done;
    bool cancelled = false;

    // Absolute paths still to visit, popped from the back (so pushed in reverse order).
    struct Item
    {
        QString path;
        bool isDir;
    };
    std::vector<Item> stack;

    void step()
    {
        if (cancelled) {
            finish(ToolOutput::error(Text::tr("search_files was cancelled")));
            return;
        }
        QElapsedTimer slice;
        slice.start();
        while (!stack.empty() && !m_full && slice.elapsed() < SearchSliceMs) {
            const Item item = std::move(stack.back());
            stack.pop_back();
            if (item.isDir)
                visitDirectory(item.path);
            else
                visitFile(item.path);
        }
        if (stack.empty() || m_full) {
            finish(result());
            return;
        }
        QTimer::singleShot(0, [self = shared_from_this()] { self->step(); });
    }

private:
    void visitDirectory(const QString &path)
    {
        const QFileInfoList entries = QDir(path).entryInfoList(
                QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
                QDir::NoSort);
        QStringList files;
        QStringList dirs;
        for (const QFileInfo &entry : entries) {
            if (entry.isDir()) {
                // Symlinked directories are not followed: they may loop or lead outside.
                if (!entry.isSymLink() && !isSkippedDirectory(entry))
                    dirs << entry.filePath();
            } else if (entry.isSymLink()) {
                const QString target = entry.canonicalFilePath();
                if (!target.isEmpty() && workspace->contains(target) && QFileInfo(target).isFile())
                    files << entry.filePath();
            } else if (entry.isFile()) {
                files << entry.filePath();
            }
        }
        files.sort();
        dirs.sort();
        // Files of this directory first, then its subdirectories, each in name order.
        for (qsizetype i = dirs.size() - 1; i >= 0; --i)
            stack.push_back({dirs.at(i), true});
        for (qsizetype i = files.size() - 1; i >= 0; --i)
            stack.push_back({files.at(i), false});
    }

    void visitFile(const QString &path)
    {
        if (++m_visited > MaxSearchFilesVisited) {
            m_full = true;
            m_visitCapped = true;
            return;
        }
        const QString relative = workspace->displayPath(path);
        const QString subject = matchName ? QFileInfo(path).fileName() : relative;
        if (!glob.match(subject).hasMatch())
            return;
        ++m_filesMatched;
        if (query.isEmpty()) {
            addResult(relative, {}, relative);
            return;
        }
        const QFileInfo info(path);
        if (!includeSensitive
            && (workspace->sensitiveMatch(path)
                || (info.isSymLink() && workspace->sensitiveMatch(info.canonicalFilePath())))) {
            ++m_skippedSensitive;
            return;
        }
        if (info.size() > MaxFileBytes) {
            ++m_skippedLarge;
            return;
        }
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return;
        const QByteArray data = file.read(MaxFileBytes);
        if (looksBinary(data)) {
            ++m_skippedBinary;
            return;
        }
        const QStringList lines = splitLines(QString::fromUtf8(data));
        for (qsizetype i = 0; i < lines.size() && !m_full; ++i) {
            const QString &line = lines.at(i);
            const bool hit
                    = regex ? regex->match(line).hasMatch() : line.contains(query, caseSensitivity);
            if (!hit)
                continue;
            const QString shownLine = cutLine(line.trimmed(), MaxSearchLineChars);
            addResult(relative, int(i + 1),
                      QStringLiteral("%1:%2: %3").arg(relative, QString::number(i + 1), shownLine));
        }
    }

    void addResult(const QString &path, std::optional<int> line, const QString &text)
    {
        if (m_lines.size() >= maxResults) {
            m_full = true;
            return;
        }
        m_lines << text;
        Json item{{"path", path.toStdString()}};
        if (line)
            item["line"] = *line;
        m_structured.push_back(std::move(item));
    }

    ToolOutput result() const
    {
        QStringList notes;
        if (m_full && !m_visitCapped)
            notes << Text::tr("[stopped at %n results; narrow the pattern or the query to see "
                              "the rest]",
                              nullptr, maxResults);
        if (m_visitCapped)
            notes << Text::tr("[stopped after visiting %n files; narrow the pattern]", nullptr,
                              MaxSearchFilesVisited);
        if (m_skippedBinary > 0)
            notes << Text::tr("[%n binary files skipped]", nullptr, m_skippedBinary);
        if (m_skippedLarge > 0)
            notes << Text::tr("[%n files over %1 skipped]", nullptr, m_skippedLarge)
                             .arg(sizeText(MaxFileBytes));
        if (m_skippedSensitive > 0)
            notes << Text::tr("[%n files that may hold secrets (.env, keys, ...) were not "
                              "searched; search again with include_sensitive: true to ask the "
                              "user]",
                              nullptr, m_skippedSensitive);
        QString text;
        if (m_lines.isEmpty()) {
            text = query.isEmpty() ? Text::tr("No files match '%1'.").arg(pattern)
                                   : Text::tr("No lines match '%1' in the %n files matching '%2'.",
                                              nullptr, m_filesMatched)
                                             .arg(query, pattern);
        } else {
            text = m_lines.join(QLatin1Char('\n'));
        }
        if (!notes.isEmpty())
            text += QLatin1Char('\n') + notes.join(QLatin1Char('\n'));
        ToolOutput output = ToolOutput::text(text);
        output.structuredContent = {
                {"results", m_structured}, {"truncated", m_full}, {"filesMatched", m_filesMatched}};
        return output;
    }

    void finish(ToolOutput output)
    {
        if (auto callback = std::exchange(done, nullptr))
            callback(std::move(output));
    }

    QStringList m_lines;
    Json m_structured = Json::array();
    int m_visited = 0;
    int m_filesMatched = 0;
    int m_skippedBinary = 0;
    int m_skippedLarge = 0;
    int m_skippedSensitive = 0;
    bool m_full = false;
    bool m_visitCapped = false;
};

// search_files: glob over paths, optionally grep inside the matching files.
class SearchFilesTool final : public BuiltinTool
{
public:
    using BuiltinTool::BuiltinTool;
    QString name() const override { return QStringLiteral("search_files"); }
    Risk risk() const override { return Risk::Read; }
    // Files that may hold secrets are searched only when the call says so, and then only
    // after the user allowed that call.
    std::optional<QString> approvalReason(const Json &arguments, const ToolContext &) const override
    {
        const auto it = arguments.find("include_sensitive");
        if (it == arguments.end() || !it->is_boolean() || !it->get<bool>())
            return std::nullopt;
        return Text::tr("search_files asks to search inside files that may hold secrets "
                        "(include_sensitive; see the list of sensitive files)");
    }
    QString description() const override
    {
        return QLatin1String(QT_TRANSLATE_NOOP(
                "Engine::BuiltinTools",
                "Find files in the workspace by glob pattern, and optionally the lines in them "
                "that contain a text or match a regular expression. Patterns are relative to "
                "the workspace root: `*` and `?` match within one path segment, `**/` any "
                "number of directories, `{a,b}` alternatives, `[abc]` a character; a pattern "
                "without '/' (like `*.cpp`) matches file names at any depth. Without `query` "
                "the result is the matching paths, one per line; with it, each matching line "
                "as `path:line: text`. Skips .git, node_modules, build directories and binary "
                "files unless the pattern starts inside them, and does not search inside files "
                "that may hold secrets (.env, keys) unless `include_sensitive` is true. Results "
                "are capped (`max_results`, default 100)."));
    }
    Json inputSchema() const override
    {
        return {{"type", "object"},
                {"properties",
                 {{"pattern",
                   {{"type", "string"},
                    {"description", "Glob over paths, e.g. \"src/**/*.cpp\" or \"*.md\"."}}},
                  {"query",
                   {{"type", "string"},
                    {"description", "Text to find in the matching files (one line at a time)."}}},
                  {"regex",
                   {{"type", "boolean"},
                    {"description", "Treat query as a regular expression (PCRE). Default "
                                    "false."}}},
                  {"ignore_case",
                   {{"type", "boolean"},
                    {"description", "Match query ignoring case. Default "
                                    "false."}}},
                  {"max_results",
                   {{"type", "integer"},
                    {"minimum", 1},
                    {"maximum", MaxSearchResults},
                    {"description", "Most results to return. Default 100."}}},
                  {"include_sensitive",
                   {{"type", "boolean"},
                    {"description", "Also search inside files that may hold secrets (.env, "
                                    "keys, credentials); the user is asked first. Default "
                                    "false: they are skipped and counted."}}}}},
                {"required", {"pattern"}},
                {"additionalProperties", false}};
    }

protected:
    CancelHandle execute(const Json &arguments, const ToolContext &,
                         std::function<void(ToolOutput)> done) override
    {
        auto job = std::make_shared<SearchJob>();
        QString error;
        if (!prepare(arguments, *job, &error)) {
            done(ToolOutput::error(error));
            return [] {
            };
        }
        job->done = std::move(done);
        // The first slice runs from the event loop too: done never runs inside execute()
        // for a search, whatever its size.
        QTimer::singleShot(0, [job] { job->step(); });
        return [weak = std::weak_ptr<SearchJob>(job)] {
            if (auto job = weak.lock())
                job->cancelled = true;
        };
    }

private:
    bool prepare(const Json &arguments, SearchJob &job, QString *error) const
    {
        Args args(arguments);
        QString pattern = args.string("pattern");
        job.query = args.string("query", false);
        const bool useRegex = args.boolean("regex", false);
        const bool ignoreCase = args.boolean("ignore_case", false);
        job.includeSensitive = args.boolean("include_sensitive", false);
        job.maxResults
                = int(args.integer("max_results", DefaultSearchResults, 1, MaxSearchResults));
        if (args.failed()) {
            *error = args.error();
            return false;
        }
        job.pattern = pattern;
        job.workspace = m_workspace;
        job.caseSensitivity = ignoreCase ? Qt::CaseInsensitive : Qt::CaseSensitive;
        if (useRegex && !job.query.isEmpty()) {
            QRegularExpression rx(job.query, ignoreCase ? QRegularExpression::CaseInsensitiveOption
                                                        : QRegularExpression::NoPatternOption);
            if (!rx.isValid()) {
                *error = Text::tr("'query' is not a valid regular expression: %1 (at offset %2)")
                                 .arg(rx.errorString())
                                 .arg(rx.patternErrorOffset());
                return false;
            }
            rx.optimize();
            job.regex = std::move(rx);
        }

        // An absolute pattern inside the workspace is taken relative to it.
        pattern = QDir::fromNativeSeparators(pattern.trimmed());
        const QString root = m_workspace->root();
        if (QDir::isAbsolutePath(pattern)) {
            if (!pattern.startsWith(root + QLatin1Char('/'))) {
                *error = Text::tr("pattern '%1' is outside the workspace %2").arg(pattern, root);
                return false;
            }
            pattern = pattern.mid(root.size() + 1);
        }
        while (pattern.startsWith(QLatin1String("./")))
            pattern = pattern.mid(2);
        if (pattern.isEmpty()) {
            *error = Text::tr("'pattern' is empty; use for example \"**/*\" for every file");
            return false;
        }
        // The literal directories at the start of the pattern are where the walk begins:
        // cheaper, and it lets a pattern reach into a directory that is otherwise skipped.
        const QStringList segments = pattern.split(QLatin1Char('/'), Qt::SkipEmptyParts);
        QStringList base;
        for (qsizetype i = 0; i + 1 < segments.size() && !hasGlobCharacters(segments.at(i)); ++i)
            base << segments.at(i);
        const QString baseDir = base.isEmpty() ? QStringLiteral(".") : base.join(QLatin1Char('/'));
        const auto start = m_workspace->resolve(baseDir, error, true);
        if (!start)
            return false;
        if (!QFileInfo(*start).isDir()) {
            *error = Text::tr("'%1' is not a directory").arg(baseDir);
            return false;
        }
        // The glob is matched against the path relative to the canonical root; the base as
        // resolved (symlinks and all) replaces the base as written.
        QString rest = segments.mid(base.size()).join(QLatin1Char('/'));
        const QString startShown = m_workspace->displayPath(*start);
        job.matchName = base.isEmpty() && !pattern.contains(QLatin1Char('/'));
        const QString full = job.matchName || startShown == QLatin1String(".")
                                     ? rest
                                     : startShown + QLatin1Char('/') + rest;
        job.glob = QRegularExpression(globToRegex(full));
        if (!job.glob.isValid()) {
            *error = Text::tr("pattern '%1' is not a valid glob").arg(pattern);
            return false;
        }
        job.stack.push_back({*start, true});
        return true;
    }
};

// ---------------------------------------------------------------------------------------

// write_file: creates or replaces a whole file, atomically.
class WriteFileTool final : public SyncTool
{
public:
    using SyncTool::SyncTool;
    QString name() const override { return QStringLiteral("write_file"); }
    Risk risk() const override { return Risk::Mutating; }
    QString description() const override
    {
        return QLatin1String(QT_TRANSLATE_NOOP(
                "Engine::BuiltinTools",
                "Create a file in the workspace, or replace its whole content. Missing parent "
                "directories are created. The write is atomic: the file has either its old or "
                "its new content, never a part. Content is written as UTF-8, exactly as given. "
                "To change part of an existing file, prefer edit_file."));
    }
    Json inputSchema() const override
    {
        return {{"type", "object"},
                {"properties",
                 {{"path", pathProperty("File path, relative to the workspace root.")},
                  {"content", {{"type", "string"}, {"description", "The complete new content."}}}}},
                {"required", {"path", "content"}},
                {"additionalProperties", false}};
    }

protected:
    ToolOutput run(const Json &arguments) override
    {
        Args args(arguments);
        const QString path = args.string("path");
        const QString content = args.string("content");
        if (args.failed())
            return ToolOutput::error(args.error());
        QString error;
        const auto canonical = resolve(path, &error, false);
        if (!canonical)
            return ToolOutput::error(error);
        const QString shownPath = shown(*canonical);
        const QFileInfo info(*canonical);
        if (info.isDir())
            return ToolOutput::error(Text::tr("'%1' is a directory").arg(shownPath));
        const bool existed = info.exists();
        if (!QDir().mkpath(info.absolutePath()))
            return ToolOutput::error(
                    Text::tr("cannot create the directory '%1'").arg(shown(info.absolutePath())));
        const QByteArray data = content.toUtf8();
        if (!writeAtomically(*canonical, data, shownPath, &error))
            return ToolOutput::error(error);
        const int lines = int(splitLines(content).size());
        const QString size = Text::tr("%n bytes", nullptr, int(data.size()));
        return ToolOutput::text(existed ? Text::tr("Replaced %1 (%2, %n lines).", nullptr, lines)
                                                  .arg(shownPath, size)
                                        : Text::tr("Created %1 (%2, %n lines).", nullptr, lines)
                                                  .arg(shownPath, size));
    }
};

// ---------------------------------------------------------------------------------------

// edit_file: one exact, unique string replacement (or all of them), atomically.
class EditFileTool final : public SyncTool
{
public:
    using SyncTool::SyncTool;
    QString name() const override { return QStringLiteral("edit_file"); }
    Risk risk() const override { return Risk::Mutating; }
    QString description() const override
    {
        return QLatin1String(QT_TRANSLATE_NOOP(
                "Engine::BuiltinTools",
                "Replace text in a file of the workspace. `old_string` must match the file "
                "exactly, including whitespace and indentation (without read_file's line-number "
                "prefixes), and must occur exactly once, unless `replace_all` is true; include "
                "enough surrounding lines to make it unique. The file is rewritten atomically. "
                "Read the file before editing it."));
    }
    Json inputSchema() const override
    {
        return {{"type", "object"},
                {"properties",
                 {{"path", pathProperty("File path, relative to the workspace root.")},
                  {"old_string",
                   {{"type", "string"}, {"description", "The exact text to replace."}}},
                  {"new_string", {{"type", "string"}, {"description", "The text to put instead."}}},
                  {"replace_all",
                   {{"type", "boolean"},
                    {"description", "Replace every occurrence. Default false."}}}}},
                {"required", {"path", "old_string", "new_string"}},
                {"additionalProperties", false}};
    }

protected:
    static QList<qsizetype> occurrences(const QString &text, const QString &needle)
    {
        QList<qsizetype> found; // non-overlapping, left to right: what replace() will replace
        for (qsizetype at = text.indexOf(needle); at >= 0;
             at = text.indexOf(needle, at + needle.size()))
            found << at;
        return found;
    }

    ToolOutput run(const Json &arguments) override
    {
        Args args(arguments);
        const QString path = args.string("path");
        QString oldString = args.string("old_string");
        QString newString = args.string("new_string");
        const bool replaceAll = args.boolean("replace_all", false);
        if (args.failed())
            return ToolOutput::error(args.error());
        if (oldString.isEmpty())
            return ToolOutput::error(Text::tr("'old_string' is empty; to create or replace a "
                                              "whole file use write_file"));
        if (oldString == newString)
            return ToolOutput::error(
                    Text::tr("'old_string' and 'new_string' are the same; nothing to change"));
        QString error;
        const auto canonical = resolve(path, &error, true);
        if (!canonical)
            return ToolOutput::error(error);
        const QString shownPath = shown(*canonical);
        const auto data = readTextFile(*canonical, shownPath, &error);
        if (!data)
            return ToolOutput::error(error);
        // Decoding must be lossless, or writing the file back would change bytes the edit
        // never touched; a leading BOM is kept as a character so that it is written back.
        QStringDecoder decoder(QStringDecoder::Utf8, QStringConverter::Flag::ConvertInitialBom);
        QString text = decoder(*data);
        if (decoder.hasError())
            return ToolOutput::error(
                    Text::tr("'%1' is not valid UTF-8; edit_file changes UTF-8 text only")
                            .arg(shownPath));

        QList<qsizetype> found = occurrences(text, oldString);
        // A model writes "\n"; a file from Windows has "\r\n". Same text, so match it.
        if (found.isEmpty() && text.contains(QLatin1String("\r\n"))
            && oldString.contains(QLatin1Char('\n')) && !oldString.contains(QLatin1Char('\r'))) {
            const QString crlfOld
                    = QString(oldString).replace(QLatin1String("\n"), QLatin1String("\r\n"));
            found = occurrences(text, crlfOld);
            if (!found.isEmpty()) {
                oldString = crlfOld;
                newString.replace(QLatin1String("\n"), QLatin1String("\r\n"));
            }
        }
        if (found.isEmpty())
            return ToolOutput::error(
                    Text::tr("'old_string' was not found in '%1'; read the file again and copy "
                             "the text exactly, including whitespace and indentation")
                            .arg(shownPath));
        if (found.size() > 1 && !replaceAll)
            return ToolOutput::error(
                    Text::tr("'old_string' occurs %n times in '%1'; include more surrounding "
                             "lines to make it unique, or set replace_all to true",
                             nullptr, int(found.size()))
                            .arg(shownPath));
        const qsizetype firstLine
                = QStringView(text).left(found.first()).count(QLatin1Char('\n')) + 1;
        if (replaceAll)
            text.replace(oldString, newString);
        else
            text.replace(found.first(), oldString.size(), newString);
        if (!writeAtomically(*canonical, text.toUtf8(), shownPath, &error))
            return ToolOutput::error(error);
        return ToolOutput::text(
                Text::tr("Edited %1: replaced %n occurrence(s), the first at line %2.", nullptr,
                         int(found.size()))
                        .arg(shownPath, QString::number(firstLine)));
    }
};

// ---------------------------------------------------------------------------------------

// Cuts long command output for the model: the head (what ran) and the larger tail (where
// errors and summaries are), with a note of what is missing in between.
QString headAndTail(const QString &text, int maxChars)
{
    if (text.size() <= maxChars)
        return text;
    qsizetype head = maxChars / 4;
    if (head > 0 && text.at(head - 1).isHighSurrogate())
        --head;
    qsizetype tailStart = text.size() - (maxChars - head);
    if (tailStart < text.size() && text.at(tailStart).isLowSurrogate())
        ++tailStart;
    return text.left(head)
           + Text::tr("\n… [cut: %n characters in the middle; the full output is in the UI] …\n",
                      nullptr, int(tailStart - head))
           + text.mid(tailStart);
}

// One bash execution: the process, its timer and its output. It owns itself: the
// connections on its QProcess keep it alive until the process ends, then the process is
// deleted and the last reference goes. The cancel handle holds it weakly.
class BashRun : public std::enable_shared_from_this<BashRun>
{
public:
    QString command;
    QString workingDirectory;
    int timeoutMs = 0;
    std::function<void(ToolOutput)> done;

    // `sandboxProgram` non-empty: run under bubblewrap (that program).
    void start(const QString &sandboxProgram)
    {
        if (!done)
            return; // cancelled while the sandbox probe ran
#ifdef Q_OS_WIN
        // Git for Windows' bash, from PATH.
        QString program = QStringLiteral("bash");
#else
        QString program = QStringLiteral("/bin/bash");
#endif
        QStringList arguments{QStringLiteral("-c"), command};
        // The allow-list of the environment (no provider keys). Pagers would wait for a key
        // press that never comes.
        QProcessEnvironment env = Mcp::ChildEnvironment::build(
                QProcessEnvironment::systemEnvironment(),
                {{QStringLiteral("PAGER"), QStringLiteral("cat")},
                 {QStringLiteral("GIT_PAGER"), QStringLiteral("cat")}},
                false);
        if (!sandboxProgram.isEmpty()) {
            QString error;
            const auto wrapped
                    = Mcp::Sandbox::wrap(Mcp::SandboxPolicy{true, true, {}}, sandboxProgram,
                                         workingDirectory, program, arguments, &env, &error);
            if (!wrapped) {
                std::exchange(done, nullptr)(
                        ToolOutput::error(Text::tr("bash was not run: %1").arg(error)));
                return;
            }
            program = wrapped->program;
            arguments = wrapped->arguments;
            m_sandboxed = true;
        }
        m_process = new QProcess;
        m_process->setProgram(program);
        m_process->setArguments(arguments);
        m_process->setWorkingDirectory(workingDirectory);
        m_process->setProcessChannelMode(QProcess::MergedChannels);
        // No one can type into it: a command that reads stdin gets end-of-file, not a hang.
        m_process->setStandardInputFile(QProcess::nullDevice());
        m_process->setProcessEnvironment(env);
#ifdef Q_OS_UNIX
        // Its own process group, so that a timeout or cancel ends the children too
        // (`make` spawns compilers, `sh -c 'sleep 100 & wait'` a sleep).
        m_process->setChildProcessModifier([] { ::setpgid(0, 0); });
#endif
        auto self = shared_from_this();
        QObject::connect(m_process, &QProcess::started, m_process,
                         [self] { self->m_pid = self->m_process->processId(); });
        QObject::connect(m_process, &QProcess::readyReadStandardOutput, m_process,
                         [self] { self->readOutput(); });
        QObject::connect(m_process, &QProcess::finished, m_process,
                         [self](int exitCode, QProcess::ExitStatus status) {
                             self->finished(exitCode, status);
                         });
        QObject::connect(m_process, &QProcess::errorOccurred, m_process,
                         [self](QProcess::ProcessError error) {
                             if (error == QProcess::FailedToStart)
                                 self->failedToStart();
                         });
        m_timer = new QTimer(m_process);
        m_timer->setSingleShot(true);
        QObject::connect(m_timer, &QTimer::timeout, m_process, [self] {
            self->m_timedOut = true;
            self->killGroup();
        });
        m_timer->start(timeoutMs);
        m_process->start();
    }

    void cancel()
    {
        if (!done)
            return;
        m_cancelled = true;
        if (m_process)
            killGroup();
        else // still waiting for the sandbox probe: nothing runs yet
            std::exchange(done, nullptr)(
                    ToolOutput::error(Text::tr("[cancelled before the command started]")));
    }

private:
    void readOutput()
    {
        const QByteArray chunk = m_process->readAllStandardOutput();
        const qint64 room = MaxBashKeptBytes - m_output.size();
        if (chunk.size() <= room) {
            m_output += chunk;
        } else {
            m_output += chunk.left(room);
            m_dropped += chunk.size() - room;
        }
    }

    void killGroup()
    {
#ifdef Q_OS_UNIX
        if (m_pid > 0)
            ::kill(-pid_t(m_pid), SIGKILL);
#endif
        if (m_process->state() != QProcess::NotRunning)
            m_process->kill();
    }

    void failedToStart()
    {
        deliver(ToolOutput::error(
                Text::tr("bash could not be started: %1").arg(m_process->errorString())));
    }

    void finished(int exitCode, QProcess::ExitStatus status)
    {
        readOutput();
        // Background jobs the command left behind would outlive the call, unseen; they end
        // with it (the group outlives its leader).
        killGroup();
        const QString output = QString::fromUtf8(m_output);
        QString tail;
        bool isError = true;
        Json exitCodeJson = nullptr;
        if (m_cancelled) {
            tail = Text::tr("[cancelled; the command and its child processes were killed]");
        } else if (m_timedOut) {
            tail = Text::tr("[timed out after %1 ms; the command and its child processes were "
                            "killed]")
                           .arg(timeoutMs);
        } else if (status == QProcess::CrashExit) {
            tail = Text::tr("[the command was killed by a signal]");
        } else {
            exitCodeJson = exitCode;
            isError = exitCode != 0;
            tail = Text::tr("[exit code %1]").arg(exitCode);
            // bwrap itself failed (no user namespaces): say so, not only "exit code 1".
            const QString sandboxFailure
                    = m_sandboxed && isError
                              ? Mcp::Sandbox::failureReason(output.section(QLatin1Char('\n'), 0, 0))
                              : QString();
            if (!sandboxFailure.isEmpty())
                tail += QLatin1Char('\n') + sandboxFailure;
        }
        QString modelText = output.isEmpty() ? Text::tr("(no output)")
                                             : headAndTail(output, BashModelOutputChars);
        if (!modelText.endsWith(QLatin1Char('\n')))
            modelText += QLatin1Char('\n');
        if (m_dropped > 0)
            modelText += Text::tr("[%1 of output beyond the first %2 was dropped]\n")
                                 .arg(sizeText(m_dropped), sizeText(MaxBashKeptBytes));
        ToolOutput result = ToolOutput::text(modelText + tail, isError);
        // The whole output for the UI; the model reads only the text block above.
        result.structuredContent = {{"output", output.toStdString()},
                                    {"exitCode", exitCodeJson},
                                    {"timedOut", m_timedOut},
                                    {"cancelled", m_cancelled},
                                    {"droppedBytes", m_dropped}};
        deliver(std::move(result));
    }

    void deliver(ToolOutput output)
    {
        auto callback = std::exchange(done, nullptr);
        m_timer->stop(); // the group may be gone and its id reused: no late kill
        // Deleting the process drops its connections, and with them the last references
        // to this run (after this function returns: `self` copies live in the slot).
        m_process->deleteLater();
        if (callback)
            callback(std::move(output));
    }

    QProcess *m_process = nullptr;
    QTimer *m_timer = nullptr;
    qint64 m_pid = 0;
    QByteArray m_output;
    qint64 m_dropped = 0;
    bool m_timedOut = false;
    bool m_cancelled = false;
    bool m_sandboxed = false;
};

// bash: a shell command in the workspace, with a timeout.
class BashTool final : public BuiltinTool
{
public:
    BashTool(std::shared_ptr<Workspace> workspace, BuiltinToolsOptions options)
        : BuiltinTool(std::move(workspace))
        , m_options(std::move(options))
    {
    }
    QString name() const override { return QStringLiteral("bash"); }
    Risk risk() const override { return Risk::Dangerous; }
    QString description() const override
    {
        return QLatin1String(QT_TRANSLATE_NOOP(
                "Engine::BuiltinTools",
                "Run a command with `bash -c` in the workspace root. The result is the "
                "combined stdout and stderr, then the exit code; a non-zero exit is reported "
                "as an error. Long output is shortened to its beginning and end. stdin is "
                "empty, so interactive commands fail instead of waiting. The command and "
                "everything it started are killed after `timeout_ms` (at most 600000, i.e. 10 "
                "minutes) and when it ends, so do not start servers in the background. Prefer "
                "read_file, list_dir, search_files and edit_file for files."));
    }
    Json inputSchema() const override
    {
        return {{"type", "object"},
                {"properties",
                 {{"command", {{"type", "string"}, {"description", "The bash command line."}}},
                  {"timeout_ms",
                   {{"type", "integer"},
                    {"minimum", 1},
                    {"maximum", MaxBashTimeoutMs},
                    {"description", "Time limit in milliseconds. Default: the tool timeout "
                                    "(usually 60000)."}}}}},
                {"required", {"command"}},
                {"additionalProperties", false}};
    }
    // Approvals are per command: "allow for this conversation" on one command line must
    // not let a different one run unasked.
    QString approvalCommand(const Json &arguments) const override
    {
        const auto it = arguments.find("command");
        const QString command = it != arguments.end() && it->is_string()
                                        ? QString::fromStdString(it->get<std::string>())
                                        : QString();
        // Never empty (that would mean "not a command tool"); a missing command fails anyway.
        return command.isEmpty() ? QStringLiteral(" ") : command;
    }

protected:
    CancelHandle execute(const Json &arguments, const ToolContext &context,
                         std::function<void(ToolOutput)> done) override
    {
        Args args(arguments);
        const QString command = args.string("command");
        const int fallbackTimeout = std::clamp(context.timeoutMs, 1, MaxBashTimeoutMs);
        const int timeoutMs = int(args.integer("timeout_ms", fallbackTimeout, 1, MaxBashTimeoutMs));
        QString error = args.error();
        if (error.isEmpty() && command.trimmed().isEmpty())
            error = Text::tr("'command' is empty");
        if (error.isEmpty() && !m_workspace->isValid())
            error = Text::tr("the workspace folder %1 does not exist").arg(m_workspace->root());
        if (!error.isEmpty()) {
            done(ToolOutput::error(error));
            return [] {
            };
        }

        auto run = std::make_shared<BashRun>();
        run->command = command;
        run->workingDirectory = m_workspace->root();
        run->timeoutMs = timeoutMs;
        run->done = std::move(done);
        const Mcp::Sandbox::Mode mode
                = m_options.bashSandbox ? m_options.bashSandbox() : Mcp::Sandbox::Mode::Auto;
        if (mode == Mcp::Sandbox::Mode::Auto) {
            // The probe answers from the event loop (at once after the first time); the run
            // keeps itself alive until then.
            Mcp::Sandbox::probe(
                    m_options.sandboxProgram, nullptr,
                    [run, program = m_options.sandboxProgram](bool works, const QString &) {
                        run->start(works ? program : QString());
                    });
        } else {
            run->start(mode == Mcp::Sandbox::Mode::On ? m_options.sandboxProgram : QString());
        }
        return [weak = std::weak_ptr<BashRun>(run)] {
            if (auto run = weak.lock())
                run->cancel();
        };
    }

private:
    BuiltinToolsOptions m_options;
};

} // namespace

std::vector<std::shared_ptr<Tool>> createBuiltinTools(std::shared_ptr<Workspace> workspace,
                                                      BuiltinToolsOptions options)
{
    return {std::make_shared<ReadFileTool>(workspace),
            std::make_shared<ListDirTool>(workspace),
            std::make_shared<SearchFilesTool>(workspace),
            std::make_shared<WriteFileTool>(workspace),
            std::make_shared<EditFileTool>(workspace),
            std::make_shared<BashTool>(workspace, std::move(options))};
}

} // namespace Engine
