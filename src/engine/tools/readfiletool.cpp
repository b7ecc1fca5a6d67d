#include "builtintool.h"

namespace Engine::Builtin {

namespace {

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
        const std::optional<TextFile> file = readText(path, &error);
        if (!file)
            return ToolOutput::error(error);
        const QString &shownPath = file->shown;

        const QStringList lines = splitLines(QString::fromUtf8(file->bytes));
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

} // namespace

std::shared_ptr<Tool> makeReadFileTool(std::shared_ptr<Workspace> workspace)
{
    return std::make_shared<ReadFileTool>(std::move(workspace));
}

} // namespace Engine::Builtin
