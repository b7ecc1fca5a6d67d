#include "builtintool.h"

namespace Engine::Builtin {

namespace {

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

} // namespace

std::shared_ptr<Tool> makeEditFileTool(std::shared_ptr<Workspace> workspace)
{
    return std::make_shared<EditFileTool>(std::move(workspace));
}

} // namespace Engine::Builtin
