#pragma once

#include "llm.h"

#include <QtGlobal>

#include <vector>

namespace Engine {

// Fitting a conversation into the model's context window before a request. The conversation
// (and its file) keeps everything; only what is sent is made smaller, in this order:
//   1. results of tools from earlier turns are shortened to their head and tail, oldest
//      first (the current turn's results are the model's work in hand and stay whole);
//   2. if that is not enough, whole earlier turns (a user message and everything that
//      answered it) are left out, oldest first; the first turn kept says so. The last turn
//      is always sent.
// Tokens are estimated, not counted: a quarter token per ASCII character and one per other
// character (CJK text runs close to one token a character), plus a few per message.
namespace ContextFit {

struct Result
{
    std::vector<ChatMessage> messages; // what to send
    int shortenedResults = 0;
    int droppedMessages = 0;
    qint64 tokens = 0; // the estimate of `messages`
    bool fits = true;  // false: even the last turn alone is over the budget

    bool changed() const { return shortenedResults > 0 || droppedMessages > 0; }
};

// Characters a shortened result keeps from its start and from its end.
inline constexpr int KeptHeadChars = 600;
inline constexpr int KeptTailChars = 200;

qint64 estimateTokens(const QString &text);
qint64 estimateTokens(const ChatMessage &message);
qint64 estimateTokens(const std::vector<ChatMessage> &messages);

Result fit(const std::vector<ChatMessage> &messages, qint64 budgetTokens);

} // namespace ContextFit
} // namespace Engine
