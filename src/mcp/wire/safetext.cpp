#include "safetext.h"

namespace Mcp {

qsizetype indexOfControlCharacter(QStringView text)
{
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (isControlCharacter(text.at(i).unicode()))
            return i;
    }
    return -1;
}

QString escapeControlCharacters(QStringView text, QStringView keep)
{
    QString result;
    result.reserve(text.size());
    for (const QChar c : text) {
        if (isControlCharacter(c.unicode()) && !keep.contains(c))
            result += QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
        else
            result += c;
    }
    return result;
}

QString toolNamePart(QStringView text)
{
    QString result = text.toString();
    for (QChar &c : result) {
        const char16_t u = c.unicode();
        const bool ok = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9')
                        || u == '_';
        if (!ok)
            c = QLatin1Char('_');
    }
    return result;
}

} // namespace Mcp
