#pragma once

#include <QString>
#include <QStringList>

namespace Engine {

// Reads a bash command line the way bash would split it into words, without running or
// expanding anything: quotes ('…', "…") and backslash escapes are undone, and whatever bash
// would expand or treat as more than one simple command is reported instead of guessed at.
// What approval grants for the built-in bash are judged by (CommandPattern): a grant may only
// cover a command whose words are known before it runs. Stateless.
namespace ShellWords {

struct Split
{
    enum class Kind {
        Words,     // a simple command: `words` are exactly what bash would run
        Operators, // ; & | < > ( ) or a newline: more than one command, or redirections
        Expansion, // $ ` globs braces ~ process substitution here-docs: words known only at run
                   // time
    };
    Kind kind = Kind::Words;
    QStringList words; // Words only
    // Operators and Expansion: what was found first, for the user: the characters ("$", "<(",
    // ";") or what they are ("a newline", "an unterminated quote").
    QString found;
};

Split split(const QString &command);

} // namespace ShellWords

} // namespace Engine
