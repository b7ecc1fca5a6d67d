#include "shellwords.h"

#include <QCoreApplication>

namespace Engine::ShellWords {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Engine::ShellWords)
};

// What the reader saw, in the order of precedence: an expansion anywhere makes the words
// unknowable, whatever else the command holds.
class Reader
{
public:
    explicit Reader(const QString &command)
        : m_text(command)
    {
    }

    Split read()
    {
        while (m_at < m_text.size() && !m_expansion) {
            const QChar c = m_text.at(m_at);
            switch (m_quote) {
            case Quote::None:
                readUnquoted(c);
                break;
            case Quote::Single:
                readSingle(c);
                break;
            case Quote::Double:
                readDouble(c);
                break;
            }
        }
        if (!m_expansion && m_quote != Quote::None)
            expansion(Tr::tr("an unterminated quote"));
        endWord();

        Split split;
        if (m_expansion) {
            split.kind = Split::Kind::Expansion;
            split.found = m_found;
        } else if (!m_operatorFound.isEmpty()) {
            split.kind = Split::Kind::Operators;
            split.found = m_operatorFound;
        } else {
            split.words = m_words;
        }
        return split;
    }

private:
    enum class Quote { None, Single, Double };

    QChar peek(qsizetype ahead = 1) const
    {
        return m_at + ahead < m_text.size() ? m_text.at(m_at + ahead) : QChar();
    }

    void expansion(const QString &what)
    {
        m_expansion = true;
        m_found = what;
    }
    void shellOperator(const QString &what)
    {
        if (m_operatorFound.isEmpty())
            m_operatorFound = what;
    }
    void endWord()
    {
        if (m_inWord)
            m_words << m_word;
        m_word.clear();
        m_inWord = false;
    }
    void append(QChar c)
    {
        m_word += c;
        m_inWord = true;
    }

    // Characters a user cannot see or that a terminal interprets: a command holding one is
    // not what the approval dialog shows.
    static bool invisible(QChar c)
    {
        if (c == QLatin1Char('\t') || c == QLatin1Char('\n') || c == QLatin1Char('\r'))
            return false;
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            return true;
        return c.unicode() > 0x7f
               && (c.isSpace() || c.category() == QChar::Other_Format
                   || c.category() == QChar::Other_Control);
    }

    // Shared by every quoting state: what is never part of a plain command.
    bool readSpecial(QChar c)
    {
        if (invisible(c)) {
            expansion(Tr::tr("an invisible or control character (U+%1)")
                              .arg(c.unicode(), 4, 16, QLatin1Char('0')));
            return true;
        }
        if (c == QLatin1Char('\n') || c == QLatin1Char('\r')) {
            shellOperator(Tr::tr("a newline"));
            if (m_quote != Quote::None)
                append(c);
            else
                endWord();
            ++m_at;
            return true;
        }
        return false;
    }

    void readUnquoted(QChar c)
    {
        if (readSpecial(c))
            return;
        const QChar next = peek();
        switch (c.unicode()) {
        case ' ':
        case '\t':
            endWord();
            break;
        case '\'':
            m_quote = Quote::Single;
            m_inWord = true;
            break;
        case '"':
            m_quote = Quote::Double;
            m_inWord = true;
            break;
        case '\\':
            if (next.isNull()) {
                expansion(Tr::tr("a backslash at the end"));
                return;
            }
            if (next == QLatin1Char('\n') || next == QLatin1Char('\r')) {
                ++m_at; // the newline itself is read next
                return;
            }
            if (invisible(next)) {
                ++m_at;
                return;
            }
            append(next);
            ++m_at;
            break;
        case '$':
            expansion(QStringLiteral("$"));
            return;
        case '`':
            expansion(QStringLiteral("`"));
            return;
        case '*':
        case '?':
        case '[':
            expansion(QString(c));
            return;
        case '{':
        case '}':
            expansion(QString(c));
            return;
        case '~':
            expansion(QStringLiteral("~"));
            return;
        case '<':
        case '>':
            if (next == QLatin1Char('(')) {
                expansion(QString(c) + QLatin1Char('('));
                return;
            }
            if (c == QLatin1Char('<') && next == QLatin1Char('<')) {
                expansion(QStringLiteral("<<"));
                return;
            }
            shellOperator(QString(c));
            endWord();
            break;
        case '&':
        case '|':
            if (next == c) { // && and ||, named as written
                shellOperator(QString(c) + c);
                ++m_at;
            } else {
                shellOperator(QString(c));
            }
            endWord();
            break;
        case ';':
        case '(':
        case ')':
            shellOperator(QString(c));
            endWord();
            break;
        case '#':
            if (!m_inWord) {
                // A comment: the rest is not run, whatever it looks like to the reader.
                shellOperator(QStringLiteral("#"));
                m_at = m_text.size();
                return;
            }
            append(c);
            break;
        default:
            append(c);
            break;
        }
        ++m_at;
    }

    void readSingle(QChar c)
    {
        if (readSpecial(c))
            return;
        if (c == QLatin1Char('\''))
            m_quote = Quote::None;
        else
            append(c);
        ++m_at;
    }

    void readDouble(QChar c)
    {
        if (readSpecial(c))
            return;
        switch (c.unicode()) {
        case '"':
            m_quote = Quote::None;
            break;
        case '$':
            expansion(QStringLiteral("$"));
            return;
        case '`':
            expansion(QStringLiteral("`"));
            return;
        case '\\': {
            const QChar next = peek();
            if (next == QLatin1Char('$') || next == QLatin1Char('`') || next == QLatin1Char('"')
                || next == QLatin1Char('\\')) {
                append(next);
                ++m_at;
            } else if (next == QLatin1Char('\n') || next == QLatin1Char('\r')) {
                ++m_at; // a continued line: the newline is read next
                return;
            } else {
                append(c);
            }
            break;
        }
        default:
            append(c);
            break;
        }
        ++m_at;
    }

    const QString &m_text;
    qsizetype m_at = 0;
    Quote m_quote = Quote::None;
    QString m_word;
    bool m_inWord = false;
    QStringList m_words;
    bool m_expansion = false;
    QString m_found;
    QString m_operatorFound;
};

} // namespace

Split split(const QString &command)
{
    return Reader(command).read();
}

} // namespace Engine::ShellWords
