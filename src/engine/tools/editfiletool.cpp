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

    std::optional<FileChange> proposedChange(const Json &arguments,
                                             const ToolContext &context) const override
    {
        Q_UNUSED(context)
        const Asked asked(arguments);
        if (!asked.error.isEmpty())
            return FileChange::unknown(asked.path, asked.error);
        const FileOnDisk on = FileOnDisk::read(*m_workspace, asked.path);
        if (const std::optional<FileChange> instead = on.insteadOfEdit())
            return instead;
        QStringDecoder decoder(QStringDecoder::Utf8, QStringConverter::Flag::ConvertInitialBom);
        const QString text = decoder(*on.bytes);
        if (decoder.hasError())
            return on.changeTo(*on.bytes); // binary: said so
        QString error;
        const std::optional<Edit> edit = edited(text, asked, on.shown, &error);
        if (!edit)
            return FileChange::unknown(on.shown, error);
        return on.changeTo(edit->text.toUtf8());
    }

protected:
    // The call's arguments, read.
    struct Asked
    {
        explicit Asked(const Json &arguments)
        {
            Args args(arguments);
            path = args.string("path");
            oldString = args.string("old_string");
            newString = args.string("new_string");
            replaceAll = args.boolean("replace_all", false);
            error = args.error();
            // Said before the file is read.
            if (error.isEmpty() && oldString.isEmpty())
                error = Text::tr("'old_string' is empty; to create or replace a whole file use "
                                 "write_file");
            else if (error.isEmpty() && oldString == newString)
                error = Text::tr("'old_string' and 'new_string' are the same; nothing to change");
        }
        QString path;
        QString oldString;
        QString newString;
        bool replaceAll = false;
        QString error; // the first argument that is wrong, else empty
    };

    struct Edit
    {
        QString text;        // the file's text after the edit
        int replaced = 0;    // occurrences replaced
        qsizetype firstLine; // the first one's line (from 1)
    };

    static QList<qsizetype> occurrences(const QString &text, const QString &needle)
    {
        QList<qsizetype> found; // non-overlapping, left to right: what replace() will replace
        for (qsizetype at = text.indexOf(needle); at >= 0;
             at = text.indexOf(needle, at + needle.size()))
            found << at;
        return found;
    }

    // `text` with the edit made, or std::nullopt and *error (for the model) saying why not;
    // `asked` has no error.
    static std::optional<Edit> edited(QString text, const Asked &asked, const QString &shownPath,
                                      QString *error)
    {
        QString oldString = asked.oldString;
        QString newString = asked.newString;
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
        if (found.isEmpty()) {
            *error = Text::tr("'old_string' was not found in '%1'; read the file again and copy "
                              "the text exactly, including whitespace and indentation")
                             .arg(shownPath);
            return std::nullopt;
        }
        if (found.size() > 1 && !asked.replaceAll) {
            *error = Text::tr("'old_string' occurs %n times in '%1'; include more surrounding "
                              "lines to make it unique, or set replace_all to true",
                              nullptr, int(found.size()))
                             .arg(shownPath);
            return std::nullopt;
        }
        const qsizetype firstLine
                = QStringView(text).left(found.first()).count(QLatin1Char('\n')) + 1;
        if (asked.replaceAll)
            text.replace(oldString, newString);
        else
            text.replace(found.first(), oldString.size(), newString);
        return Edit{std::move(text), int(found.size()), firstLine};
    }

    ToolOutput run(const Json &arguments) override
    {
        const Asked asked(arguments);
        if (!asked.error.isEmpty())
            return ToolOutput::error(asked.error);
        QString error;
        const std::optional<TextFile> file = readText(asked.path, &error);
        if (!file)
            return ToolOutput::error(error);
        const QString &shownPath = file->shown;
        // Decoding must be lossless, or writing the file back would change bytes the edit
        // never touched; a leading BOM is kept as a character so that it is written back.
        QStringDecoder decoder(QStringDecoder::Utf8, QStringConverter::Flag::ConvertInitialBom);
        const QString text = decoder(file->bytes);
        if (decoder.hasError())
            return ToolOutput::error(
                    Text::tr("'%1' is not valid UTF-8; edit_file changes UTF-8 text only")
                            .arg(shownPath));
        const std::optional<Edit> edit = edited(text, asked, shownPath, &error);
        if (!edit)
            return ToolOutput::error(error);
        if (!writeAtomically(file->canonical, edit->text.toUtf8(), shownPath, &error))
            return ToolOutput::error(error);
        return ToolOutput::text(
                Text::tr("Edited %1: replaced %n occurrence(s), the first at line %2.", nullptr,
                         edit->replaced)
                        .arg(shownPath, QString::number(edit->firstLine)));
    }
};

} // namespace

std::shared_ptr<Tool> makeEditFileTool(std::shared_ptr<Workspace> workspace)
{
    return std::make_shared<EditFileTool>(std::move(workspace));
}

} // namespace Engine::Builtin
