#include "searchtext.h"

#include <QDataStream>

#include <algorithm>

namespace Engine {

namespace {

constexpr std::array<unsigned char, 256> foldTable()
{
    std::array<unsigned char, 256> table{};
    for (int c = 0; c < 256; ++c)
        table[size_t(c)]
                = (c >= 'A' && c <= 'Z') ? (unsigned char)(c - 'A' + 'a') : (unsigned char)c;
    return table;
}

constexpr std::array<unsigned char, 256> Fold = foldTable();

inline unsigned char fold(char c)
{
    return Fold[static_cast<unsigned char>(c)];
}

// Moves `at` back to the first byte of a UTF-8 character.
qsizetype charStart(const QByteArray &text, qsizetype at, qsizetype floor)
{
    while (at > floor && (static_cast<unsigned char>(text.at(at)) & 0xC0) == 0x80)
        --at;
    return at;
}

// Moves `at` back to where the UTF-8 character ends.
qsizetype cutAt(const QByteArray &text, qsizetype at)
{
    return at >= text.size() ? text.size() : charStart(text, at, 0);
}

} // namespace

SearchPattern::SearchPattern(const QString &text)
{
    const QByteArray utf8 = text.trimmed().toUtf8();
    if (utf8.contains('\0'))
        return; // the text has none (SearchText::add): it would match only between messages
    m_needle.resize(utf8.size());
    for (qsizetype i = 0; i < utf8.size(); ++i)
        m_needle[i] = char(fold(utf8.at(i)));
    m_skip.fill(m_needle.size());
    for (qsizetype i = 0; i + 1 < m_needle.size(); ++i)
        m_skip[static_cast<unsigned char>(m_needle.at(i))] = m_needle.size() - 1 - i;
}

qsizetype SearchPattern::find(const char *text, qsizetype from, qsizetype to) const
{
    const qsizetype m = m_needle.size();
    if (m == 0)
        return -1;
    const char *needle = m_needle.constData();
    qsizetype at = from;
    while (at + m <= to) {
        qsizetype j = m - 1;
        while (j >= 0 && fold(text[at + j]) == static_cast<unsigned char>(needle[j]))
            --j;
        if (j < 0)
            return at;
        at += m_skip[fold(text[at + m - 1])];
    }
    return -1;
}

void SearchText::add(int index, const ChatMessage &message)
{
    if (message.role != ChatMessage::Role::User && message.role != ChatMessage::Role::Assistant)
        return;
    if (message.text.isEmpty() || m_text.size() >= MaxBytes)
        return;
    QByteArray utf8 = message.text.toUtf8();
    utf8.replace('\0', ' ');
    const qsizetype room = std::min(MaxMessageBytes, MaxBytes - m_text.size());
    if (utf8.size() > room)
        utf8.truncate(cutAt(utf8, room));
    m_starts.push_back({m_text.size(), index});
    m_text += utf8;
    m_text += '\0';
}

void SearchText::truncate(int messageCount)
{
    const auto first
            = std::find_if(m_starts.begin(), m_starts.end(),
                           [messageCount](const Start &s) { return s.message >= messageCount; });
    if (first == m_starts.end())
        return;
    m_text.truncate(first->offset);
    m_starts.erase(first, m_starts.end());
}

std::optional<SearchText::Match> SearchText::find(const SearchPattern &pattern, int maxCount) const
{
    if (pattern.isEmpty())
        return std::nullopt;
    const char *text = m_text.constData();
    const qsizetype end = m_text.size();
    Match match;
    qsizetype at = pattern.find(text, 0, end);
    if (at < 0)
        return std::nullopt;
    // The message it is in, and the line of it around the match.
    const auto start
            = std::upper_bound(m_starts.begin(), m_starts.end(), at,
                               [](qsizetype offset, const Start &s) { return offset < s.offset; })
              - 1;
    match.message = start->message;
    const qsizetype messageEnd = m_text.indexOf('\0', at);
    qsizetype lineStart = at;
    while (lineStart > start->offset && text[lineStart - 1] != '\n')
        --lineStart;
    qsizetype lineEnd = at;
    while (lineEnd < messageEnd && text[lineEnd] != '\n')
        ++lineEnd;
    // About a third of the line's room before the match, the rest after it (in bytes: a
    // line of Chinese is cut shorter, never in a character).
    constexpr qsizetype before = MaxLineChars / 3;
    const bool cutBefore = at - lineStart > before;
    if (cutBefore)
        lineStart = charStart(m_text, at - before, lineStart);
    const bool cutAfter = lineEnd - lineStart > MaxLineChars;
    if (cutAfter)
        lineEnd = charStart(m_text, lineStart + MaxLineChars, lineStart);
    match.line = QString::fromUtf8(text + lineStart, lineEnd - lineStart).trimmed();
    if (cutBefore)
        match.line.prepend(QChar(0x2026));
    if (cutAfter)
        match.line.append(QChar(0x2026));
    while (at >= 0 && match.count < maxCount) {
        ++match.count;
        at = pattern.find(text, at + pattern.size(), end);
    }
    return match;
}

void SearchText::write(QDataStream &out) const
{
    out << m_text << quint32(m_starts.size());
    for (const Start &start : m_starts)
        out << qint64(start.offset) << qint32(start.message);
}

bool SearchText::read(QDataStream &in)
{
    QByteArray text;
    quint32 count = 0;
    in >> text >> count;
    if (in.status() != QDataStream::Ok || text.size() > MaxBytes + 1024 || count > text.size())
        return false;
    std::vector<Start> starts;
    starts.reserve(count);
    for (quint32 i = 0; i < count; ++i) {
        qint64 offset = 0;
        qint32 message = 0;
        in >> offset >> message;
        // In order, inside the text, each message after a '\0' (or at 0).
        if (in.status() != QDataStream::Ok || offset < 0 || offset >= text.size() || message < 0
            || (!starts.empty()
                && (offset <= starts.back().offset || message < starts.back().message))
            || (offset > 0 && text.at(offset - 1) != '\0'))
            return false;
        starts.push_back({qsizetype(offset), int(message)});
    }
    if ((count == 0) != text.isEmpty()
        || (count > 0 && (starts.front().offset != 0 || !text.endsWith('\0'))))
        return false;
    m_text = std::move(text);
    m_starts = std::move(starts);
    return true;
}

} // namespace Engine
