#include "codehighlighter.h"

#include <QSet>
#include <QTextBlock>

namespace Gui {

namespace {

const QSet<QString> &keywords()
{
    static const QSet<QString> words = [] {
        QSet<QString> set;
        for (const char *word :
             {"auto",    "bool",      "break",     "case",      "catch",    "char",     "class",
              "const",   "constexpr", "continue",  "def",       "default",  "delete",   "do",
              "double",  "elif",      "else",      "enum",      "except",   "export",   "extern",
              "false",   "final",     "finally",   "float",     "fn",       "for",      "from",
              "func",    "function",  "go",        "if",        "impl",     "import",   "in",
              "include", "int",       "interface", "is",        "lambda",   "let",      "long",
              "match",   "mod",       "mut",       "namespace", "new",      "None",     "not",
              "null",    "nullptr",   "operator",  "or",        "and",      "override", "package",
              "pass",    "private",   "protected", "pub",       "public",   "raise",    "return",
              "self",    "short",     "signed",    "sizeof",    "static",   "struct",   "super",
              "switch",  "template",  "then",      "this",      "throw",    "true",     "True",
              "False",   "try",       "type",      "typedef",   "typename", "union",    "unsigned",
              "use",     "using",     "var",       "virtual",   "void",     "volatile", "while",
              "with",    "yield",     "async",     "await",     "fi",       "done",     "esac",
              "echo",    "local",     "readonly",  "string",    "std",      "println",  "print"})
            set.insert(QString::fromLatin1(word));
        return set;
    }();
    return words;
}

// Languages whose line comments start with '#'.
bool hashComments(const QString &language)
{
    static const QSet<QString> languages{
            QStringLiteral("python"), QStringLiteral("py"),         QStringLiteral("sh"),
            QStringLiteral("bash"),   QStringLiteral("shell"),      QStringLiteral("zsh"),
            QStringLiteral("yaml"),   QStringLiteral("yml"),        QStringLiteral("toml"),
            QStringLiteral("ruby"),   QStringLiteral("rb"),         QStringLiteral("perl"),
            QStringLiteral("r"),      QStringLiteral("make"),       QStringLiteral("makefile"),
            QStringLiteral("cmake"),  QStringLiteral("dockerfile"), QStringLiteral("ini"),
            QStringLiteral("conf"),   QStringLiteral("console")};
    return languages.contains(language.toLower());
}

bool isWordChar(QChar c)
{
    return c.isLetterOrNumber() || c == u'_';
}

} // namespace

CodeHighlighter::CodeHighlighter(QTextDocument *document)
    : QSyntaxHighlighter(document)
{
    setDark(false);
}

void CodeHighlighter::setDark(bool dark)
{
    m_keyword.setForeground(dark ? QColor(0x82, 0xaa, 0xff) : QColor(0x00, 0x33, 0xb3));
    m_keyword.setFontWeight(QFont::DemiBold);
    m_string.setForeground(dark ? QColor(0xc3, 0xe8, 0x8d) : QColor(0x06, 0x7d, 0x17));
    m_comment.setForeground(dark ? QColor(0x8a, 0x8f, 0x98) : QColor(0x6a, 0x73, 0x7d));
    m_comment.setFontItalic(true);
    m_number.setForeground(dark ? QColor(0xf7, 0x8c, 0x6c) : QColor(0x17, 0x50, 0xeb));
    rehighlight();
}

bool CodeHighlighter::isCodeBlock(const QTextBlock &block)
{
    return block.blockFormat().hasProperty(QTextFormat::BlockCodeFence)
           || block.blockFormat().hasProperty(QTextFormat::BlockCodeLanguage);
}

void CodeHighlighter::highlightBlock(const QString &text)
{
    const QTextBlock block = currentBlock();
    if (!isCodeBlock(block))
        return;
    const QString language = block.blockFormat().stringProperty(QTextFormat::BlockCodeLanguage);
    // Without a language it may be anything (output, a log, prose): nothing is guessed.
    static const QSet<QString> plain{QStringLiteral("text"),   QStringLiteral("txt"),
                                     QStringLiteral("plain"),  QStringLiteral("plaintext"),
                                     QStringLiteral("output"), QStringLiteral("log")};
    if (language.isEmpty() || plain.contains(language.toLower()))
        return;
    const bool hash = hashComments(language);
    const qsizetype n = text.size();
    qsizetype i = 0;
    while (i < n) {
        const QChar c = text.at(i);
        // Comments run to the end of the line ("/* ... */" only within it).
        if ((c == u'/' && i + 1 < n && text.at(i + 1) == u'/') || (hash && c == u'#')) {
            setFormat(int(i), int(n - i), m_comment);
            return;
        }
        if (c == u'/' && i + 1 < n && text.at(i + 1) == u'*') {
            qsizetype end = text.indexOf(QLatin1String("*/"), i + 2);
            end = end < 0 ? n : end + 2;
            setFormat(int(i), int(end - i), m_comment);
            i = end;
            continue;
        }
        if (c == u'"' || c == u'\'' || c == u'`') {
            qsizetype end = i + 1;
            while (end < n && text.at(end) != c)
                end += text.at(end) == u'\\' ? 2 : 1;
            end = std::min(n, end + 1);
            setFormat(int(i), int(end - i), m_string);
            i = end;
            continue;
        }
        if (c.isDigit() && (i == 0 || !isWordChar(text.at(i - 1)))) {
            qsizetype end = i;
            while (end < n && (text.at(end).isLetterOrNumber() || text.at(end) == u'.'))
                ++end;
            setFormat(int(i), int(end - i), m_number);
            i = end;
            continue;
        }
        if (isWordChar(c)) {
            qsizetype end = i;
            while (end < n && isWordChar(text.at(end)))
                ++end;
            if (keywords().contains(text.mid(i, end - i)))
                setFormat(int(i), int(end - i), m_keyword);
            i = end;
            continue;
        }
        ++i;
    }
}

} // namespace Gui
