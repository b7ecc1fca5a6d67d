#include "bashrun.h"

namespace Engine::Builtin {

// Cuts long command output for the model: the head (what ran) and the larger tail (where
// errors and summaries are), with a note of what is missing in between.
QString headAndTail(const QString &text, int maxChars)
{
    if (text.size() <= maxChars)
        return text;
    qsizetype head = maxChars / 4;
    if (head > 0 && text.at(head - 1).isHighSurrogate())
        --head;
    qsizetype tailStart = text.size() - (maxChars - head);
    if (tailStart < text.size() && text.at(tailStart).isLowSurrogate())
        ++tailStart;
    return text.left(head)
           + Text::tr("\n… [cut: %n characters in the middle; the full output is in the UI] …\n",
                      nullptr, int(tailStart - head))
           + text.mid(tailStart);
}

} // namespace Engine::Builtin
