#pragma once

#include <QString>

namespace Engine {

// How a grant for a command-line tool (the built-in bash) covers commands. A grant is a
// pattern: the command's exact text, or its first words followed by `*` ("npm test*" covers
// "npm test" and "npm test --watch", never "npm tests" or "npm test; rm x"). Words are
// bash's (ShellWords: quotes and escapes undone), so a grant covers only commands whose words
// are known before bash runs them. Stateless; used by ToolRunner, ApprovalStore and the faces'
// approval prompts.
namespace CommandPattern {

// How far a grant may reach for a command.
enum class Reach {
    Prefix, // a grant for its first words covers it
    Exact,  // only a grant for exactly this text: it deletes, rewrites history, runs code or
            // another command given in its arguments, or holds shell operators
    Never,  // no grant covers it: bash expands it ($, backticks, globs, ...) only when it runs,
            // so it is asked every time
};

struct Assessment
{
    Reach reach = Reach::Prefix;
    // Exact: why, for "only this exact command can be remembered: …" ("rm can delete or
    // overwrite data"); Never: the whole sentence.
    QString why;
};

Assessment assess(const QString &command);

// The pattern the approval prompt offers for "allow for this conversation" / "always":
// Prefix: up to the first two words plus `*` (three for `npm run NAME` and the like); Exact:
// the command itself; Never: empty (nothing may be remembered).
QString suggest(const QString &command);

// Whether a grant for `pattern` covers `command` (see above). A pattern whose words cannot be
// read, or `*` alone, covers nothing.
bool matches(const QString &pattern, const QString &command);

} // namespace CommandPattern

} // namespace Engine
