#pragma once

#include <QString>
#include <QStringView>

#include <cstdio>

// How switchboard-cli writes to its standard streams. Much of what it prints was written by a
// server or the model (tool output, stderr tails, failure reasons, server and tool names), and
// a terminal acts on control characters instead of showing them: ESC sequences set the title,
// clear the screen, write the clipboard (OSC 52) or draw a forged approval prompt. So on a
// terminal every control character but newline and tab is shown escaped (ESC → `\u001b`);
// pipes and files get the text unchanged, as a script expects. Stateless; used by Cli::Application
// and TerminalApprovalGate for every line they write.
namespace Cli::TerminalText {

/// `text` as a terminal may show it: control characters other than '\n' and '\t' escaped.
QString escaped(QStringView text);

/// Writes `text` as UTF-8 to `stream` (stdout or stderr), escaped() if that is a terminal.
void write(std::FILE *stream, const QString &text);

} // namespace Cli::TerminalText
