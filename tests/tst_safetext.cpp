// Tests for the text rules in src/mcp/wire/safetext.h: which characters are control characters,
// how they are shown on a terminal, and the tool-name form of a name.

#include <mcp/wire/safetext.h>

#include <QTest>

using namespace Mcp;

class tst_SafeText : public QObject
{
    Q_OBJECT

private slots:
    void controlCharacters_data();
    void controlCharacters();
    void escape_data();
    void escape();
    void toolNamePart_data();
    void toolNamePart();
};

void tst_SafeText::controlCharacters_data()
{
    QTest::addColumn<uint>("codePoint");
    QTest::addColumn<bool>("control");
    QTest::addColumn<qsizetype>("index"); // of the first control in "ab" + c + "c", or -1
    QTest::newRow("NUL") << 0x00u << true << qsizetype(2);
    QTest::newRow("TAB") << 0x09u << true << qsizetype(2);
    QTest::newRow("ESC") << 0x1Bu << true << qsizetype(2);
    QTest::newRow("US") << 0x1Fu << true << qsizetype(2);
    QTest::newRow("space") << 0x20u << false << qsizetype(-1);
    QTest::newRow("tilde") << 0x7Eu << false << qsizetype(-1);
    QTest::newRow("DEL") << 0x7Fu << true << qsizetype(2);
    QTest::newRow("PAD (first C1)") << 0x80u << true << qsizetype(2);
    QTest::newRow("CSI (C1)") << 0x9Bu << true << qsizetype(2);
    QTest::newRow("APC (last C1)") << 0x9Fu << true << qsizetype(2);
    QTest::newRow("NBSP") << 0xA0u << false << qsizetype(-1);
    QTest::newRow("é") << 0xE9u << false << qsizetype(-1);
    QTest::newRow("U+2028") << 0x2028u << false << qsizetype(-1);
}

void tst_SafeText::controlCharacters()
{
    QFETCH(uint, codePoint);
    QFETCH(bool, control);
    QFETCH(qsizetype, index);
    QCOMPARE(isControlCharacter(char32_t(codePoint)), control);
    QCOMPARE(indexOfControlCharacter(QStringLiteral("ab") + QChar(codePoint) + u'c'), index);
}

void tst_SafeText::escape_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("keep");
    QTest::addColumn<QString>("expected");
    QTest::newRow("plain") << "hello, wörld 🚀"
                           << ""
                           << "hello, wörld 🚀";
    QTest::newRow("empty") << ""
                           << ""
                           << "";
    QTest::newRow("OSC title") << "\x1b]0;pwned\x07"
                               << ""
                               << "\\u001b]0;pwned\\u0007";
    QTest::newRow("OSC 52 clipboard") << "\x1b]52;c;cm0gLXJmIH4=\x1b\\"
                                      << ""
                                      << "\\u001b]52;c;cm0gLXJmIH4=\\u001b\\";
    QTest::newRow("clear screen, CR") << "\x1b[2J\rAllow?"
                                      << ""
                                      << "\\u001b[2J\\u000dAllow?";
    QTest::newRow("C1 CSI and DEL") << QStringLiteral("a\u009b31m\x7f") << ""
                                    << "a\\u009b31m\\u007f";
    QTest::newRow("NUL") << QString(QChar(0)) << ""
                         << "\\u0000";
    QTest::newRow("newline and tab kept") << "a\tb\nc\r\n"
                                          << "\n\t"
                                          << "a\tb\nc\\u000d\n";
    QTest::newRow("newline escaped unless kept") << "a\nb"
                                                 << ""
                                                 << "a\\u000ab";
}

void tst_SafeText::escape()
{
    QFETCH(QString, text);
    QFETCH(QString, keep);
    QFETCH(QString, expected);
    const QString escaped = escapeControlCharacters(text, keep);
    QCOMPARE(escaped, expected);
    QCOMPARE(indexOfControlCharacter(QString(escaped).remove(u'\n').remove(u'\t')), -1);
}

void tst_SafeText::toolNamePart_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("expected");
    QTest::newRow("kept") << "Az09_"
                          << "Az09_";
    QTest::newRow("dash") << "a-b"
                          << "a_b";
    QTest::newRow("dot") << "a.b"
                         << "a_b";
    QTest::newRow("space, slash") << "a b/c"
                                  << "a_b_c";
    QTest::newRow("unicode") << "日本"
                             << "__";
    QTest::newRow("outside the BMP: two units") << "🚀"
                                                << "__";
    QTest::newRow("empty") << ""
                           << "";
}

void tst_SafeText::toolNamePart()
{
    QFETCH(QString, name);
    QFETCH(QString, expected);
    QCOMPARE(Mcp::toolNamePart(name), expected);
}

QTEST_GUILESS_MAIN(tst_SafeText)
#include "tst_safetext.moc"
