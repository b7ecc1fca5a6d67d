#pragma once

// What the files of the command line share (internal to src/cli): writing to the terminal and
// reading an option's value. Application is declared in cli.h; its construction, global
// options, command table and shared steps are in cli.cpp, the commands by group in
// cliservers.cpp, clifeatures.cpp, clirun.cpp, clitrust.cpp, cliauth.cpp, clia2a.cpp
// cliregistry.cpp, clisecrets.cpp and cliinstall.cpp.

#include <mcp/wire/jsonparser.h>

#include <QString>
#include <QStringList>

#include <optional>

namespace Cli::Internal {

// Everything goes through TerminalText: most lines carry text a server or the model wrote.
void out(const QString &text);
void err(const QString &text); // adds the newline

// One line typed at the terminal, not shown while typed (a secret); nothing at the end of input.
std::optional<QString> readHidden(const QString &prompt);

QString jsonText(const Mcp::Json &value, int indent = 2);

// "--timeout 5" or "--timeout=5"; advances i past the value.
bool takeValue(const QStringList &args, int &i, const QString &name, QString *value);

} // namespace Cli::Internal
