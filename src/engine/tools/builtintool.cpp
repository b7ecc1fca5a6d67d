#include "builtintool.h"

namespace Engine::Builtin {

QString fromJson(const Json &value)
{
    return QString::fromStdString(value.get_ref<const std::string &>());
}

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

} // namespace Engine::Builtin
