#include "filechange.h"

#include "workspace.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QLocale>
#include <QStringDecoder>

// Qt has no diff. dtl (Debian's libdtl-dev, header only) is Wu's O(NP) comparison, the
// algorithm GNU diff and git default to; the hunks are made here.
#include <dtl/dtl.hpp>

#include <algorithm>
#include <vector>

namespace Engine {

namespace {

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(Engine::FileChange)
};

// What git says after a last line without a newline; kept on the line so that "x" and "x\n"
// differ, and shown on a line of its own.
const QString NoNewline = QStringLiteral("\n\\ No newline at end of file");

QString sizeText(qint64 bytes)
{
    return QLocale::c().formattedDataSize(bytes, 1, QLocale::DataSizeIecFormat);
}

// UTF-8 text as lines, without "\n"; std::nullopt for what is not text (a NUL in the first
// 8 KiB, as git and grep tell binary files, or bytes that are not UTF-8).
std::optional<QStringList> textLines(const QByteArray &bytes)
{
    if (bytes.left(8 * 1024).contains('\0'))
        return std::nullopt;
    QStringDecoder decoder(QStringDecoder::Utf8);
    const QString text = decoder(bytes);
    if (decoder.hasError())
        return std::nullopt;
    if (text.isEmpty())
        return QStringList();
    QStringList lines = text.split(QLatin1Char('\n'));
    if (lines.constLast().isEmpty())
        lines.removeLast();
    else
        lines.last() += NoNewline;
    return lines;
}

// How many lines `before` and `after` share at their start, and then at their end.
std::pair<int, int> commonEnds(const QStringList &before, const QStringList &after)
{
    const int beforeCount = int(before.size());
    const int afterCount = int(after.size());
    int head = 0;
    while (head < beforeCount && head < afterCount && before[head] == after[head])
        ++head;
    int tail = 0;
    while (tail < beforeCount - head && tail < afterCount - head
           && before[beforeCount - 1 - tail] == after[afterCount - 1 - tail])
        ++tail;
    return {head, tail};
}

enum class Op { Common, Removed, Added };

struct Step
{
    Op op;
    int before; // the line's index in `before` (Common, Removed), else where it goes
    int after;  // in `after` (Common, Added), else where it was
};

void appendLine(QString &out, QChar sign, const QString &line)
{
    out += sign;
    out += line;
    out += QLatin1Char('\n');
}

} // namespace

QString unifiedDiff(const QStringList &before, const QStringList &after, int context, int *added,
                    int *removed)
{
    // The common start and end need no comparing, and are most of a file an edit touches.
    const int beforeCount = int(before.size());
    const int afterCount = int(after.size());
    const auto [head, tail] = commonEnds(before, after);

    // The middle, its lines as numbers (equal lines, equal numbers), compared by dtl.
    QHash<QString, int> numbers;
    const auto numbered = [&numbers](const QStringList &lines, int from, int to) {
        std::vector<int> result;
        result.reserve(size_t(to - from));
        for (int i = from; i < to; ++i) {
            auto it = numbers.constFind(lines[i]);
            if (it == numbers.cend())
                it = numbers.insert(lines[i], int(numbers.size()));
            result.push_back(*it);
        }
        return result;
    };
    const std::vector<int> a = numbered(before, head, beforeCount - tail);
    const std::vector<int> b = numbered(after, head, afterCount - tail);

    std::vector<Step> steps;
    for (int i = std::max(0, head - context); i < head; ++i)
        steps.push_back({Op::Common, i, i});
    if (a.empty() || b.empty()) {
        // Only added or only removed lines: nothing to compare.
        for (int i = 0; i < int(a.size()); ++i)
            steps.push_back({Op::Removed, head + i, head});
        for (int i = 0; i < int(b.size()); ++i)
            steps.push_back({Op::Added, head + int(a.size()), head + i});
    } else {
        dtl::Diff<int, std::vector<int>> diff(a, b);
        diff.compose();
        int i = head, j = head;
        for (const auto &[number, info] : diff.getSes().getSequence()) {
            Q_UNUSED(number)
            if (info.type == dtl::SES_COMMON)
                steps.push_back({Op::Common, i++, j++});
            else if (info.type == dtl::SES_DELETE)
                steps.push_back({Op::Removed, i++, j});
            else
                steps.push_back({Op::Added, i, j++});
        }
    }
    for (int k = 0; k < std::min(tail, context); ++k)
        steps.push_back({Op::Common, beforeCount - tail + k, afterCount - tail + k});

    // Hunks: each change with `context` lines around it; changes closer than twice that share one.
    int plus = 0, minus = 0;
    QString out;
    const int count = int(steps.size());
    int k = 0;
    while (k < count) {
        while (k < count && steps[size_t(k)].op == Op::Common)
            ++k;
        if (k == count)
            break;
        const int first = std::max(0, k - context);
        // The hunk runs to the last change followed by fewer than 2 × context common lines.
        int last = k;
        int commons = 0;
        for (int m = k; m < count; ++m) {
            if (steps[size_t(m)].op == Op::Common) {
                if (++commons > 2 * context)
                    break;
            } else {
                commons = 0;
                last = m;
            }
        }
        const int end = std::min(count, last + 1 + context);
        int beforeLines = 0, afterLines = 0;
        for (int m = first; m < end; ++m) {
            beforeLines += steps[size_t(m)].op != Op::Added;
            afterLines += steps[size_t(m)].op != Op::Removed;
        }
        const Step &start = steps[size_t(first)];
        // An empty side is numbered by the line before it ("-0,0" for a new file).
        out += QStringLiteral("@@ -%1,%2 +%3,%4 @@\n")
                       .arg(beforeLines > 0 ? start.before + 1 : start.before)
                       .arg(beforeLines)
                       .arg(afterLines > 0 ? start.after + 1 : start.after)
                       .arg(afterLines);
        for (int m = first; m < end; ++m) {
            const Step &step = steps[size_t(m)];
            if (step.op == Op::Common) {
                appendLine(out, u' ', before[step.before]);
            } else if (step.op == Op::Removed) {
                appendLine(out, u'-', before[step.before]);
                ++minus;
            } else {
                appendLine(out, u'+', after[step.after]);
                ++plus;
            }
        }
        k = end;
    }
    if (added)
        *added = plus;
    if (removed)
        *removed = minus;
    return out;
}

FileChange FileChange::unknown(const QString &path, const QString &why)
{
    FileChange change;
    change.path = path;
    change.kind = Kind::Unknown;
    change.note = why;
    return change;
}

FileChange FileChange::tooLarge(const QString &path, qint64 bytesBefore, qint64 bytesAfter)
{
    FileChange change;
    change.path = path;
    change.kind = Kind::TooLarge;
    change.bytesBefore = bytesBefore;
    change.bytesAfter = bytesAfter;
    change.note = Text::tr("Too large to compare: more than %1.").arg(sizeText(MaxCompareBytes));
    return change;
}

FileChange FileChange::between(const QString &path, const std::optional<QByteArray> &before,
                               const QByteArray &after)
{
    FileChange change;
    change.path = path;
    change.bytesBefore = before ? before->size() : -1;
    change.bytesAfter = after.size();
    if (before && *before == after) {
        change.kind = Kind::Unchanged;
        return change;
    }
    if (change.bytesBefore > MaxCompareBytes || change.bytesAfter > MaxCompareBytes)
        return tooLarge(path, change.bytesBefore, change.bytesAfter);
    const std::optional<QStringList> old = before ? textLines(*before) : QStringList();
    const std::optional<QStringList> now = textLines(after);
    if (!old || !now) {
        change.kind = Kind::Binary;
        change.note = Text::tr("Binary content: not compared line by line.");
        return change;
    }
    const auto [head, tail] = commonEnds(*old, *now);
    const qint64 removedAtMost = old->size() - head - tail;
    const qint64 addedAtMost = now->size() - head - tail;
    if (removedAtMost * addedAtMost > qint64(MaxCompareLines) * MaxCompareLines) {
        const int differing = int(std::max(removedAtMost, addedAtMost));
        change.kind = Kind::TooLarge;
        change.note = Text::tr("Too different to compare: %n lines changed.", nullptr, differing);
        return change;
    }
    change.kind = before ? Kind::Edited : Kind::Created;
    QString hunks = unifiedDiff(*old, *now, 3, &change.added, &change.removed);
    const QString header
            = QStringLiteral("--- %1\n+++ %2\n")
                      .arg(before ? QStringLiteral("a/") + path : QStringLiteral("/dev/null"),
                           QStringLiteral("b/") + path);
    if (hunks.size() > MaxDiffChars) {
        int cut = int(hunks.lastIndexOf(QLatin1Char('\n'), MaxDiffChars - 1)) + 1;
        const int more = int(QStringView(hunks).mid(cut).count(QLatin1Char('\n')));
        hunks.truncate(cut);
        hunks += Text::tr("… %n more lines not shown", nullptr, more) + QLatin1Char('\n');
    }
    change.diff = header + hunks;
    return change;
}

FileOnDisk FileOnDisk::read(const Workspace &workspace, const QString &path)
{
    FileOnDisk on;
    on.shown = path;
    QString error;
    const std::optional<QString> canonical = workspace.resolve(path, &error, false);
    if (!canonical) {
        on.instead = FileChange::unknown(path, error);
        return on;
    }
    on.shown = workspace.displayPath(*canonical);
    const QFileInfo info(*canonical);
    if (!info.exists())
        return on;
    on.size = info.size();
    if (info.isDir()) {
        on.instead = FileChange::unknown(on.shown, Text::tr("'%1' is a folder.").arg(on.shown));
    } else if (!info.isFile()) { // a pipe would block the read
        on.instead = FileChange::unknown(on.shown,
                                         Text::tr("'%1' is not a regular file.").arg(on.shown));
    } else if (const std::optional<QString> pattern = workspace.sensitiveMatch(*canonical)) {
        // Its content is shown to no one: the diff is kept with the conversation.
        on.instead = FileChange::unknown(
                on.shown, Text::tr("'%1' may hold secrets (it matches \"%2\"): its content is "
                                   "not shown.")
                                  .arg(on.shown, *pattern));
    } else if (info.size() <= FileChange::MaxCompareBytes) { // else not read: too large
        QFile file(*canonical);
        if (!file.open(QIODevice::ReadOnly)) {
            on.instead = FileChange::unknown(
                    on.shown, Text::tr("Cannot read '%1': %2").arg(on.shown, file.errorString()));
        } else {
            on.bytes = file.read(FileChange::MaxCompareBytes + 1);
        }
    }
    return on;
}

std::optional<FileChange> FileOnDisk::insteadOfEdit() const
{
    if (instead)
        return instead;
    if (bytes)
        return std::nullopt;
    if (size < 0)
        return FileChange::unknown(shown, Text::tr("'%1' does not exist.").arg(shown));
    return FileChange::tooLarge(shown, size, size);
}

FileChange FileOnDisk::changeTo(const QByteArray &after) const
{
    if (instead) {
        FileChange change = *instead;
        change.bytesAfter = after.size();
        return change;
    }
    if (!bytes && size >= 0)
        return FileChange::tooLarge(shown, size, after.size());
    return FileChange::between(shown, bytes, after);
}

namespace {

QString stringOf(const Json &object, std::initializer_list<const char *> keys)
{
    for (const char *key : keys) {
        const auto it = object.find(key);
        if (it != object.end() && it->is_string())
            return QString::fromStdString(it->get<std::string>());
    }
    return QString();
}

// An edit's text to replace and its replacement, under any of the names servers use.
std::optional<std::pair<QString, QString>> replacementOf(const Json &object)
{
    for (const auto &[from, to] :
         {std::pair{"old_string", "new_string"}, std::pair{"old_str", "new_str"},
          std::pair{"oldText", "newText"}}) {
        const auto oldIt = object.find(from);
        const auto newIt = object.find(to);
        if (oldIt != object.end() && newIt != object.end() && oldIt->is_string()
            && newIt->is_string())
            return std::pair{QString::fromStdString(oldIt->get<std::string>()),
                             QString::fromStdString(newIt->get<std::string>())};
    }
    return std::nullopt;
}

} // namespace

QString fileArgumentOf(const Json &arguments)
{
    if (!arguments.is_object())
        return QString();
    return stringOf(arguments,
                    {"path", "file_path", "filePath", "file", "filename", "target_file"});
}

std::optional<FileChange> guessedFileChange(const Json &arguments, const Workspace &workspace)
{
    const QString path = fileArgumentOf(arguments);
    if (path.isEmpty())
        return std::nullopt;
    for (const char *key : {"content", "contents", "file_text", "new_content", "newContent"}) {
        const auto it = arguments.find(key);
        if (it != arguments.end() && it->is_string())
            return FileOnDisk::read(workspace, path)
                    .changeTo(QByteArray::fromStdString(it->get<std::string>()));
    }
    std::vector<std::pair<QString, QString>> replacements;
    if (const auto one = replacementOf(arguments))
        replacements.push_back(*one);
    const auto edits = arguments.find("edits");
    if (edits != arguments.end() && edits->is_array()) {
        for (const Json &edit : *edits) {
            if (const auto pair = replacementOf(edit))
                replacements.push_back(*pair);
        }
    }
    if (replacements.empty())
        return std::nullopt;
    const FileOnDisk on = FileOnDisk::read(workspace, path);
    if (const std::optional<FileChange> instead = on.insteadOfEdit())
        return instead;
    QString text = QString::fromUtf8(*on.bytes);
    for (const auto &[from, to] : replacements) {
        const qsizetype at = from.isEmpty() ? -1 : text.indexOf(from);
        if (at < 0)
            return FileChange::unknown(
                    on.shown, Text::tr("The text to replace is not in '%1': the server may refuse "
                                       "the call.")
                                      .arg(on.shown));
        text.replace(at, from.size(), to);
    }
    return on.changeTo(text.toUtf8());
}

QString FileChange::summary() const
{
    switch (kind) {
    case Kind::Edited:
        return QStringLiteral("+%1 −%2").arg(added).arg(removed);
    case Kind::Created:
        return Text::tr("new file, %n line(s)", nullptr, added);
    case Kind::Unchanged:
        return Text::tr("no change");
    case Kind::Binary:
    case Kind::TooLarge:
        return bytesBefore < 0
                       ? Text::tr("new file, %1").arg(sizeText(bytesAfter))
                       : Text::tr("%1 → %2").arg(sizeText(bytesBefore), sizeText(bytesAfter));
    case Kind::Unknown:
        return note;
    }
    return QString();
}

namespace {

constexpr const char *KindNames[]
        = {"edited", "created", "unchanged", "binary", "tooLarge", "unknown"};

} // namespace

Json FileChange::toJson() const
{
    Json json = {{"path", path.toStdString()},
                 {"kind", KindNames[int(kind)]},
                 {"added", added},
                 {"removed", removed},
                 {"bytesBefore", bytesBefore},
                 {"bytesAfter", bytesAfter}};
    if (!diff.isEmpty())
        json["diff"] = diff.toStdString();
    if (!note.isEmpty())
        json["note"] = note.toStdString();
    return json;
}

std::optional<FileChange> FileChange::fromJson(const Json &json)
{
    if (!json.is_object())
        return std::nullopt;
    const auto string = [&json](const char *key) {
        const auto it = json.find(key);
        return it != json.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                                   : QString();
    };
    const auto number = [&json](const char *key, qint64 fallback) {
        const auto it = json.find(key);
        return it != json.end() && it->is_number_integer() ? it->get<qint64>() : fallback;
    };
    FileChange change;
    change.path = string("path");
    const QString kind = string("kind");
    const auto *found
            = std::find_if(std::begin(KindNames), std::end(KindNames),
                           [&kind](const char *name) { return kind == QLatin1String(name); });
    if (found == std::end(KindNames) || change.path.isEmpty())
        return std::nullopt;
    change.kind = Kind(found - std::begin(KindNames));
    change.diff = string("diff").left(MaxDiffChars + 1024);
    change.note = string("note");
    change.added = int(std::clamp<qint64>(number("added", 0), 0, INT_MAX));
    change.removed = int(std::clamp<qint64>(number("removed", 0), 0, INT_MAX));
    change.bytesBefore = number("bytesBefore", -1);
    change.bytesAfter = number("bytesAfter", 0);
    return change;
}

} // namespace Engine
