// Tests for Gui::ChatView: what the chat shows after tool-only turns, saved conversations as
// they were said, and a view that follows the end only while the user is there.

#include "postedevents.h"
#include <ui/chatview.h>
#include <ui/palettecolors.h>
#include <ui/resultviewer.h>

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QScrollBar>
#include <QTest>
#include <QTextBlock>
#include <QTextFrame>
#include <QTextLayout>
#include <QTextTable>

using Engine::ChatMessage;
using Engine::Json;
using Gui::ChatView;

class tst_ChatView : public QObject
{
    Q_OBJECT

private slots:
    void toolOnlyTurnRepeatsNothing();
    void cardsNameTheServersTool();
    void streamedCallShowsWhileWritten();
    void savedConversationShowsCallsAndDenials();
    void stoppedAnswerReopensStopped();
    void reopenedCardHasTheWholeResult();
    void followsTheEndOnlyAtTheEnd();
    void conversationOpensAtItsEnd();
    void previewCutsAtLinesAndCharacters();
    void bigResultIsPreviewed();
    void markdownTablesAndCodeBlocks();
    void tableHeaderCellsAlignTop_data();
    void tableHeaderCellsAlignTop();
    void markdownRendersWhileStreaming();
    void toolCardsAreOneLineUntilOpened();
    void longCodeLineWraps();
    void inlineCodeIsMonospace();
    void darkPaletteRedrawsTheColours();
    void cardShowsTheFileChange();

private:
    static QStringList cardField(const ChatView &view, QString ChatView::CardInfo::*field)
    {
        QStringList result;
        for (const ChatView::CardInfo &card : view.cards())
            result << card.*field;
        return result;
    }
    // The link of `text` ("Copy", "Copy code", a card's title) in the document, or an empty URL.
    static QStringList links(const ChatView &view)
    {
        QStringList result;
        for (QTextBlock block = view.document()->begin(); block.isValid(); block = block.next()) {
            for (auto it = block.begin(); !it.atEnd(); ++it) {
                const QTextCharFormat format = it.fragment().charFormat();
                if (format.isAnchor())
                    result << format.anchorHref();
            }
        }
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
    QCOMPARE(view.texts(ChatView::Kind::Assistant), QStringList({QStringLiteral("First answer.")}));

    // Text that streamed before a call ends with the call, once.
    view.appendAssistantDelta(QStringLiteral("Let me check."));
    view.toolStarted(QStringLiteral("t2"), QStringLiteral("mcp__fix__echo"), Json::object());
    view.finishAssistantMessage(QString());
    QCOMPARE(view.texts(ChatView::Kind::Assistant),
             QStringList({QStringLiteral("First answer."), QStringLiteral("Let me check.")}));
    QCOMPARE(view.lastAssistantText(), QStringLiteral("Let me check."));
}

// A card names a server's tool as the server does ("get-sum"), through the window's namer;
// without one (or for a tool it does not know), the registry name read as "server › tool".
void tst_ChatView::cardsNameTheServersTool()
{
    ChatView view;
    view.setToolNamer([](const QString &name) {
        return name == QLatin1String("mcp__everything__get_sum")
                       ? QStringLiteral("everything › get-sum")
                       : QString();
    });
    view.toolStarted(QStringLiteral("t1"), QStringLiteral("mcp__everything__get_sum"),
                     Json{{"a", 1}});
    view.toolStarted(QStringLiteral("t2"), QStringLiteral("mcp__gone__old_tool"), Json::object());
    const QString text = view.toPlainText();
    QVERIFY2(text.contains(QStringLiteral("everything › get-sum")), qPrintable(text));
    QVERIFY(!text.contains(QStringLiteral("get_sum")));
    QVERIFY(text.contains(QStringLiteral("gone › old_tool")));
    QCOMPARE(view.toolTitle(QStringLiteral("read_file")), QStringLiteral("read_file"));
}

// A call's card shows while the model writes it ("writing…"), after the text before it, which
// the complete answer then fills once (not again after the card); the pieces of its arguments
// go on to AppCards. A call the answer never finished is "cancelled", with why.
void tst_ChatView::streamedCallShowsWhileWritten()
{
    ChatView view;
    QStringList pieces;
    connect(&view, &ChatView::toolCardWriting, this,
            [&](const QString &id, const QString &name, const QString &delta) {
                pieces << id + QLatin1Char(' ') + name + QLatin1Char(' ') + delta;
            });
    QList<Engine::SharedToolRunResult> finished;
    connect(&view, &ChatView::toolCardFinished, this,
            [&](const QString &, const Engine::SharedToolRunResult &r) { finished << r; });
    view.addUserMessage(QStringLiteral("weather?"));
    view.appendAssistantDelta(QStringLiteral("Let me "));
    view.appendAssistantDelta(QStringLiteral("check."));
    view.toolCallWriting(QStringLiteral("c0"), QStringLiteral("mcp__w__show"),
                         QStringLiteral("{\"city\":"));
    view.toolCallWriting(QStringLiteral("c0"), QStringLiteral("mcp__w__show"),
                         QStringLiteral("\"Berlin\"}"));
    QCOMPARE(view.toolCardCount(), 1);
    QCOMPARE(cardField(view, &ChatView::CardInfo::state), QStringList({ChatView::tr("writing…")}));
    QCOMPARE(pieces, QStringList({QStringLiteral("c0 mcp__w__show {\"city\":"),
                                  QStringLiteral("c0 mcp__w__show \"Berlin\"}")}));
    // The complete answer: its text where it streamed, once.
    view.finishAssistantMessage(QStringLiteral("Let me check."));
    QCOMPARE(view.texts(ChatView::Kind::Assistant), QStringList({QStringLiteral("Let me check.")}));
    QVERIFY(view.document()->toPlainText().indexOf(QStringLiteral("Let me check."))
            < view.document()->toPlainText().indexOf(ChatView::tr("writing…")));
    view.toolStarted(QStringLiteral("c0"), QStringLiteral("mcp__w__show"),
                     Json{{"city", "Berlin"}});
    QCOMPARE(view.toolCardCount(), 1);
    QCOMPARE(cardField(view, &ChatView::CardInfo::state), QStringList({ChatView::tr("running…")}));

    // Stopped while the next call is written.
    view.toolCallWriting(QStringLiteral("c1"), QStringLiteral("mcp__w__show"), QStringLiteral("{"));
    view.toolCallAbandoned(QStringLiteral("c1"), QStringLiteral("Stopped before the end."));
    QCOMPARE(cardField(view, &ChatView::CardInfo::state),
             QStringList({ChatView::tr("running…"), ChatView::tr("cancelled")}));
    QCOMPARE(finished.size(), 1);
    QVERIFY(finished.first()->cancelled);
    view.activateLink(QUrl(QStringLiteral("sb:toggle:3"))); // user, answer, c0, c1
    QVERIFY(view.document()->toPlainText().contains(QStringLiteral("Stopped before the end.")));
    view.toolCallAbandoned(QStringLiteral("nothing"), QStringLiteral("no card, no change"));
    QCOMPARE(view.toolCardCount(), 2);
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

    const QDateTime said(QDate(2026, 11, 2), QTime(8, 5), Qt::UTC);
    messages.front().time = said;
    ChatView view;
    view.showConversation(messages);
    QCOMPARE(view.toolCardCount(), 2);
    // Reopened messages say when they were said, not when they were opened.
    QVERIFY(view.document()->toPlainText().contains(
            QLocale().toString(said.toLocalTime(), QLocale::ShortFormat)));
    QCOMPARE(cardField(view, &ChatView::CardInfo::toolName),
             QStringList({QStringLiteral("mcp__fix__echo"), QStringLiteral("bash")}));
    const QStringList arguments = cardField(view, &ChatView::CardInfo::arguments);
    QVERIFY2(arguments.at(0).contains(QStringLiteral("hello")), qPrintable(arguments.at(0)));
    QVERIFY2(arguments.at(1).contains(QStringLiteral("rm -rf build")), qPrintable(arguments.at(1)));
    QCOMPARE(cardField(view, &ChatView::CardInfo::state),
             QStringList({ChatView::tr("done"), ChatView::tr("denied")}));
    QCOMPARE(view.texts(ChatView::Kind::Assistant), QStringList({QStringLiteral("Done.")}));
    QCOMPARE(view.texts(ChatView::Kind::User), QStringList({QStringLiteral("clean up")}));
}

// A write's card says which file changed and how (+1 −1), and opened shows the diff on its
// colours; the same after the conversation is saved and reopened.
void tst_ChatView::cardShowsTheFileChange()
{
    const Engine::FileChange change = Engine::FileChange::between(
            QStringLiteral("notes.txt"), QByteArray("one\ntwo\n"), QByteArray("one\n2\n"));
    const auto check = [](ChatView &view) {
        QVERIFY(view.document()->toPlainText().contains(QStringLiteral("notes.txt +1 −1")));
        QVERIFY(!view.document()->toPlainText().contains(QLatin1String("+2")));
        view.activateLink(QUrl(QStringLiteral("sb:toggle:1")));
        const QString text = view.document()->toPlainText();
        QVERIFY2(text.contains(QLatin1String("-two\n+2")), qPrintable(text));
        QColor added;
        for (QTextBlock block = view.document()->begin(); block.isValid(); block = block.next()) {
            if (block.text() == QLatin1String("+2"))
                added = block.blockFormat().background().color();
        }
        QCOMPARE(added, Gui::addedBackground(view.palette()));
    };
    ChatMessage asked = message(ChatMessage::Role::Assistant, QString());
    asked.toolCalls.push_back(
            {QStringLiteral("w1"), QStringLiteral("edit_file"),
             Json{{"path", "notes.txt"}, {"old_string", "two"}, {"new_string", "2"}}, QString()});
    {
        ChatView view;
        view.addUserMessage(QStringLiteral("fix it"));
        view.toolStarted(QStringLiteral("w1"), QStringLiteral("edit_file"),
                         asked.toolCalls[0].arguments);
        Engine::ToolRunResult result;
        result.output = Engine::ToolOutput::text(QStringLiteral("Edited notes.txt"));
        result.ran = true;
        result.change = std::make_shared<const Engine::FileChange>(change);
        view.toolFinished(QStringLiteral("w1"), result);
        check(view);
    }
    // Saved with the conversation (ChatMessage::change) and read back.
    std::vector<ChatMessage> messages;
    messages.push_back(message(ChatMessage::Role::User, QStringLiteral("fix it")));
    messages.push_back(asked);
    ChatMessage done = message(ChatMessage::Role::Tool, QStringLiteral("Edited notes.txt"));
    done.toolCallId = QStringLiteral("w1");
    done.toolName = QStringLiteral("edit_file");
    done.change = change.toJson();
    const std::optional<ChatMessage> reread = ChatMessage::fromJson(done.toJson());
    QVERIFY(reread);
    messages.push_back(*reread);
    ChatView reopened;
    reopened.showConversation(messages);
    check(reopened);
}

// A stopped answer reopens as it was left: the text that had streamed, then "Stopped." and
// Retry, as live.
void tst_ChatView::stoppedAnswerReopensStopped()
{
    std::vector<ChatMessage> messages;
    messages.push_back(message(ChatMessage::Role::User, QStringLiteral("write a lot")));
    ChatMessage partial = message(ChatMessage::Role::Assistant, QStringLiteral("First paragraph."));
    partial.interruption = QStringLiteral("Stopped.");
    messages.push_back(partial);
    ChatView view;
    view.showConversation(messages);
    QCOMPARE(view.texts(ChatView::Kind::Assistant),
             QStringList({QStringLiteral("First paragraph.")}));
    const QStringList notices = view.texts(ChatView::Kind::Notice);
    QVERIFY2(notices.contains(QStringLiteral("Stopped.")), qPrintable(notices.join(u'|')));
    QVERIFY2(!notices.isEmpty() && notices.last().contains(QLatin1String("sb:retry")),
             qPrintable(notices.join(u'|')));
    // A whole answer offers no extra Retry.
    messages.back().interruption.clear();
    view.showConversation(messages);
    QVERIFY(view.texts(ChatView::Kind::Notice).isEmpty());
}

// A reopened card offers the same viewer as the live one when the conversation kept the whole
// result; when it did not, it says what was kept instead of claiming the chat has the rest.
void tst_ChatView::reopenedCardHasTheWholeResult()
{
    std::vector<ChatMessage> messages;
    messages.push_back(message(ChatMessage::Role::User, QStringLiteral("big")));
    ChatMessage call = message(ChatMessage::Role::Assistant, QString());
    call.toolCalls.push_back(
            {QStringLiteral("c1"), QStringLiteral("mcp__fix__big"), Json::object(), QString()});
    messages.push_back(call);
    ChatMessage result = message(ChatMessage::Role::Tool, QStringLiteral("xxxx… [cut]"));
    result.toolCallId = QStringLiteral("c1");
    result.toolName = QStringLiteral("mcp__fix__big");
    result.result = Json{
            {"content", Json::array({Json{{"type", "text"}, {"text", std::string(3000000, 'x')}}})},
            {"isError", false}};
    messages.push_back(result);
    ChatView view;
    view.showConversation(messages);
    QCOMPARE(view.cards().size(), 1);
    QVERIFY(view.cards().at(0).wholeResultAvailable);

    messages.back().result = Json();
    messages.back().resultNote = QStringLiteral("Only the model's share of this result was kept.");
    view.showConversation(messages);
    QVERIFY(!view.cards().at(0).wholeResultAvailable);
    view.activateLink(QUrl(QStringLiteral("sb:toggle:1"))); // the card: entry 1, after the question
    QVERIFY2(view.document()->toPlainText().contains(QLatin1String("model's share")),
             qPrintable(view.document()->toPlainText()));
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

    bar->triggerAction(QAbstractSlider::SliderToMinimum); // the user scrolls up to read
    QVERIFY(!view.followsEnd());
    for (int i = 0; i < 20; ++i) {
        view.appendAssistantDelta(QStringLiteral("line %1\n").arg(i));
        // Rendered (the stream renders on a timer) with the user still reading up there.
        QTRY_VERIFY(view.document()->toPlainText().contains(QStringLiteral("line %1").arg(i)));
    }
    QCOMPARE(bar->value(), 0);

    bar->triggerAction(QAbstractSlider::SliderToMaximum); // back at the end: followed again
    QVERIFY(view.followsEnd());
    const int before = bar->maximum();
    for (int i = 0; i < 20; ++i)
        view.appendAssistantDelta(QStringLiteral("more %1\n").arg(i));
    QTRY_VERIFY(bar->maximum() > before);
    QTRY_COMPARE(bar->value(), bar->maximum());

    bar->triggerAction(QAbstractSlider::SliderToMinimum);
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
    const Gui::ResultPreview small = Gui::makePreview("short\nresult");
    QVERIFY(!small.cut);
    QCOMPARE(small.text, QStringLiteral("short\nresult"));

    QByteArray lines;
    while (lines.size() < 3 * Gui::PreviewBytes)
        lines += "0123456789 line of text\n";
    const Gui::ResultPreview cutLines = Gui::makePreview(lines);
    QVERIFY(cutLines.cut);
    QVERIFY(cutLines.text.endsWith(QLatin1Char('\n')));
    QVERIFY(cutLines.text.toUtf8().size() <= Gui::PreviewBytes);
    QVERIFY2(cutLines.note.contains(QStringLiteral("lines")), qPrintable(cutLines.note));

    // One long line of three-byte characters: the cut never splits one, and the line is cut
    // short (laying out 64 KiB in one line would stall the window).
    const QByteArray han = QString(Gui::PreviewBytes, QChar(0x6c49)).toUtf8();
    QCOMPARE(Gui::sliceEnd(han, 0, Gui::PreviewBytes), Gui::PreviewBytes - Gui::PreviewBytes % 3);
    QCOMPARE(Gui::sliceEnd(han, 1, Gui::PreviewBytes), 3 * ((Gui::PreviewBytes + 1) / 3));
    const Gui::ResultPreview cutHan = Gui::makePreview(han);
    QVERIFY(cutHan.cut);
    QCOMPARE(cutHan.text, QString(Gui::PreviewLineChars, QChar(0x6c49)) + QStringLiteral("…"));

    // Short enough, but one line too long: cut, and said so.
    const QByteArray wide = QByteArray(3000, 'x') + "\nnext line\n" + QByteArray(2500, 'y');
    const Gui::ResultPreview cutWide = Gui::makePreview(wide);
    QVERIFY(cutWide.cut);
    QCOMPARE(cutWide.text, QString(Gui::PreviewLineChars, u'x') + QStringLiteral("…\nnext line\n")
                                   + QString(Gui::PreviewLineChars, u'y') + QStringLiteral("…"));
    QVERIFY2(cutWide.note.contains(QStringLiteral("2,000")), qPrintable(cutWide.note));
    // A surrogate pair at the cut stays whole.
    const QString emoji = QString(Gui::PreviewLineChars - 1, u'a') + QStringLiteral("🎉🎉");
    QCOMPARE(Gui::makePreview(emoji.toUtf8()).text,
             QString(Gui::PreviewLineChars - 1, u'a') + QStringLiteral("…"));
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

    QCOMPARE(view.cards().size(), 1);
    QVERIFY(view.cards().at(0).wholeResultAvailable);
    QVERIFY(!view.cards().at(0).expanded); // one line until opened
    QVERIFY(view.document()->characterCount() < 1000);
    view.activateLink(QUrl(QStringLiteral("sb:toggle:0")));
    QVERIFY(view.cards().at(0).expanded);
    // The preview, never the whole: 64 KiB and a few lines around it.
    QVERIFY(view.document()->characterCount() <= Gui::PreviewBytes + 1000);
    const QString shown = view.document()->toPlainText();
    QVERIFY2(shown.contains(QStringLiteral("of 20.00 MiB")),
             qPrintable(shown.mid(shown.indexOf(QStringLiteral("Showing")), 100)));
    QVERIFY(links(view).contains(QStringLiteral("sb:whole:0")));
    view.activateLink(QUrl(QStringLiteral("sb:whole:0")));
    Gui::ResultViewer *viewer = nullptr;
    QTRY_VERIFY((viewer = qApp->findChild<Gui::ResultViewer *>()) != nullptr
                || (viewer = view.window()->findChild<Gui::ResultViewer *>()) != nullptr);
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

// Markdown as the best clients show it: tables in a grid, code blocks on a band of their own
// with a Copy link each, and a Copy link per message that copies its Markdown source.
void tst_ChatView::tableHeaderCellsAlignTop_data()
{
    QTest::addColumn<QString>("answer");
    QTest::addColumn<int>("width");
    QTest::addColumn<bool>("streamed");
    QTest::newRow("first") << QStringLiteral("| a | b |\n|---|---|\n| 1 | 2 |\n") << 600 << false;
    QTest::newRow("after text") << QStringLiteral("Plan:\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")
                                << 600 << false;
    QTest::newRow("second wraps") << QStringLiteral(
            "Plan:\n\n| a | the second header cell is long enough to wrap over several lines in a "
            "narrow chat |\n|---|---|\n| 1 | 2 |\n")
                                  << 300 << false;
    QTest::newRow("first wraps") << QStringLiteral(
            "Plan:\n\n| the first header cell is long enough to wrap over several lines in a "
            "narrow chat | b |\n|---|---|\n| 1 | 2 |\n")
                                 << 300 << false;
    QTest::newRow("code") << QStringLiteral("Plan:\n\n| `name` | type |\n|---|---|\n| 1 | 2 |\n")
                          << 600 << false;
    QTest::newRow("aligned") << QStringLiteral("Plan:\n\n| name | type |\n|:---|---:|\n| 1 | 2 |\n")
                             << 600 << false;
    QTest::newRow("cjk") << QStringLiteral("计划：\n\n| 名称 | type |\n|---|---|\n| 1 | 2 |\n")
                         << 600 << false;
    QTest::newRow("heading") << QStringLiteral("## Plan\n| name | type |\n|---|---|\n| 1 | 2 |\n")
                             << 600 << false;
    QTest::newRow("list") << QStringLiteral(
            "- one\n- two\n\n| name | type |\n|---|---|\n| 1 | 2 |\n")
                          << 600 << false;
    QTest::newRow("bold") << QStringLiteral("Plan:\n\n| **name** | type |\n|---|---|\n| 1 | 2 |\n")
                          << 600 << false;
    QTest::newRow("streamed") << QStringLiteral("Plan:\n\n| name | the second header cell is long "
                                                "enough to wrap in a narrow chat |\n|---|---|\n| 1 "
                                                "| 2 |\n")
                              << 300 << true;
    QTest::newRow("first, second wraps")
            << QStringLiteral("| a | the second header cell is long enough to wrap over several "
                              "lines in a narrow chat | c |\n|---|---|---|\n| 1 | 2 | 3 |\n")
            << 300 << false;
}

void tst_ChatView::tableHeaderCellsAlignTop()
{
    QFETCH(QString, answer);
    QFETCH(int, width);
    QFETCH(bool, streamed);
    ChatView view;
    view.resize(width, 500);
    view.show();
    view.addUserMessage(QStringLiteral("plan?"));
    if (streamed) { // as it arrives, a few characters at a time, before the end
        for (qsizetype at = 0; at < answer.size(); at += 7)
            view.appendAssistantDelta(answer.mid(at, 7));
        QTest::qWait(100);
    } else {
        view.finishAssistantMessage(answer);
    }
    QTextTable *table = nullptr;
    for (QTextFrame *frame : view.document()->rootFrame()->childFrames()) {
        for (QTextFrame *child : frame->childFrames()) {
            if (!table)
                table = qobject_cast<QTextTable *>(child);
        }
    }
    QVERIFY(table);
    // Where each header cell's first line of text is drawn: the same height in every cell.
    QAbstractTextDocumentLayout *layout = view.document()->documentLayout();
    const auto firstLineTop = [&](int column) {
        const QTextBlock block = table->cellAt(0, column).firstCursorPosition().block();
        return layout->blockBoundingRect(block).top() + block.layout()->lineAt(0).y();
    };
    const qreal first = firstLineTop(0);
    for (int column = 1; column < table->columns(); ++column)
        QCOMPARE(firstLineTop(column), first);
}

void tst_ChatView::markdownTablesAndCodeBlocks()
{
    const QString answer = QStringLiteral(
            "Here is the plan:\n\n"
            "| step | file |\n|---|---|\n| parse | parser.cpp |\n| store | store.cpp |\n\n"
            "> quoted advice\n\n"
            "```cpp\nint main() {\n    return 0; // done\n}\n```\n\n"
            "and a shell one:\n\n```sh\necho hi # greet\n```\n\n"
            "and what it printed:\n\n```\nready on 3000 after 42 ms // \"done\"\n```\n");
    ChatView view;
    view.resize(600, 500);
    view.show();
    view.addUserMessage(QStringLiteral("plan?"));
    view.finishAssistantMessage(answer);

    bool table = false;
    for (QTextFrame *frame : view.document()->rootFrame()->childFrames()) {
        for (QTextFrame *child : frame->childFrames())
            table = table || qobject_cast<QTextTable *>(child);
    }
    QVERIFY(table);
    const QString text = view.document()->toPlainText();
    QVERIFY(text.contains(QStringLiteral("parser.cpp")));
    QVERIFY(!text.contains(QStringLiteral("|---|"))); // rendered, not raw
    QVERIFY(!text.contains(QStringLiteral("```")));
    QCOMPARE(view.codeBlocks(),
             QStringList({QStringLiteral("int main() {\n    return 0; // done\n}"),
                          QStringLiteral("echo hi # greet"),
                          QStringLiteral("ready on 3000 after 42 ms // \"done\"")}));
    // Code blocks are highlighted: the comment has a format of its own. One without a
    // language is left as it is (no numbers, strings or comments guessed).
    bool highlighted = false;
    bool plainColoured = true;
    for (QTextBlock block = view.document()->begin(); block.isValid(); block = block.next()) {
        if (block.text().contains(QStringLiteral("// done")))
            highlighted = !block.layout()->formats().isEmpty();
        if (block.text().startsWith(QStringLiteral("ready on 3000")))
            plainColoured = !block.layout()->formats().isEmpty();
    }
    QVERIFY(highlighted);
    QVERIFY(!plainColoured);

    const QStringList hrefs = links(view);
    QVERIFY(hrefs.contains(QStringLiteral("sb:code:1:0")));
    QVERIFY(hrefs.contains(QStringLiteral("sb:code:1:1")));
    view.activateLink(QUrl(QStringLiteral("sb:code:1:1")));
    QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("echo hi # greet"));
    view.activateLink(QUrl(QStringLiteral("sb:copy:1")));
    QCOMPARE(QApplication::clipboard()->text(), answer);
    view.activateLink(QUrl(QStringLiteral("sb:copy:0")));
    QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("plan?"));
    // Links the view does not own do nothing (and do not crash).
    for (const char *hostile : {"sb:copy:99", "sb:code:1:7", "sb:toggle:-1", "sb:whole:0",
                                "file:///etc/passwd", "javascript:alert(1)", "sb:", "sb:copy"})
        view.activateLink(QUrl(QString::fromLatin1(hostile)));
    QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("plan?"));
}

// The answer is Markdown while it streams, not raw text that reflows when it ends.
void tst_ChatView::markdownRendersWhileStreaming()
{
    ChatView view;
    view.resize(600, 400);
    view.show();
    view.appendAssistantDelta(QStringLiteral("Some **bold"));
    view.appendAssistantDelta(QStringLiteral("** words and `code`\n\n- one\n- two"));
    QTRY_VERIFY(view.document()->toPlainText().contains(QStringLiteral("bold words")));
    const QString streamed = view.document()->toPlainText();
    QVERIFY2(!streamed.contains(QStringLiteral("**")), qPrintable(streamed));
    QVERIFY(!streamed.contains(QStringLiteral("`")));
    const int height = int(view.document()->size().height());
    view.finishAssistantMessage(QString());
    // Nothing moves at the end; the header only gains its Retry link.
    QCOMPARE(view.document()->toPlainText().remove(QStringLiteral("  ") + ChatView::tr("Retry")),
             streamed);
    QCOMPARE(int(view.document()->size().height()), height);
    QCOMPARE(view.texts(ChatView::Kind::Assistant).size(), 1);
}

// A card is one line (server › tool, state, duration) until opened; errors open by themselves.
void tst_ChatView::toolCardsAreOneLineUntilOpened()
{
    ChatView view;
    view.resize(600, 400);
    view.show();
    view.toolStarted(QStringLiteral("a"), QStringLiteral("mcp__files__read_file"),
                     Json{{"path", "secret-looking-argument.txt"}});
    Engine::ToolRunResult ok;
    ok.output = Engine::ToolOutput::text(QStringLiteral("file body"));
    view.toolFinished(QStringLiteral("a"), ok);
    QString text = view.document()->toPlainText();
    QVERIFY2(text.contains(QStringLiteral("files › read_file")), qPrintable(text));
    QVERIFY(text.contains(ChatView::tr("done")));
    QVERIFY(text.contains(QStringLiteral(" ms")) || text.contains(QStringLiteral(" s")));
    QVERIFY(!text.contains(QStringLiteral("secret-looking-argument")));
    QVERIFY(!text.contains(QStringLiteral("file body")));
    QTextFrame *card = view.document()->rootFrame()->childFrames().at(0);
    QCOMPARE(view.document()->findBlock(card->firstPosition()),
             view.document()->findBlock(card->lastPosition())); // one line

    view.activateLink(QUrl(QStringLiteral("sb:toggle:0")));
    text = view.document()->toPlainText();
    QVERIFY(text.contains(QStringLiteral("secret-looking-argument")));
    QVERIFY(text.contains(QStringLiteral("file body")));
    view.activateLink(QUrl(QStringLiteral("sb:toggle:0")));
    QVERIFY(!view.document()->toPlainText().contains(QStringLiteral("file body")));

    // An agent's card nests its steps under its line (a sub-agent's calls), the oldest
    // dropped past MaxSteps; another tool's progress stays on its line.
    view.toolStarted(QStringLiteral("s"), QStringLiteral("spawn_subagent"), Json{{"task", "t"}});
    view.toolProgress(QStringLiteral("s"), 1, 0, QStringLiteral("sub-agent: using read_file"));
    view.toolProgress(QStringLiteral("s"), 1, 0, QStringLiteral("sub-agent: read_file done"));
    text = view.document()->toPlainText();
    QVERIFY2(text.contains(
                     QStringLiteral("↳ sub-agent: using read_file\n↳ sub-agent: read_file done")),
             qPrintable(text));
    for (int i = 0; i < ChatView::MaxSteps + 5; ++i)
        view.toolProgress(QStringLiteral("s"), i, 0, QStringLiteral("step %1").arg(i));
    text = view.document()->toPlainText();
    QVERIFY(!text.contains(QStringLiteral("using read_file")));
    QVERIFY(text.contains(QStringLiteral("step %1").arg(ChatView::MaxSteps + 4)));
    QVERIFY(text.contains(QStringLiteral("7 earlier steps")));
    view.toolStarted(QStringLiteral("p"), QStringLiteral("mcp__files__slow"), Json::object());
    view.toolProgress(QStringLiteral("p"), 1, 2, QStringLiteral("half way"));
    view.toolProgress(QStringLiteral("p"), 2, 2, QStringLiteral("all the way"));
    QVERIFY(!view.document()->toPlainText().contains(QStringLiteral("half way")));

    view.toolStarted(QStringLiteral("b"), QStringLiteral("bash"), Json{{"command", "false"}});
    Engine::ToolRunResult failed;
    failed.output = Engine::ToolOutput::text(QStringLiteral("exit code 1"), true);
    view.toolFinished(QStringLiteral("b"), failed);
    QVERIFY(view.cards().at(3).expanded);
    QVERIFY(view.document()->toPlainText().contains(QStringLiteral("exit code 1")));
}

// One very long code line wraps: the chat never gets wider than the window.
void tst_ChatView::longCodeLineWraps()
{
    ChatView view;
    view.resize(500, 400);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.finishAssistantMessage(QStringLiteral("```\n") + QString(3000, u'x')
                                + QStringLiteral("\n```\n\nAfter the code."));
    QVERIFY(deliverPostedEvents()); // its layout settles (LayoutRequest is posted)
    // It is still a code block (the first block of a message keeps its own format).
    bool codeFound = false;
    for (QTextBlock block = view.document()->begin(); block.isValid(); block = block.next()) {
        if (block.text().startsWith(QStringLiteral("xxxx")))
            codeFound = block.blockFormat().hasProperty(QTextFormat::BlockCodeFence);
    }
    QVERIFY(codeFound);
    QCOMPARE(view.horizontalScrollBar()->maximum(), 0);
    QVERIFY(view.document()->size().width() <= view.viewport()->width() + 1);
}

// `inline code` is drawn in the system's monospace font on the code band, the prose around
// it in the chat's own font.
void tst_ChatView::inlineCodeIsMonospace()
{
    ChatView view;
    view.finishAssistantMessage(QStringLiteral("Run `ls -l` in the folder."));
    const QString mono = QFontDatabase::systemFont(QFontDatabase::FixedFont).family();
    QString codeFamily;
    QString proseFamily;
    bool banded = false;
    for (QTextBlock block = view.document()->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            const QStringList families = fragment.charFormat().fontFamilies().toStringList();
            if (fragment.text() == QLatin1String("ls -l")) {
                codeFamily = families.value(0);
                banded = fragment.charFormat().background().style() != Qt::NoBrush;
            } else if (fragment.text().contains(QLatin1String("in the folder"))) {
                proseFamily = families.value(0);
            }
        }
    }
    QCOMPARE(codeFamily, mono);
    QVERIFY(banded);
    QVERIFY(proseFamily != mono);
}

// The system switches to a dark theme: the chat's own colours (code bands, highlighting, user
// messages) follow the new palette.
void tst_ChatView::darkPaletteRedrawsTheColours()
{
    ChatView view;
    view.resize(500, 400);
    view.show();
    view.addUserMessage(QStringLiteral("show code"));
    view.finishAssistantMessage(QStringLiteral("```cpp\nint x = 1; // one\n```\n"));
    const auto codeBlock = [&view] {
        for (QTextBlock block = view.document()->begin(); block.isValid(); block = block.next()) {
            if (block.text().contains(QStringLiteral("// one")))
                return block;
        }
        return QTextBlock();
    };
    const auto commentColour = [&codeBlock] {
        const QTextBlock block = codeBlock();
        const int at = int(block.text().indexOf(QStringLiteral("// one")));
        for (const QTextLayout::FormatRange &range : block.layout()->formats()) {
            if (range.start == at)
                return range.format.foreground().color();
        }
        return QColor();
    };
    const QColor lightComment = commentColour();
    QVERIFY(lightComment.isValid());

    QPalette dark = view.palette();
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    dark.setColor(QPalette::Text, QColor(0xdd, 0xdd, 0xdd));
    dark.setColor(QPalette::AlternateBase, QColor(0x2a, 0x2a, 0x2a));
    view.setPalette(dark);
    QCOMPARE(codeBlock().blockFormat().background().color(), QColor(0x2a, 0x2a, 0x2a));
    QVERIFY(commentColour() != lightComment);
    QTextFrame *user = view.document()->rootFrame()->childFrames().at(0);
    QCOMPARE(user->frameFormat().background().color(), QColor(0x2a, 0x2a, 0x2a));
    QCOMPARE(view.codeBlocks().size(), 1); // drawn again, not doubled
}

QTEST_MAIN(tst_ChatView)

#include "tst_chatview.moc"
