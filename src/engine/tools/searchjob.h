#pragma once

#include "builtintool.h"

namespace Engine::Builtin {

// The glob rules of search_files (searchjob.cpp).
QString globToRegex(const QString &glob);
bool hasGlobCharacters(const QString &segment);
// Folders a search never enters: version control, node_modules, caches, build folders.
bool isSkippedDirectory(const QFileInfo &dir);

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

} // namespace Engine::Builtin
