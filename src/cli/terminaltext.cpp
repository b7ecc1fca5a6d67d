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

namespace {

bool askIsTerminal(std::FILE *stream)
{
#ifdef Q_OS_WIN
    return ::_isatty(::_fileno(stream)) != 0; // consoles act on VT sequences too
#else
    return ::isatty(::fileno(stream)) == 1;
#endif
}

// Asked once per stream: a system call per line made printing 10,000 tool names take longer
// than listing them. What stdout and stderr are does not change while we run.
bool isTerminal(std::FILE *stream)
{
    if (stream == stdout) {
        static const bool terminal = askIsTerminal(stdout);
        return terminal;
    }
    if (stream == stderr) {
        static const bool terminal = askIsTerminal(stderr);
        return terminal;
    }
    return askIsTerminal(stream);
}

} // namespace

void write(std::FILE *stream, const QString &text)
{
    const bool terminal = isTerminal(stream);
    const QByteArray bytes = (terminal ? escaped(text) : text).toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stream);
}

} // namespace Cli::TerminalText
