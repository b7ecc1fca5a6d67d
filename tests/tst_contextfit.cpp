// Tests for Engine::ContextFit: what is sent when a conversation outgrows the model's context
// window (earlier tool results shortened first, then earlier turns left out, the last turn
// always kept whole), and the token estimate.

#include <engine/llm/contextfit.h>

#include <QTest>

using namespace Engine;

class tst_ContextFit : public QObject
{
    Q_OBJECT

private slots:
    void estimate();
    void underBudgetIsUnchanged();
    void earlierResultsAreShortenedFirst();
    void earlierTurnsAreLeftOutWhole();
    void lastTurnIsAlwaysSent();

private:
    static ChatMessage message(ChatMessage::Role role, const QString &text)
    {
        ChatMessage m;
        m.role = role;
        m.text = text;
        return m;
    }
    // A turn: the question, a call, its (long) result, the answer.
    static void addTurn(std::vector<ChatMessage> &messages, int n, int resultChars)
    {
        messages.push_back(message(ChatMessage::Role::User, QStringLiteral("question %1").arg(n)));
        ChatMessage call = message(ChatMessage::Role::Assistant, QString());
        call.toolCalls.push_back({QStringLiteral("c%1").arg(n), QStringLiteral("read_file"),
                                  Json{{"path", "a.txt"}}, QString()});
        messages.push_back(call);
        ChatMessage result = message(ChatMessage::Role::Tool,
                                     QStringLiteral("START%1 ").arg(n) + QString(resultChars, u'x')
                                             + QStringLiteral(" END%1").arg(n));
        result.toolCallId = QStringLiteral("c%1").arg(n);
        result.toolName = QStringLiteral("read_file");
        messages.push_back(result);
        messages.push_back(
                message(ChatMessage::Role::Assistant, QStringLiteral("answer %1").arg(n)));
    }
};

void tst_ContextFit::estimate()
{
    QCOMPARE(ContextFit::estimateTokens(QString(400, u'a')), 100);
    QCOMPARE(ContextFit::estimateTokens(QString(100, QChar(0x6c49))), 100); // 汉
    QCOMPARE(ContextFit::estimateTokens(QString()), 0);
    QVERIFY(ContextFit::estimateTokens(message(ChatMessage::Role::User, QString())) > 0);
}

void tst_ContextFit::underBudgetIsUnchanged()
{
    std::vector<ChatMessage> messages;
    addTurn(messages, 1, 1000);
    const ContextFit::Result result = ContextFit::fit(messages, 100000);
    QVERIFY(!result.changed());
    QVERIFY(result.fits);
    QCOMPARE(result.messages.size(), messages.size());
    QCOMPARE(result.messages[2].text, messages[2].text);
    QCOMPARE(result.tokens, ContextFit::estimateTokens(messages));
}

void tst_ContextFit::earlierResultsAreShortenedFirst()
{
    std::vector<ChatMessage> messages;
    for (int n = 1; n <= 4; ++n)
        addTurn(messages, n, 20000); // ~5,000 tokens per result
    const qint64 whole = ContextFit::estimateTokens(messages);
    // Room for all but about two results: the two oldest are shortened, nothing dropped.
    const ContextFit::Result result = ContextFit::fit(messages, whole - 9000);
    QVERIFY(result.fits);
    QCOMPARE(result.droppedMessages, 0);
    QCOMPARE(result.shortenedResults, 2);
    QCOMPARE(result.messages.size(), messages.size());
    const QString first = result.messages[2].text;
    QVERIFY(first.startsWith(QStringLiteral("START1 ")));
    QVERIFY(first.endsWith(QStringLiteral(" END1")));
    QVERIFY(first.contains(QStringLiteral("left out to fit the context window")));
    QVERIFY(first.size() < 1200);
    QVERIFY(result.messages[6].text.size() < 1200);
    QCOMPARE(result.messages[10].text, messages[10].text); // a newer one, whole
    QCOMPARE(result.messages[14].text, messages[14].text); // the current turn's, whole
    QVERIFY(result.tokens <= whole - 9000);
    QCOMPARE(result.tokens, ContextFit::estimateTokens(result.messages));
}

void tst_ContextFit::earlierTurnsAreLeftOutWhole()
{
    std::vector<ChatMessage> messages;
    for (int n = 1; n <= 6; ++n) {
        messages.push_back(message(ChatMessage::Role::User,
                                   QStringLiteral("question %1 ").arg(n) + QString(4000, u'q')));
        messages.push_back(message(ChatMessage::Role::Assistant, QString(4000, u'a')));
    }
    // About three turns fit.
    const ContextFit::Result result = ContextFit::fit(messages, 6500);
    QVERIFY(result.fits);
    QCOMPARE(result.shortenedResults, 0);
    QVERIFY(result.droppedMessages >= 6);
    QCOMPARE(result.droppedMessages % 2, 0); // whole turns
    QCOMPARE(int(result.messages.size()), int(messages.size()) - result.droppedMessages);
    // The first message sent is a user message that says what was left out, then its own text.
    QCOMPARE(int(result.messages.front().role), int(ChatMessage::Role::User));
    QVERIFY(result.messages.front().text.contains(QStringLiteral("left out")));
    QVERIFY(result.messages.front().text.contains(
            QStringLiteral("question %1 ").arg(result.droppedMessages / 2 + 1)));
    QCOMPARE(result.messages.back().text, messages.back().text);
    QVERIFY(result.tokens <= 6500);
    QCOMPARE(result.tokens, ContextFit::estimateTokens(result.messages));
}

void tst_ContextFit::lastTurnIsAlwaysSent()
{
    std::vector<ChatMessage> messages;
    addTurn(messages, 1, 100);
    messages.push_back(message(ChatMessage::Role::User, QString(40000, u'z'))); // ~10,000 tokens
    const ContextFit::Result result = ContextFit::fit(messages, 1000);
    QVERIFY(!result.fits);
    QCOMPARE(result.messages.size(), size_t(1));
    QVERIFY(result.messages.front().text.endsWith(QString(100, u'z')));
    QCOMPARE(result.droppedMessages, 4);
    // Tool messages are never sent without the call they answer.
    std::vector<ChatMessage> calls;
    addTurn(calls, 1, 30000);
    addTurn(calls, 2, 30000);
    const ContextFit::Result tight = ContextFit::fit(calls, 200);
    QCOMPARE(int(tight.messages.front().role), int(ChatMessage::Role::User));
}

QTEST_GUILESS_MAIN(tst_ContextFit)

#include "tst_contextfit.moc"
