#include "builtintool.h"

namespace Engine::Builtin {

namespace {

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

    std::optional<FileChange> proposedChange(const Json &arguments,
                                             const ToolContext &context) const override
    {
        Q_UNUSED(context)
        Args args(arguments);
        const QString path = args.string("path");
        const QString content = args.string("content");
        if (args.failed())
            return FileChange::unknown(path, args.error());
        return FileOnDisk::read(*m_workspace, path).changeTo(content.toUtf8());
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

} // namespace

std::shared_ptr<Tool> makeWriteFileTool(std::shared_ptr<Workspace> workspace)
{
    return std::make_shared<WriteFileTool>(std::move(workspace));
}

} // namespace Engine::Builtin
