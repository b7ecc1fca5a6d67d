// Tests for Ui::ChatView: what the chat shows after tool-only turns, saved conversations as
// they were said, and a view that follows the end only while the user is there.

#include <ui/chatview.h>
#include <ui/resultviewer.h>

#include <QApplication>
#include <QPlainTextEdit>
#include <QToolButton>

#include <QLabel>
#include <QScrollBar>
#include <QTest>

using Engine::ChatMessage;
using Engine::Json;
using Ui::ChatView;

class tst_ChatView : public QObject
{
    Q_OBJECT

private slots:
    void toolOnlyTurnRepeatsNothing();
    void savedConversationShowsCallsAndDenials();
    void followsTheEndOnlyAtTheEnd();
    void conversationOpensAtItsEnd();
    void previewCutsAtLinesAndCharacters();
    void bigResultIsPreviewed();

private:
    static QStringList texts(const ChatView &view, const char *objectName)
    {
        QStringList result;
        for (const QLabel *label : view.findChildren<QLabel *>(QLatin1String(objectName)))
            result << label->text();
        return result;
    }
    static ChatMessage message(ChatMessage::Role role, const QString &text)
    {
        ChatMessage m;
        m.role = role;
        m.text = text;
        return m;
    }
};

// A turn that only calls tools ends with an empty assistant message: the previous answer is
// not shown again (live, and when the conversation is reopened).
void tst_ChatView::toolOnlyTurnRepeatsNothing()
{
    ChatView view;
    view.addUserMessage(QStringLiteral("first question"));
    view.appendAssistantDelta(QStringLiteral("First answer."));
    view.finishAssistantMessage(QStringLiteral("First answer."));
    view.addUserMessage(QStringLiteral("now use a tool"));
    view.toolStarted(QStringLiteral("t1"), QStringLiteral("mcp__fix__echo"), Json{{"text", "x"}});
    Engine::ToolRunResult result;
    result.output = Engine::ToolOutput::text(QStringLiteral("x"));
    view.toolFinished(QStringLiteral("t1"), result);
    view.finishAssistantMessage(QString()); // the tool-only message
    QCOMPARE(texts(view, "assistantMessage"), QStringList({QStringLiteral("First answer.")}));

    // Text that streamed before a call ends with the call, once.
    view.appendAssistantDelta(QStringLiteral("Let me check."));
    view.toolStarted(QStringLiteral("t2"), QStringLiteral("mcp__fix__echo"), Json::object());
    view.finishAssistantMessage(QString());
    QCOMPARE(texts(view, "assistantMessage"),
             QStringList({QStringLiteral("First answer."), QStringLiteral("Let me check.")}));
    QCOMPARE(view.lastAssistantText(), QStringLiteral("Let me check."));
}

// Reopened: each card has its tool's name and arguments, a denial reads "denied", and results
// go to their own calls even when the model gave two calls the same id.
void tst_ChatView::savedConversationShowsCallsAndDenials()
{
    std::vector<ChatMessage> messages;
    messages.push_back(message(ChatMessage::Role::User, QStringLiteral("clean up")));
    ChatMessage calls = message(ChatMessage::Role::Assistant, QString());
    calls.toolCalls.push_back({QStringLiteral("dup"), QStringLiteral("mcp__fix__echo"),
                               Json{{"text", "hello"}}, QString()});
    calls.toolCalls.push_back({QStringLiteral("dup"), QStringLiteral("bash"),
                               Json{{"command", "rm -rf build"}}, QString()});
    messages.push_back(calls);
    ChatMessage echoed = message(ChatMessage::Role::Tool, QStringLiteral("hello"));
    echoed.toolCallId = QStringLiteral("dup");
    echoed.toolName = QStringLiteral("mcp__fix__echo");
    messages.push_back(echoed);
    ChatMessage denied = message(ChatMessage::Role::Tool, QStringLiteral("denied: not now"));
    denied.toolCallId = QStringLiteral("dup");
    denied.toolName = QStringLiteral("bash");
    denied.isError = true;
    denied.denied = true;
    messages.push_back(denied);
    messages.push_back(message(ChatMessage::Role::Assistant, QStringLiteral("Done.")));

    ChatView view;
    view.showConversation(messages);
    QCOMPARE(view.toolCardCount(), 2);
    QCOMPARE(texts(view, "toolTitle"),
             QStringList({QStringLiteral("mcp__fix__echo"), QStringLiteral("bash")}));
    const QStringList arguments = texts(view, "toolArguments");
    QVERIFY2(arguments.at(0).contains(QStringLiteral("hello")), qPrintable(arguments.at(0)));
    QVERIFY2(arguments.at(1).contains(QStringLiteral("rm -rf build")), qPrintable(arguments.at(1)));
    QCOMPARE(texts(view, "toolState"), QStringList({ChatView::tr("done"), ChatView::tr("denied")}));
    QCOMPARE(texts(view, "assistantMessage"), QStringList({QStringLiteral("Done.")}));
    QCOMPARE(texts(view, "userMessage"), QStringList({QStringLiteral("clean up")}));
}

// Streaming keeps the view at the end while the user is there; scrolled up, the user stays
// where they are (until they scroll back down, or ask something new).
void tst_ChatView::followsTheEndOnlyAtTheEnd()
{
    ChatView view;
    view.resize(400, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QScrollBar *bar = view.verticalScrollBar();
    for (int i = 0; i < 30; ++i)
        view.addUserMessage(QStringLiteral("message %1").arg(i));
    QTRY_VERIFY(bar->maximum() > 0);
    QTRY_COMPARE(bar->value(), bar->maximum());

    bar->setValue(0); // the user scrolls up to read
    QVERIFY(!view.followsEnd());
    for (int i = 0; i < 20; ++i) {
        view.appendAssistantDelta(QStringLiteral("line %1\n").arg(i));
        QTest::qWait(60); // past the stream's render interval
    }
    QCOMPARE(bar->value(), 0);

    bar->setValue(bar->maximum()); // back at the end: followed again
    QVERIFY(view.followsEnd());
    const int before = bar->maximum();
    for (int i = 0; i < 20; ++i)
        view.appendAssistantDelta(QStringLiteral("more %1\n").arg(i));
    QTRY_VERIFY(bar->maximum() > before);
    QTRY_COMPARE(bar->value(), bar->maximum());

    bar->setValue(0);
    view.finishAssistantMessage(QString());
    view.addUserMessage(QStringLiteral("a new question")); // goes to the end
    QTRY_COMPARE(bar->value(), bar->maximum());
}

void tst_ChatView::conversationOpensAtItsEnd()
{
    std::vector<ChatMessage> messages;
    for (int i = 0; i < 100; ++i) {
        messages.push_back(message(ChatMessage::Role::User, QStringLiteral("question %1").arg(i)));
        messages.push_back(
                message(ChatMessage::Role::Assistant, QStringLiteral("answer %1").arg(i)));
    }
    ChatView view;
    view.resize(400, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.verticalScrollBar()->setValue(0);
    view.showConversation(messages);
    QTRY_VERIFY(view.verticalScrollBar()->maximum() > 0);
    QTRY_COMPARE(view.verticalScrollBar()->value(), view.verticalScrollBar()->maximum());
}

void tst_ChatView::previewCutsAtLinesAndCharacters()
{
    const Ui::ResultPreview small = Ui::makePreview("short\nresult");
    QVERIFY(!small.cut);
    QCOMPARE(small.text, QStringLiteral("short\nresult"));

    QByteArray lines;
    while (lines.size() < 3 * Ui::PreviewBytes)
        lines += "0123456789 line of text\n";
    const Ui::ResultPreview cutLines = Ui::makePreview(lines);
    QVERIFY(cutLines.cut);
    QVERIFY(cutLines.text.endsWith(QLatin1Char('\n')));
    QVERIFY(cutLines.text.toUtf8().size() <= Ui::PreviewBytes);
    QVERIFY2(cutLines.note.contains(QStringLiteral("lines")), qPrintable(cutLines.note));

    // One long line of three-byte characters: the cut never splits one.
    const QByteArray han = QString(Ui::PreviewBytes, QChar(0x6c49)).toUtf8();
    const Ui::ResultPreview cutHan = Ui::makePreview(han);
    QVERIFY(cutHan.cut);
    QVERIFY(!cutHan.text.contains(QChar::ReplacementCharacter));
    QCOMPARE(cutHan.text.toUtf8().size(), Ui::PreviewBytes - Ui::PreviewBytes % 3);
}

// A 20 MB result: the card holds a preview only; the viewer shows the whole, a page at a time.
void tst_ChatView::bigResultIsPreviewed()
{
    std::string big;
    big.reserve(20 * 1024 * 1024 + 64);
    for (int i = 0; big.size() < 20 * 1024 * 1024; ++i)
        big += "row " + std::to_string(i) + " of a very large tool result\n";
    big += "THE END";
    ChatView view;
    view.resize(600, 400);
    view.show();
    view.toolStarted(QStringLiteral("b"), QStringLiteral("mcp__fix__big"), Json::object());
    Engine::ToolRunResult result;
    result.output.content = Json::array({Json{{"type", "text"}, {"text", big}}});
    view.toolFinished(QStringLiteral("b"), result);

    auto *preview = view.findChild<QPlainTextEdit *>(QStringLiteral("toolResult"));
    QVERIFY(preview);
    QVERIFY(preview->document()->characterCount() <= Ui::PreviewBytes + 1);
    auto *more = view.findChild<QToolButton *>(QStringLiteral("openWholeResult"));
    QVERIFY(more);
    QVERIFY(!more->isHidden());
    QVERIFY2(more->text().contains(QStringLiteral("20")), qPrintable(more->text()));
    more->click();
    Ui::ResultViewer *viewer = nullptr;
    QTRY_VERIFY((viewer = qApp->findChild<Ui::ResultViewer *>()) != nullptr
                || (viewer = view.window()->findChild<Ui::ResultViewer *>()) != nullptr);
    QVERIFY(viewer->pageCount() >= 80);
    QVERIFY(viewer->pageText().startsWith(QStringLiteral("row 0 of a very large")));
    viewer->showPage(viewer->pageCount() - 1);
    QVERIFY(viewer->pageText().endsWith(QStringLiteral("THE END")));
    qsizetype total = 0;
    for (int page = 0; page < viewer->pageCount(); ++page) {
        viewer->showPage(page);
        total += viewer->pageText().toUtf8().size();
    }
    QCOMPARE(total, qsizetype(big.size())); // every byte on exactly one page
    viewer->close();
}

QTEST_MAIN(tst_ChatView)

#include "tst_chatview.moc"
