#pragma once

#include <engine/llm/llm.h>

#include <QByteArray>
#include <QString>

#include <array>
#include <optional>
#include <vector>

class QDataStream;

namespace Engine {

// What is searched for: the text as typed, matched in UTF-8 with ASCII letters in either case
// (other characters as typed: Chinese has no case).
class SearchPattern
{
public:
    explicit SearchPattern(const QString &text);
    bool isEmpty() const { return m_needle.isEmpty(); }
    // Where the pattern starts in `text` between `from` and `to`, or -1 (Horspool's search).
    qsizetype find(const char *text, qsizetype from, qsizetype to) const;
    qsizetype size() const { return m_needle.size(); }

private:
    QByteArray m_needle; // folded
    std::array<qsizetype, 256> m_skip{};
};

// The words of one conversation that search looks in: the text of its user and assistant
// messages in UTF-8, each cut at MaxMessageBytes and all of them at MaxBytes (a message past
// that is not found). Kept by ConversationStore beside index.json, in search.idx.
class SearchText
{
public:
    static constexpr qsizetype MaxMessageBytes = 16 * 1024;
    static constexpr qsizetype MaxBytes = 512 * 1024;
    // A line that matches is shown at most this many characters long, around the match.
    static constexpr qsizetype MaxLineChars = 160;

    // Message number `index` of the conversation (tool results and system text are left out).
    void add(int index, const ChatMessage &message);
    // Keeps the messages before `messageCount` (an edit or retry dropped the rest).
    void truncate(int messageCount);
    qsizetype bytes() const { return m_text.size(); }

    struct Match
    {
        int message = -1; // the first match's message
        QString line;     // its line, cut around the match
        int count = 0;    // matches in the conversation, at most maxCount
    };
    std::optional<Match> find(const SearchPattern &pattern, int maxCount = 999) const;

    void write(QDataStream &out) const;
    // False (and nothing kept) when what is read is not one.
    bool read(QDataStream &in);

private:
    struct Start
    {
        qsizetype offset;
        int message;
    };
    QByteArray m_text; // each message's text followed by '\0'
    std::vector<Start> m_starts;
};

} // namespace Engine
