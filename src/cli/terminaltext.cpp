#include "terminaltext.h"

#include <mcp/wire/safetext.h>

#ifdef Q_OS_WIN
#include <io.h>
#else
#include <unistd.h>
#endif

namespace Cli::TerminalText {

QString escaped(QStringView text)
{
    return Mcp::escapeControlCharacters(text, u"\n\t");
}

void write(std::FILE *stream, const QString &text)
{
#ifdef Q_OS_WIN
    const bool terminal = ::_isatty(::_fileno(stream)) != 0; // consoles act on VT sequences too
#else
    const bool terminal = ::isatty(::fileno(stream)) == 1;
#endif
    const QByteArray bytes = (terminal ? escaped(text) : text).toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stream);
}

} // namespace Cli::TerminalText
