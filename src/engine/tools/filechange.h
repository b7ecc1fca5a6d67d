#pragma once

#include <mcp/wire/jsonrpc.h>

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

// What a call would do to a file, shown before it runs (the approval dialog) and after (the tool
// card, the saved conversation): a unified diff against the file on disk, or why there is none.
namespace Engine {

using Json = nlohmann::json;

struct FileChange
{
    enum class Kind {
        Edited,    // the file exists and changes: `diff`
        Created,   // a new file: `diff` is its content, every line added
        Unchanged, // the new content is the old
        Binary,    // either side is not UTF-8 text: no diff, only sizes
        TooLarge,  // too big or too different to compare line by line: only sizes
        Unknown,   // the call will not change the file as asked: `note` says why
    };

    QString path; // as the workspace shows it (relative), else as given
    Kind kind = Kind::Unknown;
    // "--- a/PATH", "+++ b/PATH", then "@@ -a,b +c,d @@" hunks with 3 lines of context, at
    // most MaxDiffChars (then a last line says how much more there was).
    QString diff;
    int added = 0;
    int removed = 0;
    qint64 bytesBefore = -1; // -1: no file before
    qint64 bytesAfter = 0;
    QString note; // Unknown: why; TooLarge and Binary: what was not compared

    // A side longer than this is not read or compared: said so instead (the same cap as the
    // tools that read files).
    static constexpr qint64 MaxCompareBytes = 10 * 1024 * 1024;
    // The lines that differ (after the common start and end) are compared while the product of
    // their counts on each side is at most this squared: the comparison's cost grows with it.
    static constexpr int MaxCompareLines = 5000;
    // The diff's text is cut here (a page of it is already more than anyone reads).
    static constexpr int MaxDiffChars = 512 * 1024;

    // `before` is the file's content (std::nullopt: no file yet), `after` the content the call
    // would leave.
    static FileChange between(const QString &path, const std::optional<QByteArray> &before,
                              const QByteArray &after);
    // A change that cannot be shown, and why.
    static FileChange unknown(const QString &path, const QString &why);
    static FileChange tooLarge(const QString &path, qint64 bytesBefore, qint64 bytesAfter);

    // One line for a card or a heading: "+3 −1", "new file, 12 lines", "binary, 2.0 KiB → 3.1
    // KiB", ...
    QString summary() const;

    // The form it is saved in with the conversation (the tool's message).
    Json toJson() const;
    static std::optional<FileChange> fromJson(const Json &json);
};

class Workspace;

// What is on disk where a call would write, for FileChange: the file's bytes (none for a file not
// there yet), or the change to show instead of a diff when it cannot or must not be read (outside
// the workspace, a folder, a file that may hold secrets, too big).
struct FileOnDisk
{
    QString shown; // the path as the workspace shows it
    std::optional<QByteArray> bytes;
    qint64 size = -1; // -1: no file; bytes is empty when it is too large to read
    std::optional<FileChange> instead;

    static FileOnDisk read(const Workspace &workspace, const QString &path);
    // The change writing `after` there makes.
    FileChange changeTo(const QByteArray &after) const;
    // What to show instead of an edit of the file (a change of part of it): `instead`, or that
    // it is not there or too large to read; std::nullopt when `bytes` holds it.
    std::optional<FileChange> insteadOfEdit() const;
};

// The file a server's arguments name ("path", "file_path", "filePath", "file", "filename",
// "target_file"), or empty: cheap, for a call to be looked at further only when it names one.
QString fileArgumentOf(const Json &arguments);

// A server's tool, where we can tell from its arguments that it writes a file of `workspace`:
// a path (fileArgumentOf()) with the whole new
// content ("content", "contents", "file_text", "new_content", "newContent") or with text to
// replace ("old_string"/"new_string", "old_str"/"new_str", "oldText"/"newText", or a list of
// those as "edits"). std::nullopt for any other tool.
std::optional<FileChange> guessedFileChange(const Json &arguments, const Workspace &workspace);

// A unified diff's hunks (no file header) turning `before` into `after`, `context` lines around
// each change; counts the lines added and removed.
QString unifiedDiff(const QStringList &before, const QStringList &after, int context = 3,
                    int *added = nullptr, int *removed = nullptr);

} // namespace Engine
