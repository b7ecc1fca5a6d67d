#include "contextfit.h"

#include <QCoreApplication>

#include <climits>

namespace Engine::ContextFit {

namespace {

// Per-message framing (role, separators) as the providers count it, roughly.
constexpr qint64 MessageOverheadTokens = 4;
// An attached image, as the providers count one of the size they scale to (about 1,600).
constexpr qint64 ImageTokens = 1600;

QString tr(const char *text, int n = -1)
{
    return QCoreApplication::translate("Engine::ContextFit", text, nullptr, n);
}

// Index of the last user message, or -1.
qsizetype lastUser(const std::vector<ChatMessage> &messages)
{
    for (qsizetype i = qsizetype(messages.size()) - 1; i >= 0; --i) {
        if (messages[size_t(i)].role == ChatMessage::Role::User)
            return i;
    }
    return -1;
}

QString shortened(const QString &text)
{
    const qsizetype cut = text.size() - KeptHeadChars - KeptTailChars;
    return text.left(KeptHeadChars)
           + tr("\n… [%n characters of this earlier result left out to fit the context window] …\n",
                int(std::min<qsizetype>(cut, INT_MAX)))
           + text.right(KeptTailChars);
}

} // namespace

qint64 estimateTokens(const QString &text)
{
    qint64 ascii = 0;
    qint64 other = 0;
    for (const QChar c : text)
        (c.unicode() < 0x80 ? ascii : other) += 1;
    return (ascii + 3) / 4 + other;
}

qint64 estimateTokens(const ChatMessage &message)
{
    qint64 tokens = MessageOverheadTokens + estimateTokens(message.text);
    for (const Attachment &attachment : message.attachments)
        tokens += attachment.isImage() ? ImageTokens : estimateTokens(attachment.modelText());
    for (const ToolCallRequest &call : message.toolCalls)
        tokens += MessageOverheadTokens + estimateTokens(call.name)
                  + estimateTokens(call.argumentsText.isEmpty()
                                           ? QString::fromStdString(call.arguments.dump(
                                                   -1, ' ', false, Json::error_handler_t::replace))
                                           : call.argumentsText);
    return tokens;
}

qint64 estimateTokens(const std::vector<ChatMessage> &messages)
{
    qint64 tokens = 0;
    for (const ChatMessage &message : messages)
        tokens += estimateTokens(message);
    return tokens;
}

Result fit(const std::vector<ChatMessage> &messages, qint64 budgetTokens)
{
    Result result;
    result.messages = messages;
    result.tokens = estimateTokens(messages);
    if (result.tokens <= budgetTokens)
        return result;

    // 1. Earlier turns' tool results, oldest first.
    const qsizetype current = lastUser(result.messages);
    for (qsizetype i = 0; i < current && result.tokens > budgetTokens; ++i) {
        ChatMessage &message = result.messages[size_t(i)];
        if (message.role != ChatMessage::Role::Tool
            || message.text.size() <= KeptHeadChars + KeptTailChars + 200)
            continue;
        const qint64 before = estimateTokens(message);
        message.text = shortened(message.text);
        result.tokens += estimateTokens(message) - before;
        ++result.shortenedResults;
    }
    if (result.tokens <= budgetTokens)
        return result;

    // 2. Whole earlier turns, oldest first; a turn starts at a user message.
    qsizetype keepFrom = 0;
    qint64 tokens = result.tokens;
    while (tokens > budgetTokens) {
        qsizetype next = keepFrom + 1;
        while (next < qsizetype(result.messages.size())
               && result.messages[size_t(next)].role != ChatMessage::Role::User)
            ++next;
        if (next >= qsizetype(result.messages.size()) || next > current)
            break; // the last turn is always sent
        for (qsizetype i = keepFrom; i < next; ++i)
            tokens -= estimateTokens(result.messages[size_t(i)]);
        keepFrom = next;
    }
    if (keepFrom > 0) {
        result.droppedMessages = int(keepFrom);
        result.messages.erase(result.messages.begin(), result.messages.begin() + keepFrom);
        ChatMessage &first = result.messages.front();
        const qint64 before = estimateTokens(first);
        first.text = tr("[%n earlier messages of this conversation were left out to fit the "
                        "context window.]",
                        int(keepFrom))
                     + QStringLiteral("\n\n") + first.text;
        tokens += estimateTokens(first) - before;
    }
    result.tokens = tokens;
    result.fits = tokens <= budgetTokens;
    return result;
}

} // namespace Engine::ContextFit
