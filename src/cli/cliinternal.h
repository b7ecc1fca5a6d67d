#pragma once

// What the files of the command line share (internal to src/cli): writing to the terminal and
// reading an option's value. Application is declared in cli.h; its construction, global
// options, command table and shared steps are in cli.cpp, the commands by group in
// cliservers.cpp, clifeatures.cpp, clirun.cpp, clitrust.cpp, cliauth.cpp, clia2a.cpp
// cliregistry.cpp and clisecrets.cpp.

#include <mcp/wire/jsonparser.h>

#include <QString>
#include <QStringList>

namespace Cli::Internal {

// Everything goes through TerminalText: most lines carry text a server or the model wrote.
void out(const QString &text);
void err(const QString &text); // adds the newline

QString jsonText(const Mcp::Json &value, int indent = 2);

// "--timeout 5" or "--timeout=5"; advances i past the value.
bool takeValue(const QStringList &args, int &i, const QString &name, QString *value);

} // namespace Cli::Internal
