#include "darkpalette.h"
#include "postedevents.h"
#include <ui/approvaldialog.h>
#include <ui/palettecolors.h>
#include <ui/uiapprovalgate.h>

#include <QApplication>
#include <QDir>
#include <QFontDatabase>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>

#include <map>
#include <memory>
#include <vector>

using Engine::ApprovalChoice;
using Engine::ApprovalDecision;
using Engine::ApprovalRequest;
using Engine::Json;
using Gui::ApprovalDialog;
using Gui::UiApprovalGate;

Q_DECLARE_METATYPE(Engine::ApprovalChoice)

class tst_ApprovalDialog : public QObject
{
    Q_OBJECT

private slots:
    void cleanup();

    void buttonGivesDecision_data();
    void buttonGivesDecision();
    void denyWithReason();
    void escapeDenies();
    void windowCloseDenies();
    void enterDenies_data();
    void enterDenies();
    void acceleratorAllows();
    void textIsPlain();
    void dangerousIsRed();
    void mutatingIsNotRed();
    void hintsAreUntrusted();
    void viewCallSaysWhoAsked();
    void tabReachesEveryButton();

    void gateNeverShowsInsideRequest();
    void gateQueuesInOrder();
    void gateDestroyedDeniesPending();
    void gateDestroyedBeforeShowing();
    void windowDestroyedDeniesPending();

    void commandPatternIsShownAndEditable_data();
    void commandPatternIsShownAndEditable();
    void destructiveCommandIsGrantedOnlyExactly();
    void manualRunHasNoModelToTell();
    void sensitiveCallIsAllowedOnceOnly();
    void serverNamedBuiltinIsAServer();
    void queuePositionIsShown();
    void gateWithdrawsQueuedAndShown();

    void diffComesBeforeTheArguments();
    void changeWithoutDiffSaysWhy();
    void darkPaletteKeepsColoursReadable();

private:
    static ApprovalRequest request(const QString &tool,
                                   Engine::Risk risk = Engine::Risk::Dangerous);
    static ApprovalRequest bashRequest(const QString &command);
};

// Records every decision a dialog emits, so a test can check "exactly once".
struct Recorder
{
    std::vector<ApprovalDecision> decisions;
    void attach(ApprovalDialog *dialog)
    {
        QObject::connect(dialog, &ApprovalDialog::decided,
                         [this](const ApprovalDecision &d) { decisions.push_back(d); });
    }
};

ApprovalRequest tst_ApprovalDialog::request(const QString &tool, Engine::Risk risk)
{
    ApprovalRequest r;
    r.toolName = QStringLiteral("mcp__files__") + tool;
    r.source = QStringLiteral("files");
    r.originalName = tool;
    r.risk = risk;
    r.arguments = Json{{"path", "notes.txt"}, {"count", 3}};
    r.hints = Json{{"readOnlyHint", true}};
    r.conversationId = QStringLiteral("c1");
    return r;
}

// The built-in bash asking about `command` (no pattern suggested yet).
ApprovalRequest tst_ApprovalDialog::bashRequest(const QString &command)
{
    ApprovalRequest r;
    r.toolName = QStringLiteral("bash");
    r.source = QStringLiteral("builtin");
    r.builtin = true;
    r.originalName = QStringLiteral("bash");
    r.arguments = Json{{"command", command.toStdString()}};
    r.command = command;
    r.conversationId = QStringLiteral("c1");
    return r;
}

static QPushButton *button(QWidget *dialog, const char *name)
{
    return dialog->findChild<QPushButton *>(QLatin1String(name));
}

void tst_ApprovalDialog::cleanup()
{
    // A failed test must not leave a modal dialog behind for the next one.
    for (QWidget *w : QApplication::topLevelWidgets())
        if (qobject_cast<ApprovalDialog *>(w))
            delete w;
}

void tst_ApprovalDialog::buttonGivesDecision_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<ApprovalChoice>("choice");
    QTest::newRow("allow once") << "allowOnceButton" << ApprovalChoice::AllowOnce;
    QTest::newRow("conversation") << "allowConversationButton"
                                  << ApprovalChoice::AllowForConversation;
    QTest::newRow("always") << "alwaysAllowButton" << ApprovalChoice::AlwaysAllow;
    QTest::newRow("deny") << "denyButton" << ApprovalChoice::Deny;
}

void tst_ApprovalDialog::buttonGivesDecision()
{
    QFETCH(QString, name);
    QFETCH(ApprovalChoice, choice);
    ApprovalDialog dialog(request(QStringLiteral("write_file")));
    Recorder rec;
    rec.attach(&dialog);
    dialog.open();
    QTRY_VERIFY(QApplication::activeModalWidget() == &dialog);
    auto b = button(&dialog, name.toLatin1().constData());
    QVERIFY(b);
    b->click();
    QVERIFY(!dialog.isVisible());
    QCOMPARE(rec.decisions.size(), size_t(1));
    QCOMPARE(rec.decisions[0].choice, choice);
    QVERIFY(rec.decisions[0].reason.isEmpty());
    // Later ways out (another close, destruction) add nothing.
    dialog.reject();
    dialog.close();
    QCOMPARE(rec.decisions.size(), size_t(1));
}

void tst_ApprovalDialog::denyWithReason()
{
    ApprovalDialog dialog(request(QStringLiteral("write_file")));
    Recorder rec;
    rec.attach(&dialog);
    dialog.open();
    auto edit = dialog.findChild<QLineEdit *>(QStringLiteral("reasonEdit"));
    QVERIFY(edit);
    QTest::keyClicks(edit, QStringLiteral("use the other folder"));
    button(&dialog, "denyButton")->click();
    QCOMPARE(rec.decisions.size(), size_t(1));
    QCOMPARE(rec.decisions[0].choice, ApprovalChoice::Deny);
    QCOMPARE(rec.decisions[0].reason, QStringLiteral("use the other folder"));
}

void tst_ApprovalDialog::escapeDenies()
{
    ApprovalDialog dialog(request(QStringLiteral("write_file")));
    Recorder rec;
    rec.attach(&dialog);
    dialog.open();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
    QVERIFY(!dialog.isVisible());
    QCOMPARE(rec.decisions.size(), size_t(1));
    QCOMPARE(rec.decisions[0].choice, ApprovalChoice::Deny);
    QCOMPARE(dialog.result(), int(QDialog::Rejected));
}

void tst_ApprovalDialog::windowCloseDenies()
{
    ApprovalDialog dialog(request(QStringLiteral("write_file")));
    Recorder rec;
    rec.attach(&dialog);
    dialog.open();
    QVERIFY(dialog.close()); // what the window manager's close button does
    QCOMPARE(rec.decisions.size(), size_t(1));
    QCOMPARE(rec.decisions[0].choice, ApprovalChoice::Deny);
}

void tst_ApprovalDialog::enterDenies_data()
{
    QTest::addColumn<QString>("focus");
    QTest::addColumn<int>("key");
    // Wherever the focus is, Enter must not allow: the allow buttons do not take it.
    for (const char *name : {"denyButton", "allowOnceButton", "allowConversationButton",
                             "alwaysAllowButton", "reasonEdit", "argumentsView"}) {
        QTest::addRow("%s return", name) << QString::fromLatin1(name) << int(Qt::Key_Return);
        QTest::addRow("%s enter", name) << QString::fromLatin1(name) << int(Qt::Key_Enter);
    }
}

void tst_ApprovalDialog::enterDenies()
{
    QFETCH(QString, focus);
    QFETCH(int, key);
    ApprovalDialog dialog(request(QStringLiteral("rm_rf")));
    Recorder rec;
    rec.attach(&dialog);
    dialog.open();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    QCOMPARE(QApplication::focusWidget(), button(&dialog, "denyButton")); // initial focus
    auto target = dialog.findChild<QWidget *>(focus);
    QVERIFY(target);
    target->setFocus(Qt::TabFocusReason);
    QTRY_COMPARE(QApplication::focusWidget(), target);
    QVERIFY(button(&dialog, "denyButton")->isDefault());
    QTest::keyClick(target, Qt::Key(key));
    QCOMPARE(rec.decisions.size(), size_t(1));
    QCOMPARE(rec.decisions[0].choice, ApprovalChoice::Deny);
    QVERIFY(!dialog.isVisible());
}

void tst_ApprovalDialog::acceleratorAllows()
{
    ApprovalDialog dialog(request(QStringLiteral("write_file")));
    Recorder rec;
    rec.attach(&dialog);
    dialog.open();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    QCOMPARE(button(&dialog, "allowOnceButton")->text(), QStringLiteral("&Allow once"));
    // Through the window, as the platform delivers it, so that the shortcut map sees it.
    QTest::keyClick(dialog.windowHandle(), Qt::Key_W, Qt::AltModifier); // Al&ways allow
    // A mnemonic "animates" the click: it lands a moment later.
    QTRY_COMPARE(rec.decisions.size(), size_t(1));
    QCOMPARE(rec.decisions[0].choice, ApprovalChoice::AlwaysAllow);
}

void tst_ApprovalDialog::textIsPlain()
{
    ApprovalRequest r = request(QStringLiteral("<b>bold</b>"));
    r.source = QStringLiteral("<i>srv</i>");
    r.arguments = Json{{"html", "<b>x</b>"}, {"list", Json::array({1, 2})}};
    r.hints = Json{{"title", "<a href=\"x\">click</a>"}};
    ApprovalDialog dialog(r);
    dialog.show();

    auto view = dialog.findChild<QPlainTextEdit *>(QStringLiteral("argumentsView"));
    QVERIFY(view);
    QVERIFY(view->isReadOnly());
    QCOMPARE(view->font().family(), QFontDatabase::systemFont(QFontDatabase::FixedFont).family());
    const QString expected = QStringLiteral("{\n  \"html\": \"<b>x</b>\",\n  \"list\": [\n    1,\n"
                                            "    2\n  ]\n}");
    QCOMPARE(view->toPlainText(), expected);

    // Every label showing server-provided text shows it literally.
    int found = 0;
    for (const QString &needle : {QStringLiteral("<b>bold</b>"), QStringLiteral("<i>srv</i>"),
                                  QStringLiteral("<a href=\"x\">click</a>")}) {
        for (QLabel *label : dialog.findChildren<QLabel *>()) {
            if (label->text().contains(needle)) {
                QCOMPARE(label->textFormat(), Qt::PlainText);
                ++found;
            }
        }
    }
    QCOMPARE(found, 3);
}

void tst_ApprovalDialog::dangerousIsRed()
{
    QWidget window;
    window.resize(800, 600);
    window.show();
    ApprovalRequest r = request(QStringLiteral("delete_tree"));
    r.arguments = Json{{"path", "/home/me/project"}, {"recursive", true}};
    r.hints = Json{{"readOnlyHint", true}, {"destructiveHint", false}};
    auto dialog = new ApprovalDialog(r, &window);
    dialog->open();
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    auto risk = dialog->findChild<QLabel *>(QStringLiteral("riskLabel"));
    QVERIFY(risk);
    QCOMPARE(risk->text(), QStringLiteral("dangerous"));
    const QColor color = risk->palette().color(QPalette::WindowText);
    QVERIFY2(color.red() >= 150 && color.green() < 60 && color.blue() < 60,
             qPrintable(color.name()));
    QVERIFY(risk->font().bold());
    QVERIFY(dialog->grab().save(QStringLiteral("/tmp/approval.png")));
}

void tst_ApprovalDialog::mutatingIsNotRed()
{
    ApprovalDialog dialog(request(QStringLiteral("write_file"), Engine::Risk::Mutating));
    auto risk = dialog.findChild<QLabel *>(QStringLiteral("riskLabel"));
    QCOMPARE(risk->text(), QStringLiteral("mutating"));
    QVERIFY(!risk->font().bold());
    QCOMPARE(risk->palette().color(QPalette::WindowText),
             dialog.palette().color(QPalette::WindowText));
}

void tst_ApprovalDialog::hintsAreUntrusted()
{
    ApprovalDialog dialog(request(QStringLiteral("read_file")));
    auto hints = dialog.findChild<QLabel *>(QStringLiteral("hintsLabel"));
    QVERIFY(hints);
    QCOMPARE(hints->text(), QStringLiteral("The server says: read-only (not verified)"));

    QCOMPARE(ApprovalDialog::describeHints(Json()), QString());
    QCOMPARE(ApprovalDialog::describeHints(Json::object()), QString());
    QCOMPARE(ApprovalDialog::describeHints(Json{{"readOnlyHint", false},
                                                {"destructiveHint", true},
                                                {"title", "Wipe"},
                                                {"weird", 7},
                                                {"openWorldHint", "yes"}}),
             QStringLiteral("title \"Wipe\", may change things, destructive, openWorldHint: "
                            "\"yes\", weird: 7"));
    QCOMPARE(ApprovalDialog::describeHints(Json::array({1})), QStringLiteral("[1]"));
}

// A call a server's interactive view asked for says so; the model's calls say nothing of it.
void tst_ApprovalDialog::viewCallSaysWhoAsked()
{
    ApprovalRequest fromView = request(QStringLiteral("write_file"));
    fromView.origin = Engine::CallOrigin::App;
    ApprovalDialog dialog(fromView);
    auto asker = dialog.findChild<QLabel *>(QStringLiteral("askedByLabel"));
    QVERIFY(asker);
    QCOMPARE(asker->text(), QStringLiteral("the interactive view of server \"%1\" (not the model)")
                                    .arg(fromView.source));
    ApprovalDialog fromModel(request(QStringLiteral("write_file")));
    QVERIFY(!fromModel.findChild<QLabel *>(QStringLiteral("askedByLabel")));
}

void tst_ApprovalDialog::tabReachesEveryButton()
{
    ApprovalDialog dialog(request(QStringLiteral("write_file")));
    Recorder rec;
    rec.attach(&dialog);
    dialog.open();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    QStringList visited;
    for (int i = 0; i < 8; ++i) {
        QWidget *focus = QApplication::focusWidget();
        QVERIFY(focus);
        visited << focus->objectName();
        QTest::keyClick(focus, Qt::Key_Tab);
    }
    for (const char *name : {"argumentsView", "reasonEdit", "allowOnceButton",
                             "allowConversationButton", "alwaysAllowButton", "denyButton"})
        QVERIFY2(visited.contains(QLatin1String(name)), qPrintable(visited.join(u' ')));
    // The order follows the reading order, wrapping after Deny.
    const int start = visited.indexOf(QStringLiteral("argumentsView"));
    QCOMPARE(visited.mid(start, 6),
             QStringList({"argumentsView", "reasonEdit", "allowOnceButton",
                          "allowConversationButton", "alwaysAllowButton", "denyButton"}));
    // Space presses the focused button (Enter would not, see enterDenies).
    QWidget *focus = QApplication::focusWidget();
    while (focus->objectName() != QLatin1String("allowConversationButton")) {
        QTest::keyClick(focus, Qt::Key_Tab);
        focus = QApplication::focusWidget();
    }
    QTest::keyClick(focus, Qt::Key_Space);
    QCOMPARE(rec.decisions.size(), size_t(1));
    QCOMPARE(rec.decisions[0].choice, ApprovalChoice::AllowForConversation);
    QVERIFY(rec.decisions.size() == 1);
}

void tst_ApprovalDialog::gateNeverShowsInsideRequest()
{
    QWidget window;
    window.show();
    UiApprovalGate gate(&window);
    QSignalSpy pending(&gate, &UiApprovalGate::pendingChanged);
    int calls = 0;
    gate.requestApproval(request(QStringLiteral("a")), [&](ApprovalDecision) { ++calls; });
    // Back in the caller: nothing on screen yet, nothing decided.
    QVERIFY(!gate.currentDialog());
    QVERIFY(!QApplication::activeModalWidget());
    QCOMPARE(calls, 0);
    QCOMPARE(pending.size(), 1);
    QCOMPARE(pending.at(0).at(0).toInt(), 1);
    QTRY_VERIFY(gate.currentDialog());
    QCOMPARE(QApplication::activeModalWidget(), gate.currentDialog());
    QCOMPARE(gate.currentDialog()->parentWidget(), &window);
    button(gate.currentDialog(), "denyButton")->click();
    QCOMPARE(calls, 1);
    QCOMPARE(gate.pendingCount(), 0);
    QCOMPARE(pending.last().at(0).toInt(), 0);
}

void tst_ApprovalDialog::gateQueuesInOrder()
{
    QWidget window;
    window.show();
    UiApprovalGate gate(&window);
    QSignalSpy pending(&gate, &UiApprovalGate::pendingChanged);
    std::vector<std::pair<QString, ApprovalDecision>> decided;
    for (const char *name : {"one", "two", "three"}) {
        const QString tool = QString::fromLatin1(name);
        gate.requestApproval(request(tool), [&decided, tool](ApprovalDecision d) {
            decided.emplace_back(tool, d);
        });
    }
    QCOMPARE(gate.pendingCount(), 3);
    QCOMPARE(pending.last().at(0).toInt(), 3);

    const char *answers[] = {"allowOnceButton", "denyButton", "alwaysAllowButton"};
    const QStringList order = {"one", "two", "three"};
    for (int i = 0; i < 3; ++i) {
        QTRY_VERIFY(gate.currentDialog());
        ApprovalDialog *dialog = gate.currentDialog();
        QCOMPARE(dialog->request().originalName, order[i]);
        QTRY_COMPARE(QApplication::activeModalWidget(), dialog);
        // One at a time: no other approval dialog is visible.
        int visible = 0;
        for (ApprovalDialog *d : window.findChildren<ApprovalDialog *>())
            visible += d->isVisible() ? 1 : 0;
        QCOMPARE(visible, 1);
        QCOMPARE(gate.pendingCount(), 3 - i);
        QCOMPARE(decided.size(), size_t(i));
        button(dialog, answers[i])->click();
        QCOMPARE(decided.size(), size_t(i + 1));
        QCOMPARE(gate.pendingCount(), 2 - i);
    }
    QCOMPARE(decided[0].first, QStringLiteral("one"));
    QCOMPARE(decided[0].second.choice, ApprovalChoice::AllowOnce);
    QCOMPARE(decided[1].first, QStringLiteral("two"));
    QCOMPARE(decided[1].second.choice, ApprovalChoice::Deny);
    QCOMPARE(decided[2].first, QStringLiteral("three"));
    QCOMPARE(decided[2].second.choice, ApprovalChoice::AlwaysAllow);

    // Nothing more appears, nothing is decided twice, the dialogs are gone.
    QVERIFY(deliverPostedEvents()); // a next dialog's show is posted
    QVERIFY(!gate.currentDialog());
    QCOMPARE(decided.size(), size_t(3));
    QTRY_COMPARE(window.findChildren<ApprovalDialog *>().size(), qsizetype(0));
    QCOMPARE(pending.last().at(0).toInt(), 0);
}

void tst_ApprovalDialog::gateDestroyedDeniesPending()
{
    QWidget window;
    window.show();
    auto gate = std::make_unique<UiApprovalGate>(&window);
    std::vector<std::pair<QString, ApprovalDecision>> decided;
    for (const char *name : {"one", "two", "three"}) {
        const QString tool = QString::fromLatin1(name);
        gate->requestApproval(request(tool), [&decided, tool](ApprovalDecision d) {
            decided.emplace_back(tool, d);
        });
    }
    QTRY_VERIFY(gate->currentDialog());
    QPointer<ApprovalDialog> dialog = gate->currentDialog();
    gate.reset();
    QVERIFY(!dialog); // no orphan dialog stays on screen
    QCOMPARE(decided.size(), size_t(3));
    const QStringList order = {"one", "two", "three"};
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(decided[i].first, order[i]);
        QCOMPARE(decided[i].second.choice, ApprovalChoice::Deny);
        QCOMPARE(decided[i].second.reason, QStringLiteral("the window closed"));
    }
    QVERIFY(deliverPostedEvents()); // a second answer would be posted
    QCOMPARE(decided.size(), size_t(3));
}

void tst_ApprovalDialog::gateDestroyedBeforeShowing()
{
    int denied = 0;
    {
        UiApprovalGate gate(nullptr);
        gate.requestApproval(request(QStringLiteral("a")), [&](ApprovalDecision d) {
            denied += d.choice == ApprovalChoice::Deny ? 1 : 0;
        });
    }
    QCOMPARE(denied, 1);
    QVERIFY(deliverPostedEvents()); // the queued show must not fire on a dead gate
    QVERIFY(!QApplication::activeModalWidget());
    QCOMPARE(denied, 1);
}

void tst_ApprovalDialog::windowDestroyedDeniesPending()
{
    auto window = new QWidget;
    window->show();
    UiApprovalGate gate(window);
    std::vector<ApprovalDecision> decided;
    for (int i = 0; i < 2; ++i)
        gate.requestApproval(request(QStringLiteral("t%1").arg(i)),
                             [&](ApprovalDecision d) { decided.push_back(d); });
    QTRY_VERIFY(gate.currentDialog());
    delete window; // takes the dialog with it
    QCOMPARE(decided.size(), size_t(1));
    QTRY_COMPARE(decided.size(), size_t(2)); // the queued one is denied, not shown parentless
    for (const ApprovalDecision &d : decided)
        QCOMPARE(d.choice, ApprovalChoice::Deny);
    QVERIFY(deliverPostedEvents()); // a dialog's show is posted
    QVERIFY(!QApplication::activeModalWidget());
    QCOMPARE(gate.pendingCount(), 0);
}

void tst_ApprovalDialog::commandPatternIsShownAndEditable_data()
{
    QTest::addColumn<QString>("button");
    QTest::addColumn<QString>("typed"); // empty: keep the suggestion
    QTest::addColumn<QString>("pattern");
    QTest::newRow("conversation, suggested") << "allowConversationButton"
                                             << ""
                                             << "npm test*";
    QTest::newRow("conversation, edited") << "allowConversationButton"
                                          << "npm t*"
                                          << "npm t*";
    QTest::newRow("always, edited") << "alwaysAllowButton"
                                    << "npm test --ci"
                                    << "npm test --ci";
    QTest::newRow("once: no pattern") << "allowOnceButton"
                                      << "npm*"
                                      << "";
}

// bash: the wider choices cover a command pattern, shown (the suggestion) and editable.
void tst_ApprovalDialog::commandPatternIsShownAndEditable()
{
    QFETCH(QString, button);
    QFETCH(QString, typed);
    QFETCH(QString, pattern);
    ApprovalRequest r = bashRequest(QStringLiteral("npm test --watch"));
    r.suggestedPattern = QStringLiteral("npm test*");
    ApprovalDialog dialog(r);
    Recorder rec;
    rec.attach(&dialog);
    dialog.open();
    auto *edit = dialog.findChild<QLineEdit *>(QStringLiteral("patternEdit"));
    QVERIFY(edit);
    QVERIFY(edit->isVisible());
    QCOMPARE(edit->text(), QStringLiteral("npm test*"));
    if (!typed.isEmpty()) {
        edit->clear();
        QTest::keyClicks(edit, typed);
    }
    ::button(&dialog, button.toLatin1().constData())->click();
    QCOMPARE(rec.decisions.size(), size_t(1));
    QCOMPARE(rec.decisions[0].commandPattern, pattern);
    // Every other tool has no pattern to edit.
    ApprovalDialog other(request(QStringLiteral("write_file")));
    QVERIFY(!other.findChild<QLineEdit *>(QStringLiteral("patternEdit")));
}

// The dialog: `rm -rf old/notes.md && echo gone` offers no wider grant than the command
// itself (read-only, saying why), a long command wraps instead of running off-screen, and a
// built-in tool has no "untrusted hints" line (no server to claim anything).
void tst_ApprovalDialog::destructiveCommandIsGrantedOnlyExactly()
{
    const QString command = QStringLiteral("rm -rf old/notes.md && echo gone");
    ApprovalRequest r = bashRequest(command);
    r.suggestedPattern = Engine::CommandPattern::suggest(command);
    QCOMPARE(r.suggestedPattern, command);
    ApprovalDialog dialog(r);
    Recorder rec;
    rec.attach(&dialog);
    dialog.open();
    auto *edit = dialog.findChild<QLineEdit *>(QStringLiteral("patternEdit"));
    QVERIFY(edit);
    QCOMPARE(edit->text(), command);
    QVERIFY(edit->isReadOnly());
    auto *exact = dialog.findChild<QLabel *>(QStringLiteral("exactLabel"));
    QVERIFY(exact && exact->isVisible());
    QVERIFY2(exact->text().contains(QLatin1String("&&")), qPrintable(exact->text()));
    QVERIFY(!dialog.findChild<QLabel *>(QStringLiteral("hintsLabel")));
    auto *arguments = dialog.findChild<QPlainTextEdit *>(QStringLiteral("argumentsView"));
    QVERIFY(arguments);
    QCOMPARE(arguments->lineWrapMode(), QPlainTextEdit::WidgetWidth);
    ::button(&dialog, "alwaysAllowButton")->click();
    QCOMPARE(rec.decisions.size(), size_t(1));
    QCOMPARE(rec.decisions[0].commandPattern, command);
    // A server's tool still shows what the server claims.
    ApprovalDialog other(request(QStringLiteral("write_file")));
    QVERIFY(other.findChild<QLabel *>(QStringLiteral("hintsLabel")));
}

// A call asked about for a reason of its own says why, and offers only once or deny.
void tst_ApprovalDialog::sensitiveCallIsAllowedOnceOnly()
{
    ApprovalRequest r = request(QStringLiteral("read_file"), Engine::Risk::Read);
    r.reason = QStringLiteral("read_file touches '.env', which may hold secrets");
    ApprovalDialog dialog(r);
    dialog.open();
    QTRY_VERIFY(dialog.isVisible());
    auto *why = dialog.findChild<QLabel *>(QStringLiteral("whyLabel"));
    QVERIFY(why);
    QCOMPARE(why->text(), r.reason);
    QVERIFY(::button(&dialog, "allowOnceButton")->isVisible());
    QVERIFY(::button(&dialog, "denyButton")->isVisible());
    QVERIFY(!::button(&dialog, "allowConversationButton")->isVisible());
    QVERIFY(!::button(&dialog, "alwaysAllowButton")->isVisible());
}

// A run from the tool browser: no conversation to allow for, no model to give a reason to.
void tst_ApprovalDialog::manualRunHasNoModelToTell()
{
    ApprovalRequest r = request(QStringLiteral("write_file"), Engine::Risk::Mutating);
    r.conversationId.clear();
    ApprovalDialog dialog(r);
    dialog.open();
    QTRY_VERIFY(dialog.isVisible());
    QVERIFY(!dialog.findChild<QLineEdit *>(QStringLiteral("reasonEdit"))->isVisible());
    QVERIFY(!::button(&dialog, "allowConversationButton")->isVisible());
    QVERIFY(::button(&dialog, "allowOnceButton")->isVisible());
    QVERIFY(::button(&dialog, "alwaysAllowButton")->isVisible());
    QVERIFY(::button(&dialog, "denyButton")->isVisible());
}

// The engine's flag decides "built-in", never a server's chosen name.
void tst_ApprovalDialog::serverNamedBuiltinIsAServer()
{
    ApprovalRequest r = request(QStringLiteral("bash"));
    r.source = QStringLiteral("builtin");
    r.builtin = false;
    ApprovalDialog dialog(r);
    QStringList texts;
    for (QLabel *label : dialog.findChildren<QLabel *>())
        texts << label->text();
    QVERIFY2(texts.contains(QStringLiteral("server \"builtin\"")), qPrintable(texts.join(u'|')));
    QVERIFY(!texts.contains(QStringLiteral("built-in tool")));
}

void tst_ApprovalDialog::queuePositionIsShown()
{
    QWidget window;
    window.show();
    UiApprovalGate gate(&window);
    int decided = 0;
    gate.requestApproval(request(QStringLiteral("one")), [&](ApprovalDecision) { ++decided; });
    QTRY_VERIFY(gate.currentDialog());
    auto *label = gate.currentDialog()->findChild<QLabel *>(QStringLiteral("queueLabel"));
    QVERIFY(label);
    QVERIFY(!label->isVisible()); // alone: nothing to count
    gate.requestApproval(request(QStringLiteral("two")), [&](ApprovalDecision) { ++decided; });
    QTRY_VERIFY(label->isVisible());
    QCOMPARE(label->text(), QStringLiteral("Question 1 of 2"));
    button(gate.currentDialog(), "denyButton")->click();
    QTRY_VERIFY(gate.currentDialog());
    label = gate.currentDialog()->findChild<QLabel *>(QStringLiteral("queueLabel"));
    QVERIFY(!label->isVisible());
    button(gate.currentDialog(), "denyButton")->click();
    QCOMPARE(decided, 2);
}

// A withdrawn request leaves the queue (or its dialog closes) with one Deny, never two; the
// next request is shown as usual.
void tst_ApprovalDialog::gateWithdrawsQueuedAndShown()
{
    QWidget window;
    window.show();
    UiApprovalGate gate(&window);
    std::map<QString, std::vector<ApprovalDecision>> decided;
    int id = 0;
    for (const char *name : {"one", "two", "three"}) {
        const QString tool = QString::fromLatin1(name);
        ApprovalRequest r = request(tool);
        r.requestId = quint64(++id);
        gate.requestApproval(r,
                             [&decided, tool](ApprovalDecision d) { decided[tool].push_back(d); });
    }
    QTRY_VERIFY(gate.currentDialog());
    QPointer<ApprovalDialog> first = gate.currentDialog();
    QCOMPARE(first->request().originalName, QStringLiteral("one"));
    gate.withdraw(2); // queued
    QCOMPARE(decided["two"].size(), size_t(1));
    QCOMPARE(decided["two"][0].choice, ApprovalChoice::Deny);
    QCOMPARE(gate.pendingCount(), 2);
    gate.withdraw(1); // on screen
    QCOMPARE(decided["one"].size(), size_t(1));
    QCOMPARE(decided["one"][0].choice, ApprovalChoice::Deny);
    QTRY_VERIFY(!first);
    QTRY_VERIFY(gate.currentDialog());
    QCOMPARE(gate.currentDialog()->request().originalName, QStringLiteral("three"));
    gate.withdraw(1);  // again: nothing
    gate.withdraw(99); // unknown: nothing
    button(gate.currentDialog(), "allowOnceButton")->click();
    QCOMPARE(decided["three"].size(), size_t(1));
    QCOMPARE(decided["three"][0].choice, ApprovalChoice::AllowOnce);
    QCOMPARE(decided["one"].size(), size_t(1));
    QCOMPARE(decided["two"].size(), size_t(1));
    QCOMPARE(gate.pendingCount(), 0);
}

namespace {

// The background the highlighter gave the first line of `view` that starts with `prefix`.
QColor lineBackground(QPlainTextEdit *view, const QString &prefix)
{
    for (QTextBlock block = view->document()->begin(); block.isValid(); block = block.next()) {
        if (!block.text().startsWith(prefix))
            continue;
        for (const QTextLayout::FormatRange &range : block.layout()->formats()) {
            if (range.format.hasProperty(QTextFormat::BackgroundBrush))
                return range.format.background().color();
        }
        return QColor();
    }
    return QColor();
}

void saveScreenshot(QWidget *widget, const QString &name)
{
    const QString folder = QStringLiteral(QT_TESTCASE_BUILDDIR "/screenshots");
    QDir().mkpath(folder);
    QVERIFY(widget->grab().save(QDir(folder).filePath(name)));
}

} // namespace

// write_file and edit_file (and a server's tool that names a file and its new content) show
// what will change as a unified diff against the file on disk, coloured; the arguments as the
// model wrote them are one click away.
void tst_ApprovalDialog::diffComesBeforeTheArguments()
{
    ApprovalRequest r = request(QStringLiteral("edit_file"), Engine::Risk::Mutating);
    r.arguments = Json{{"path", "notes.txt"}, {"old_string", "two"}, {"new_string", "2"}};
    r.change = std::make_shared<const Engine::FileChange>(Engine::FileChange::between(
            QStringLiteral("notes.txt"), QByteArray("one\ntwo\nthree\n"),
            QByteArray("one\n2\nthree\n")));
    QWidget window;
    window.resize(900, 700);
    window.show();
    auto dialog = new ApprovalDialog(r, &window);
    dialog->open();
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    auto heading = dialog->findChild<QLabel *>(QStringLiteral("changeHeading"));
    QVERIFY(heading);
    QCOMPARE(heading->text(), QStringLiteral("Changes to notes.txt: +1 −1"));
    auto tabs = dialog->findChild<QTabWidget *>(QStringLiteral("changeTabs"));
    auto diff = dialog->findChild<QPlainTextEdit *>(QStringLiteral("diffView"));
    auto arguments = dialog->findChild<QPlainTextEdit *>(QStringLiteral("argumentsView"));
    QVERIFY(tabs && diff && arguments);
    QCOMPARE(tabs->currentWidget(), diff);
    QVERIFY(diff->isVisible() && !arguments->isVisible());
    QCOMPARE(diff->toPlainText(),
             QStringLiteral("--- a/notes.txt\n+++ b/notes.txt\n@@ -1,3 +1,3 @@\n"
                            " one\n-two\n+2\n three\n"));
    QCOMPARE(lineBackground(diff, QStringLiteral("+2")), Gui::addedBackground(diff->palette()));
    QCOMPARE(lineBackground(diff, QStringLiteral("-two")), Gui::removedBackground(diff->palette()));
    QVERIFY(!lineBackground(diff, QStringLiteral(" one")).isValid());
    saveScreenshot(dialog, QStringLiteral("approval-diff.png"));

    // One click: the raw arguments.
    QTabBar *bar = tabs->tabBar();
    QTest::mouseClick(bar, Qt::LeftButton, {}, bar->tabRect(1).center());
    QCOMPARE(tabs->currentWidget(), arguments);
    QTRY_VERIFY(arguments->isVisible());
    QVERIFY(arguments->toPlainText().contains(QLatin1String("\"old_string\": \"two\"")));
    // Escape still denies.
    Recorder rec;
    rec.attach(dialog);
    QTest::keyClick(dialog, Qt::Key_Escape);
    QCOMPARE(rec.decisions.size(), std::size_t(1));
    QVERIFY(rec.decisions[0].choice == ApprovalChoice::Deny);
}

void tst_ApprovalDialog::changeWithoutDiffSaysWhy()
{
    ApprovalRequest r = request(QStringLiteral("write_file"), Engine::Risk::Mutating);
    r.change = std::make_shared<const Engine::FileChange>(Engine::FileChange::between(
            QStringLiteral("logo.png"), QByteArray("\x89PNG\0\0", 6), QByteArray("text\n")));
    ApprovalDialog dialog(r);
    auto heading = dialog.findChild<QLabel *>(QStringLiteral("changeHeading"));
    auto diff = dialog.findChild<QPlainTextEdit *>(QStringLiteral("diffView"));
    QVERIFY(heading && diff);
    QVERIFY2(heading->text().contains(QLatin1String("logo.png")), qPrintable(heading->text()));
    QVERIFY2(diff->toPlainText().contains(QLatin1String("Binary")),
             qPrintable(diff->toPlainText()));

    r.change = std::make_shared<const Engine::FileChange>(Engine::FileChange::unknown(
            QStringLiteral("a.txt"), QStringLiteral("'old_string' was not found in 'a.txt'")));
    ApprovalDialog failing(r);
    QCOMPARE(failing.findChild<QPlainTextEdit *>(QStringLiteral("diffView"))->toPlainText(),
             QStringLiteral("'old_string' was not found in 'a.txt'"));
    // Without a change the dialog is as it was: the arguments alone.
    ApprovalDialog plain(request(QStringLiteral("write_file")));
    QVERIFY(!plain.findChild<QTabWidget *>(QStringLiteral("changeTabs")));
}

// On a dark palette the risk colour and the diff's lines stay readable: the colours come from
// the palette, never a fixed dark red on a dark window.
void tst_ApprovalDialog::darkPaletteKeepsColoursReadable()
{
    const QPalette dark = darkPalette();
    const QPalette before = QApplication::palette();
    QApplication::setPalette(dark);
    ApprovalRequest r = request(QStringLiteral("edit_file"));
    r.change = std::make_shared<const Engine::FileChange>(Engine::FileChange::between(
            QStringLiteral("notes.txt"), QByteArray("a\nb\n"), QByteArray("a\nc\n")));
    {
        ApprovalDialog dialog(r);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        const auto contrast = [](const QColor &a, const QColor &b) {
            return std::abs(a.lightness() - b.lightness());
        };
        auto risk = dialog.findChild<QLabel *>(QStringLiteral("riskLabel"));
        const QColor riskColor = risk->palette().color(QPalette::WindowText);
        QVERIFY2(contrast(riskColor, dark.color(QPalette::Window)) >= 100,
                 qPrintable(riskColor.name()));
        QVERIFY(riskColor.red() > riskColor.green() + 60); // still red
        auto diff = dialog.findChild<QPlainTextEdit *>(QStringLiteral("diffView"));
        const QColor added = lineBackground(diff, QStringLiteral("+c"));
        QVERIFY(added.isValid());
        // A tint of the dark base: the light text on it keeps its contrast.
        QVERIFY2(contrast(added, dark.color(QPalette::Text)) >= 120, qPrintable(added.name()));
        QVERIFY(added.green() > added.red());
        saveScreenshot(&dialog, QStringLiteral("approval-diff-dark.png"));
    }
    QApplication::setPalette(before);
}

QTEST_MAIN(tst_ApprovalDialog)
#include "tst_approvaldialog.moc"
