#include "builtintool.h"

namespace Engine::Builtin {

namespace {

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

} // namespace

std::shared_ptr<Tool> makeListDirTool(std::shared_ptr<Workspace> workspace)
{
    return std::make_shared<ListDirTool>(std::move(workspace));
}

} // namespace Engine::Builtin
