// The dialogs for what servers ask of the person at the window: sampling (the request, then
// the answer, each editable) and elicitation (a form, or a page to open), alone and through
// the window with server-everything.
#include "fakellmserver.h"
#include "pinnednode.h"
#include "postedevents.h"
#include "windowtest.h"

#include <engine/serverrequests/elicitation.h>
#include <ui/composeredit.h>
#include <ui/language.h>
#include <ui/mainwindow.h>
#include <ui/schemaform.h>
#include <ui/serverbrowsers.h>
#include <ui/serverdock.h>
#include <ui/serverrequestdialogs.h>
#include <ui/toolbrowser.h>

#include <QAbstractItemModel>
#include <QAction>
#include <QApplication>
#include <QCompleter>
#include <QCryptographicHash>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>

#include <optional>

using Json = nlohmann::json;

class tst_ServerRequests : public QObject
{
    Q_OBJECT

    QTemporaryDir m_data;

    static QString screenshotFolder()
    {
        const QString folder = qEnvironmentVariable(
                "SWITCHBOARD_SCREENSHOT_DIR", QStringLiteral(QT_TESTCASE_BUILDDIR "/screenshots"));
        QDir().mkpath(folder);
        return folder;
    }

    static void shoot(QWidget *widget, const QString &name)
    {
        QVERIFY(deliverPostedEvents()); // its layout settles (LayoutRequest is posted)
        QVERIFY2(widget->grab().save(screenshotFolder() + QLatin1Char('/') + name),
                 qPrintable(name));
    }

    static Engine::Sampling::Request samplingRequest()
    {
        QString error;
        auto request = Engine::Sampling::read(
                {{"systemPrompt", "You are a helpful test server."},
                 {"maxTokens", 100},
                 {"messages",
                  {{{"role", "user"},
                    {"content", {{"type", "text"}, {"text", "Resource 42 says: <b>bold</b>?"}}}},
                   {{"role", "assistant"},
                    {"content", {{"type", "text"}, {"text", "Which resource?"}}}},
                   {{"role", "user"}, {"content", {{"type", "text"}, {"text", "The 42nd."}}}}}}},
                &error);
        return request.value_or(Engine::Sampling::Request());
    }

    // The first row anywhere in `in` whose text is `text`, or nullptr.
    static QTreeWidgetItem *find(QTreeWidget *in, const QString &text)
    {
        const auto items = in->findItems(text, Qt::MatchExactly | Qt::MatchRecursive);
        return items.isEmpty() ? nullptr : items.first();
    }

    static Json formParams()
    {
        return {{"message", "Please provide your details (the 会议 is at noon)."},
                {"requestedSchema",
                 {{"type", "object"},
                  {"properties",
                   {{"name", {{"type", "string"}, {"title", "Name"}}},
                    {"email", {{"type", "string"}, {"format", "email"}, {"title", "Email"}}},
                    {"age", {{"type", "integer"}, {"minimum", 0}, {"default", 30}}},
                    {"subscribe", {{"type", "boolean"}, {"default", true}}},
                    {"color", {{"type", "string"}, {"enum", {"red", "green", "blue"}}}}}},
                  {"required", {"name", "email"}}}}};
    }

private slots:
    void initTestCase() { QVERIFY(m_data.isValid()); }

    // Sampling: the request as sent is the edited one; the answer as returned too; Deny (the
    // default, and Escape) says no at either step, once.
    void samplingDialog()
    {
        auto *dialog = new Gui::SamplingDialog(QStringLiteral("everything"), samplingRequest());
        std::optional<std::optional<Engine::Sampling::Request>> sent;
        std::optional<std::optional<QString>> returned;
        connect(dialog, &Gui::SamplingDialog::requestDecided, this, [&](auto request) {
            QVERIFY(!sent);
            sent = request;
        });
        connect(dialog, &Gui::SamplingDialog::answerDecided, this, [&](auto answer) {
            QVERIFY(!returned);
            returned = answer;
        });
        dialog->show();
        auto edits = dialog->findChildren<QPlainTextEdit *>(QStringLiteral("samplingMessageEdit"));
        QCOMPARE(edits.size(), 3);
        QCOMPARE(edits.at(0)->toPlainText(), QStringLiteral("Resource 42 says: <b>bold</b>?"));
        auto *deny = dialog->findChild<QPushButton *>(QStringLiteral("samplingDenyButton"));
        QVERIFY(deny->isDefault());
        edits.at(2)->setPlainText(QStringLiteral("The 43rd, actually."));
        dialog->findChild<QSpinBox *>(QStringLiteral("samplingMaxTokensSpin"))->setValue(50);
        dialog->findChild<QPushButton *>(QStringLiteral("samplingYesButton"))->click();
        QVERIFY(sent && *sent);
        QCOMPARE((*sent)->messages.at(2).text, QStringLiteral("The 43rd, actually."));
        QCOMPARE((*sent)->maxTokens, 50);
        QVERIFY(!dialog->findChild<QPushButton *>(QStringLiteral("samplingYesButton"))
                         ->isEnabled());
        dialog->setAnswer(QStringLiteral("It is a resource."));
        auto *answer = dialog->findChild<QPlainTextEdit *>(QStringLiteral("samplingAnswerEdit"));
        answer->setPlainText(QStringLiteral("It is a resource, edited."));
        dialog->findChild<QPushButton *>(QStringLiteral("samplingYesButton"))->click();
        QVERIFY(returned && *returned);
        QCOMPARE(**returned, QStringLiteral("It is a resource, edited."));
        delete dialog;

        // Escape at the first step: no, once; deleting it afterwards adds nothing.
        auto *second = new Gui::SamplingDialog(QStringLiteral("everything"), samplingRequest());
        int decisions = 0;
        connect(second, &Gui::SamplingDialog::requestDecided, this, [&](auto request) {
            ++decisions;
            QVERIFY(!request);
        });
        second->show();
        QTest::keyClick(second, Qt::Key_Escape);
        QCOMPARE(decisions, 1);
        delete second;
        QCOMPARE(decisions, 1);
    }

    void elicitationDialog()
    {
        QList<QUrl> opened;
        const auto open = [&](const QUrl &url) {
            opened << url;
        };
        {
            Gui::ElicitationDialog dialog(QStringLiteral("everything"), formParams(), open);
            QVERIFY(dialog.isValid());
            std::optional<Mcp::Response> answer;
            connect(&dialog, &Gui::ElicitationDialog::answered, this,
                    [&](const Mcp::Response &r) { answer = r; });
            dialog.show();
            auto *accept
                    = dialog.findChild<QPushButton *>(QStringLiteral("elicitationAcceptButton"));
            accept->click(); // name and email are required: refused with a reason
            QVERIFY(!answer);
            QVERIFY(dialog.findChild<QLabel *>(QStringLiteral("elicitationError"))->isVisible());
            auto *form = dialog.findChild<Gui::SchemaForm *>(QStringLiteral("elicitationForm"));
            qobject_cast<QLineEdit *>(form->editor(QStringLiteral("name")))
                    ->setText(QStringLiteral("Ana"));
            qobject_cast<QLineEdit *>(form->editor(QStringLiteral("email")))
                    ->setText(QStringLiteral("ana@example.com"));
            accept->click();
            QVERIFY(answer && answer->ok());
            QVERIFY(answer->result["action"] == "accept");
            QVERIFY(answer->result["content"]["name"] == "Ana");
            QVERIFY(answer->result["content"]["age"] == 30); // its default
        }
        {
            Gui::ElicitationDialog dialog(QStringLiteral("everything"), formParams(), open);
            std::optional<Mcp::Response> answer;
            connect(&dialog, &Gui::ElicitationDialog::answered, this,
                    [&](const Mcp::Response &r) { answer = r; });
            dialog.show();
            QTest::keyClick(&dialog, Qt::Key_Escape);
            QVERIFY(answer && answer->result["action"] == "cancel");
        }
        const Json url = {{"mode", "url"},
                          {"message", "Sign in to continue."},
                          {"url", "https://login.example.com/authorize?state=abc"},
                          {"elicitationId", "e1"}};
        {
            Gui::ElicitationDialog dialog(QStringLiteral("everything"), url, open);
            std::optional<Mcp::Response> answer;
            connect(&dialog, &Gui::ElicitationDialog::answered, this,
                    [&](const Mcp::Response &r) { answer = r; });
            dialog.show();
            QVERIFY(dialog.findChild<QLabel *>(QStringLiteral("elicitationUrl"))
                            ->text()
                            .contains(QLatin1String("state=abc")));
            QVERIFY(dialog.findChild<QLabel *>(QStringLiteral("elicitationHost"))
                            ->text()
                            .contains(QLatin1String("login.example.com")));
            dialog.findChild<QPushButton *>(QStringLiteral("elicitationDeclineButton"))->click();
            QVERIFY(answer && answer->result["action"] == "decline");
            QVERIFY(opened.isEmpty()); // nothing opened without a yes
        }
        {
            Gui::ElicitationDialog dialog(QStringLiteral("everything"), url, open);
            dialog.show();
            dialog.findChild<QPushButton *>(QStringLiteral("elicitationAcceptButton"))->click();
            QCOMPARE(opened, QList<QUrl>{QUrl(QStringLiteral(
                                     "https://login.example.com/authorize?state=abc"))});
        }
        for (const char *bad : {"javascript:alert(1)", "file:///etc/passwd", "not a url"}) {
            Json params = url;
            params["url"] = bad;
            Gui::ElicitationDialog dialog(QStringLiteral("everything"), params, open);
            QVERIFY2(!dialog.isValid(), bad);
            QVERIFY(!dialog.invalidResponse().ok());
        }
        QCOMPARE(opened.size(), 1);

        // Hostile sizes: a 20 MB message is shown cut; 101 fields or a 9,000-character URL
        // are refused before anyone is asked.
        {
            Json params = formParams();
            params["message"] = std::string(20 << 20, 'm');
            Gui::ElicitationDialog dialog(QStringLiteral("everything"), params, open);
            QVERIFY(dialog.isValid());
            const QString shown
                    = dialog.findChild<QLabel *>(QStringLiteral("elicitationMessage"))->text();
            QVERIFY(shown.size() < Engine::Elicitation::MaxMessageChars + 100);
            QVERIFY(shown.endsWith(QStringLiteral("[… cut]")));
        }
        {
            Json params = formParams();
            for (int i = 0; i < 101; ++i)
                params["requestedSchema"]["properties"]["f" + std::to_string(i)]
                        = {{"type", "string"}};
            Gui::ElicitationDialog dialog(QStringLiteral("everything"), params, open);
            QVERIFY(!dialog.isValid());
            QVERIFY(dialog.invalidResponse().error->message.find("fields") != std::string::npos);
        }
        {
            Json params = url;
            params["url"] = "https://login.example.com/?q=" + std::string(9000, 'a');
            Gui::ElicitationDialog dialog(QStringLiteral("everything"), params, open);
            QVERIFY(!dialog.isValid());
        }
        QCOMPARE(opened.size(), 1);
    }

    // A resource template's variables become form fields; values are put in percent-encoded
    // ({+var} keeps reserved characters; {?a,b} adds what is given).
    void uriTemplates()
    {
        const Json schema = Gui::templateSchema(QStringLiteral("demo://r/{id}/{+path}{?q,lang}"));
        QVERIFY(schema["properties"].contains("id"));
        QVERIFY(schema["properties"].contains("path"));
        QVERIFY(schema["properties"].contains("q"));
        QVERIFY(schema["required"] == Json::array({"id", "path"}));
        QCOMPARE(Gui::expandTemplate(QStringLiteral("demo://r/{id}/{+path}{?q,lang}"),
                                     {{"id", "a b/c"}, {"path", "x/y z"}, {"q", "&"}}),
                 QStringLiteral("demo://r/a%20b%2Fc/x/y%20z?q=%26"));
        QCOMPARE(Gui::expandTemplate(QStringLiteral("file:///{name}.txt"), {{"name", "ok"}}),
                 QStringLiteral("file:///ok.txt"));
    }

    // Pictures of each, in both languages (docs/ keeps copies).
    void screenshots_data() { addLanguageRows(); }

    void screenshots()
    {
        QFETCH(QString, lang);
        Gui::installLanguage(lang);
        QVERIFY(deliverPostedEvents()); // LanguageChange is posted
        {
            Gui::SamplingDialog dialog(QStringLiteral("everything"), samplingRequest());
            dialog.show();
            QVERIFY(QTest::qWaitForWindowExposed(&dialog));
            shoot(&dialog, QStringLiteral("sampling-request-%1.png").arg(lang));
            dialog.findChild<QPushButton *>(QStringLiteral("samplingYesButton"))->click();
            dialog.setAnswer(QStringLiteral("Resource 43 is a plain text file of 1,024 bytes."));
            shoot(&dialog, QStringLiteral("sampling-answer-%1.png").arg(lang));
            if (lang == QLatin1String("zh_CN"))
                QVERIFY(!dialog.windowTitle().startsWith(QLatin1String("Let ")));
        }
        {
            Gui::ElicitationDialog dialog(QStringLiteral("everything"), formParams(), {});
            dialog.show();
            QVERIFY(QTest::qWaitForWindowExposed(&dialog));
            shoot(&dialog, QStringLiteral("elicitation-form-%1.png").arg(lang));
        }
        {
            Gui::ElicitationDialog dialog(
                    QStringLiteral("everything"),
                    {{"mode", "url"},
                     {"message", "Connect your calendar to continue."},
                     {"url", "https://calendar.example.com/connect?client=switchboard&state=9f2c"},
                     {"elicitationId", "e2"}},
                    {});
            dialog.show();
            QVERIFY(QTest::qWaitForWindowExposed(&dialog));
            shoot(&dialog, QStringLiteral("elicitation-url-%1.png").arg(lang));
        }
        Gui::installLanguage(QStringLiteral("en"));
        QVERIFY(deliverPostedEvents()); // LanguageChange is posted
    }

    // Through the window: the model calls server-everything's trigger-sampling-request; after
    // the tool is allowed, the sampling dialog shows the server's request, which is edited and
    // sent; the model's answer is edited and returned, and reaches the tool's result.
    void windowAnswersSampling()
    {
        QTemporaryDir workspace;
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        auto opened = openEverything(workspace, model);
        QVERIFY(opened);
        Gui::MainWindow &window = *opened;
        Mcp::Client *client = window.manager()->client(QStringLiteral("ev"));
        // The window answers sampling and elicitation, so it says so.
        QVERIFY(client->options().capabilities.contains("sampling"));
        QVERIFY(client->options().capabilities["elicitation"].contains("url"));
        QTRY_VERIFY_WITH_TIMEOUT(client->findTool("trigger-sampling-request"), 10000);
        samplingThroughTheWindow(window, model);
    }

    // The tool browser's Resources page (server-everything's resources and templates: a text
    // read and attached to the next message as a chip; a template read through its form) and
    // Prompts page (a prompt's argument form; its messages into the composer); pictures in
    // both languages.
    void resourcesAndPrompts_data() { screenshots_data(); }
    void resourcesAndPrompts()
    {
        QFETCH(QString, lang);
        Gui::installLanguage(lang);
        QVERIFY(deliverPostedEvents()); // LanguageChange is posted
        QTemporaryDir workspace;
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        auto window = openEverything(workspace, model);
        QVERIFY(window);
        window->openToolBrowser();
        auto *browser = window->findChild<Gui::ToolBrowser *>();
        QVERIFY(browser);
        browser->resize(1100, 640);
        browser->showPage(Gui::ToolBrowser::Page::Resources);
        Gui::ResourceBrowser *resources = browser->resourceBrowser();
        QTreeWidget *tree = resources->tree();
        QTRY_VERIFY_WITH_TIMEOUT(find(tree, QStringLiteral("architecture.md")), 10000);
        // The filter keeps the items whose name or URI has its text, in either case.
        auto *filter = resources->findChild<QLineEdit *>(QStringLiteral("resourceFilter"));
        QVERIFY(filter);
        const auto shown = [tree] {
            QStringList names;
            for (QTreeWidgetItemIterator it(tree); *it; ++it) {
                if ((*it)->childCount() == 0 && !(*it)->isHidden()
                    && !(*it)->data(0, Qt::UserRole).toString().isEmpty())
                    names << (*it)->text(0);
            }
            return names;
        };
        const int all = int(shown().size());
        QVERIFY(all > 2);
        filter->setText(QStringLiteral("ARCHITECTURE"));
        QCOMPARE(shown(), QStringList({QStringLiteral("architecture.md")}));
        filter->setText(QStringLiteral("no-such-resource-anywhere"));
        QVERIFY(shown().isEmpty());
        filter->clear();
        QCOMPARE(int(shown().size()), all);
        tree->setCurrentItem(find(tree, QStringLiteral("architecture.md")));
        QSignalSpy read(resources, &Gui::ResourceBrowser::readFinished);
        resources->findChild<QPushButton *>(QStringLiteral("resourceReadButton"))->click();
        QVERIFY(read.wait(10000));
        QCOMPARE(read.last().at(0).toBool(), true);
        auto *preview = resources->findChild<QPlainTextEdit *>(QStringLiteral("resourcePreview"));
        QVERIFY(!preview->toPlainText().isEmpty());
        shoot(browser, QStringLiteral("resources-%1.png").arg(lang));
        auto *attach = resources->findChild<QPushButton *>(QStringLiteral("resourceAttachButton"));
        QVERIFY(attach->isEnabled());
        attach->click();
        const auto chips = window->findChildren<QToolButton *>(QStringLiteral("attachmentChip"));
        QCOMPARE(chips.size(), 1);
        QVERIFY2(chips.first()->text().contains(QLatin1String("architecture.md"))
                         || chips.first()->toolTip().contains(QLatin1String("architecture.md")),
                 qPrintable(chips.first()->text()));

        // A template: its variable is a form field; the URI is filled in and read.
        QTreeWidgetItem *dynamic = find(tree, QStringLiteral("Dynamic Text Resource"));
        QVERIFY(dynamic);
        tree->setCurrentItem(dynamic);
        auto *form = resources->findChild<Gui::SchemaForm *>(QStringLiteral("templateForm"));
        QVERIFY(form->isVisible());
        auto *id = qobject_cast<QLineEdit *>(form->editor(QStringLiteral("resourceId")));
        QVERIFY(id);
        id->setText(QStringLiteral("7"));
        resources->findChild<QPushButton *>(QStringLiteral("resourceReadButton"))->click();
        QVERIFY(read.wait(10000));
        QVERIFY2(preview->toPlainText().contains(QLatin1String("7")),
                 qPrintable(preview->toPlainText()));
        shoot(browser, QStringLiteral("resource-template-%1.png").arg(lang));

        browser->showPage(Gui::ToolBrowser::Page::Prompts);
        Gui::PromptBrowser *prompts = browser->promptBrowser();
        QTRY_VERIFY_WITH_TIMEOUT(find(prompts->tree(), QStringLiteral("args-prompt")), 10000);
        // Nothing chosen yet: no form saying a prompt "takes no arguments".
        QVERIFY(!prompts->form()->isVisible());
        prompts->tree()->setCurrentItem(find(prompts->tree(), QStringLiteral("args-prompt")));
        auto *city = qobject_cast<QLineEdit *>(prompts->form()->editor(QStringLiteral("city")));
        QVERIFY(city);
        city->setText(QStringLiteral("巴黎"));
        shoot(browser, QStringLiteral("prompt-form-%1.png").arg(lang));
        QSignalSpy fetched(prompts, &Gui::PromptBrowser::promptFetched);
        prompts->findChild<QPushButton *>(QStringLiteral("promptGetButton"))->click();
        QVERIFY(fetched.wait(10000));
        QCOMPARE(fetched.last().at(0).toBool(), true);
        prompts->findChild<QPushButton *>(QStringLiteral("promptUseButton"))->click();
        auto *composer = window->findChild<QPlainTextEdit *>(QStringLiteral("composer"));
        QVERIFY2(composer->toPlainText().contains(QStringLiteral("巴黎")),
                 qPrintable(composer->toPlainText()));

        // completion/complete while typing an argument: the server's suggestions.
        prompts->tree()->setCurrentItem(
                find(prompts->tree(), QStringLiteral("completable-prompt")));
        auto *department
                = qobject_cast<QLineEdit *>(prompts->form()->editor(QStringLiteral("department")));
        QVERIFY(department);
        QVERIFY(department->completer());
        department->setFocus();
        QTest::keyClicks(department, QStringLiteral("E"));
        QTRY_VERIFY_WITH_TIMEOUT(department->completer()->model()->rowCount() > 0, 10000);
        QStringList suggested;
        for (int row = 0; row < department->completer()->model()->rowCount(); ++row)
            suggested << department->completer()->model()->index(row, 0).data().toString();
        QVERIFY2(suggested.contains(QStringLiteral("Engineering")),
                 qPrintable(suggested.join(QLatin1Char(','))));
        Gui::installLanguage(QStringLiteral("en"));
        QVERIFY(deliverPostedEvents()); // LanguageChange is posted
    }

    // Logging from the Servers dock: Log level → logging/setLevel; what the server then logs
    // (notifications/message) shows in its row.
    void logLevelAndMessages()
    {
        QTemporaryDir workspace;
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        auto window = openEverything(workspace, model);
        QVERIFY(window);
        auto *dock = window->findChild<Gui::ServerDock *>();
        QVERIFY(dock);
        auto *list = dock->findChild<QTreeWidget *>(QStringLiteral("serverList"));
        QTreeWidgetItem *row = list->topLevelItem(0);
        QVERIFY(row);
        list->setCurrentItem(row);
        auto *level = dock->findChild<QAction *>(QStringLiteral("logLevelAction"));
        QVERIFY(level && level->isEnabled());
        level->menu()->findChild<QAction *>(QStringLiteral("logLevel-debug"))->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(
                row->text(Gui::ServerDock::ReasonColumn).contains(QLatin1String("debug")), 10000);
        std::optional<Mcp::ToolResult> toggled;
        window->manager()
                ->client(QStringLiteral("ev"))
                ->callTool("toggle-simulated-logging", Json::object(), this,
                           [&](Mcp::ToolResult result) { toggled = std::move(result); });
        QTRY_VERIFY_WITH_TIMEOUT(toggled.has_value(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(
                row->text(Gui::ServerDock::ReasonColumn).contains(QLatin1String("message")), 10000);
        QVERIFY(row->text(Gui::ServerDock::ReasonColumn).startsWith(QLatin1Char('[')));
    }

    // Watch (resources/subscribe): when the server says the resource changed
    // (notifications/resources/updated), it is read again.
    void watchedResourceIsReadAgain()
    {
        QTemporaryDir workspace;
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        auto window = openEverything(workspace, model);
        QVERIFY(window);
        window->openToolBrowser();
        auto *browser = window->findChild<Gui::ToolBrowser *>();
        browser->showPage(Gui::ToolBrowser::Page::Resources);
        Gui::ResourceBrowser *resources = browser->resourceBrowser();
        QTreeWidget *tree = resources->tree();
        QTRY_VERIFY_WITH_TIMEOUT(!tree->findItems(QStringLiteral("architecture.md"),
                                                  Qt::MatchExactly | Qt::MatchRecursive)
                                          .isEmpty(),
                                 10000);
        tree->setCurrentItem(tree->findItems(QStringLiteral("architecture.md"),
                                             Qt::MatchExactly | Qt::MatchRecursive)
                                     .first());
        auto *watch
                = resources->findChild<QPushButton *>(QStringLiteral("resourceSubscribeButton"));
        QVERIFY(watch->isVisible());
        watch->click();
        auto *status = resources->findChild<QLabel *>(QStringLiteral("resourceStatus"));
        QTRY_VERIFY_WITH_TIMEOUT(watch->isChecked(), 10000);
        QSignalSpy read(resources, &Gui::ResourceBrowser::readFinished);
        std::optional<Mcp::ToolResult> toggled;
        window->manager()
                ->client(QStringLiteral("ev"))
                ->callTool("toggle-subscriber-updates", Json::object(), this,
                           [&](Mcp::ToolResult result) { toggled = std::move(result); });
        QVERIFY(read.wait(10000)); // read again, unasked
        QVERIFY(toggled.has_value());
        QCOMPARE(read.last().at(0).toBool(), true);
        QVERIFY(!resources->findChild<QPlainTextEdit *>(QStringLiteral("resourcePreview"))
                         ->toPlainText()
                         .isEmpty());
        QVERIFY(status);
    }

    // A modern (2026-07-28) server in the window: Watch puts the resource in the
    // subscriptions/listen filter and a change reads it again; Log level rides on each request
    // (io.modelcontextprotocol/logLevel), so a tool's log shows in the server's row; a 20 MB
    // prompt reaches neither the view nor the composer whole.
    void modernServerInTheWindow()
    {
        QTemporaryDir workspace;
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        auto window = openWindow(workspace, model,
                                 QStringLiteral("{\"command\": \"%1\", \"args\": [\"--era\", "
                                                "\"modern\", \"--resources\"]}")
                                         .arg(QStringLiteral(SWITCHBOARD_FIXTURE_SERVER)),
                                 QStringLiteral("fix"));
        QVERIFY(window);
        Mcp::Client *client = window->manager()->client(QStringLiteral("fix"));
        QCOMPARE(client->era(), Mcp::Era::Rev2026_07_28);
        window->openToolBrowser();
        auto *browser = window->findChild<Gui::ToolBrowser *>();
        browser->showPage(Gui::ToolBrowser::Page::Resources);
        Gui::ResourceBrowser *resources = browser->resourceBrowser();
        QTreeWidget *tree = resources->tree();
        QTRY_VERIFY_WITH_TIMEOUT(find(tree, QStringLiteral("counter")), 10000);
        tree->setCurrentItem(find(tree, QStringLiteral("counter")));
        auto *watch
                = resources->findChild<QPushButton *>(QStringLiteral("resourceSubscribeButton"));
        QVERIFY(watch->isVisible());
        watch->click();
        auto *status = resources->findChild<QLabel *>(QStringLiteral("resourceStatus"));
        QTRY_COMPARE_WITH_TIMEOUT(status->text(), QStringLiteral("Watching it for changes."),
                                  10000);
        QVERIFY(watch->isChecked());
        QVERIFY(client->subscription().value("resourceSubscriptions", Json())
                == Json::array({"fixture://counter"}));
        auto *preview = resources->findChild<QPlainTextEdit *>(QStringLiteral("resourcePreview"));
        QSignalSpy read(resources, &Gui::ResourceBrowser::readFinished);
        std::optional<Mcp::ToolResult> bumped;
        client->callTool("bump_resource", Json::object(), this,
                         [&](Mcp::ToolResult result) { bumped = std::move(result); });
        QVERIFY(read.wait(10000)); // read again, unasked
        QTRY_COMPARE(preview->toPlainText(), QStringLiteral("count 1"));
        watch->click(); // and off again: out of the filter
        QTRY_COMPARE_WITH_TIMEOUT(status->text(), QStringLiteral("No longer watching it."), 10000);
        QVERIFY(!watch->isChecked());
        QVERIFY(client->subscription().is_object());
        QVERIFY(!client->subscription().contains("resourceSubscriptions"));

        // Log level: no setLevel in this era; the level goes with each request.
        auto *dock = window->findChild<Gui::ServerDock *>();
        auto *list = dock->findChild<QTreeWidget *>(QStringLiteral("serverList"));
        QTreeWidgetItem *row = list->topLevelItem(0);
        list->setCurrentItem(row);
        auto *level = dock->findChild<QAction *>(QStringLiteral("logLevelAction"));
        QVERIFY(level && level->isEnabled());
        level->menu()->findChild<QAction *>(QStringLiteral("logLevel-warning"))->trigger();
        QTRY_VERIFY(level->menu()
                            ->findChild<QAction *>(QStringLiteral("logLevel-warning"))
                            ->isChecked());
        std::optional<Mcp::ToolResult> logged;
        client->callTool("log_levels", Json::object(), this,
                         [&](Mcp::ToolResult result) { logged = std::move(result); });
        QTRY_VERIFY_WITH_TIMEOUT(logged.has_value(), 10000);
        QCOMPARE(logged->text(), QStringLiteral("logged 2"));
        QTRY_VERIFY2(row->text(Gui::ServerDock::ReasonColumn).contains(QLatin1String("[error]")),
                     qPrintable(row->text(Gui::ServerDock::ReasonColumn)));

        // A 20 MB prompt: the view and the composer get the first PreviewChars of it.
        browser->showPage(Gui::ToolBrowser::Page::Prompts);
        Gui::PromptBrowser *prompts = browser->promptBrowser();
        QTRY_VERIFY_WITH_TIMEOUT(find(prompts->tree(), QStringLiteral("big")), 10000);
        prompts->tree()->setCurrentItem(find(prompts->tree(), QStringLiteral("big")));
        auto *chars = qobject_cast<QLineEdit *>(prompts->form()->editor(QStringLiteral("chars")));
        QVERIFY(chars);
        chars->setText(QStringLiteral("20000000"));
        QSignalSpy fetched(prompts, &Gui::PromptBrowser::promptFetched);
        prompts->findChild<QPushButton *>(QStringLiteral("promptGetButton"))->click();
        QVERIFY(fetched.wait(20000));
        QCOMPARE(fetched.last().at(0).toBool(), true);
        auto *messages = prompts->findChild<QPlainTextEdit *>(QStringLiteral("promptMessages"));
        QVERIFY(messages);
        QVERIFY(messages->toPlainText().size() < Gui::ServerItemBrowser::PreviewChars + 200);
        QVERIFY2(
                messages->toPlainText().right(60).contains(QStringLiteral("[… cut: 19800006 more")),
                qPrintable(messages->toPlainText().right(60)));
        QVERIFY(prompts->findChild<QLabel *>(QStringLiteral("promptStatus"))
                        ->text()
                        .contains(QString::number(Gui::ServerItemBrowser::PreviewChars)));
        prompts->findChild<QPushButton *>(QStringLiteral("promptUseButton"))->click();
        auto *composer = window->findChild<QPlainTextEdit *>(QStringLiteral("composer"));
        QCOMPARE(composer->toPlainText().size(), qsizetype(Gui::ServerItemBrowser::PreviewChars));
    }

    // The Skills page lists what the servers list (name, server, description, files), and
    // reading it reads no skill file.
    void skillsPage()
    {
        QTemporaryDir workspace, skills;
        const QByteArray skill = "---\nname: pdf\ndescription: Fill PDF forms\n---\nBody.\n";
        QDir(skills.path()).mkpath(QStringLiteral("pdf"));
        QFile file(skills.filePath(QStringLiteral("pdf/SKILL.md")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(skill);
        file.close();
        const Json listing
                = {{"skills",
                    Json::array(
                            {{{"uri", "skill://pdf/SKILL.md"},
                              {"frontmatter", {{"name", "pdf"}, {"description", "Fill PDF forms"}}},
                              {"resources",
                               Json::array({{{"uri", "skill://pdf/SKILL.md"},
                                             {"digest",
                                              "sha256:"
                                                      + QCryptographicHash::hash(
                                                                skill, QCryptographicHash::Sha256)
                                                                .toHex()
                                                                .toStdString()},
                                             {"size", skill.size()}}})}}})}};
        QFile list(skills.filePath(QStringLiteral("skills.json")));
        QVERIFY(list.open(QIODevice::WriteOnly));
        list.write(QByteArray::fromStdString(listing.dump()));
        list.close();
        const QString log = skills.filePath(QStringLiteral("requests.log"));
        QFile config(QDir(workspace.path()).filePath(QStringLiteral(".mcp.json")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(QStringLiteral("{\"mcpServers\": {\"fix\": {\"command\": \"%1\", \"args\": "
                                    "[\"--skills\", \"%2\", \"--log-file\", \"%3\"]}}}")
                             .arg(QStringLiteral(SWITCHBOARD_FIXTURE_SERVER), skills.path(), log)
                             .toUtf8());
        config.close();
        const Gui::MainWindowOptions options = testWindowOptions(
                workspace.path(), m_data.path(), m_data.filePath(QStringLiteral("s")));
        QVERIFY(trustWorkspace(options));
        Gui::MainWindow window(options);
        window.show();
        QVERIFY(QTest::qWaitFor([&] { return window.manager()->client(QStringLiteral("fix")); },
                                10000));
        window.openToolBrowser();
        auto *browser = window.findChild<Gui::ToolBrowser *>();
        browser->showPage(Gui::ToolBrowser::Page::Skills);
        QTreeWidget *tree = browser->skillList()->tree();
        QTRY_COMPARE_WITH_TIMEOUT(tree->topLevelItemCount(), 1, 10000);
        QCOMPARE(tree->topLevelItem(0)->text(0), QStringLiteral("pdf"));
        QCOMPARE(tree->topLevelItem(0)->text(1), QStringLiteral("fix"));
        QCOMPARE(tree->topLevelItem(0)->text(2), QStringLiteral("Fill PDF forms"));
        QCOMPARE(tree->topLevelItem(0)->child(0)->text(0), QStringLiteral("skill://pdf/SKILL.md"));
        QFile requests(log);
        QVERIFY(requests.open(QIODevice::ReadOnly));
        const QByteArray seen = requests.readAll();
        QVERIFY(seen.contains("skills/list"));
        QVERIFY(!seen.contains("resources/read"));
    }

    // "/" in the composer suggests /mcp and each server's prompts; "/ev:args-prompt" opens
    // that prompt's argument form.
    void slashPromptInTheComposer()
    {
        QTemporaryDir workspace;
        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        auto window = openEverything(workspace, model);
        QVERIFY(window);
        auto *composer = window->findChild<Gui::ComposerEdit *>(QStringLiteral("composer"));
        QVERIFY(composer && composer->commandCompleter());
        window->activateWindow();
        composer->setFocus();
        QCompleter *completer = composer->commandCompleter();
        // The prompts are listed the first time "/" is typed and offered from the next
        // keystroke on: typed again until they have come.
        QTest::keyClicks(composer, QStringLiteral("/"));
        QVERIFY(QTest::qWaitFor(
                [&] {
                    composer->clear();
                    QTest::keyClicks(composer, QStringLiteral("/ev:a"));
                    return completer->completionCount() > 0;
                },
                10000));
        QStringList offered;
        for (int row = 0; row < completer->completionModel()->rowCount(); ++row)
            offered << completer->completionModel()->index(row, 0).data().toString();
        QVERIFY2(offered.contains(QStringLiteral("/ev:args-prompt")),
                 qPrintable(offered.join(QLatin1Char(' '))));
        composer->setPlainText(QStringLiteral("/ev:args-prompt"));
        window->submit();
        auto *browser = window->findChild<Gui::ToolBrowser *>();
        QVERIFY(browser && browser->isVisible());
        Gui::PromptBrowser *prompts = browser->promptBrowser();
        QTRY_VERIFY_WITH_TIMEOUT(prompts->tree()->currentItem()
                                         && prompts->tree()->currentItem()->text(0)
                                                    == QLatin1String("args-prompt"),
                                 10000);
        QVERIFY(prompts->form()->editor(QStringLiteral("city")));
        QVERIFY(composer->toPlainText().isEmpty());
    }

private:
    std::unique_ptr<Gui::MainWindow> openEverything(const QTemporaryDir &workspace,
                                                    const FakeLlmServer &model)
    {
        return openWindow(
                workspace, model,
                QStringLiteral("{\"command\": \"%1\", \"args\": [\"%2\", \"stdio\"]}")
                        .arg(PinnedNode::program(),
                             QDir(QStringLiteral(SWITCHBOARD_SOURCE_DIR))
                                     .filePath(QStringLiteral("node_modules/@modelcontextprotocol/"
                                                              "server-everything/dist/index.js"))),
                QStringLiteral("ev"));
    }

    // A window on `workspace` whose one server, `name`, is `server` (its JSON definition).
    std::unique_ptr<Gui::MainWindow> openWindow(const QTemporaryDir &workspace,
                                                const FakeLlmServer &model, const QString &server,
                                                const QString &name)
    {
        return openTestWindow(workspace.path(), m_data.path(), QStringLiteral("c"),
                              QStringLiteral("\"%1\": %2").arg(name, server), model.baseUrl(),
                              name);
    }

    void samplingThroughTheWindow(Gui::MainWindow &window, FakeLlmServer &model)
    {
        model.enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("mcp__ev__trigger_sampling_request"),
                  Json{{"prompt", "What is resource 42?"}, {"maxTokens", 64}}}}));
        model.enqueue(FakeLlmServer::openAiText(QStringLiteral("The model's own words.")));
        model.enqueue(FakeLlmServer::openAiText(QStringLiteral("Done.")));
        auto *composer = window.findChild<QPlainTextEdit *>(QStringLiteral("composer"));
        QVERIFY(composer);
        composer->setPlainText(QStringLiteral("ask the server to sample"));
        window.submit();
        const auto modalButton = [](const char *name) -> QPushButton * {
            QWidget *modal = QApplication::activeModalWidget();
            return modal ? modal->findChild<QPushButton *>(QString::fromLatin1(name)) : nullptr;
        };
        QTRY_VERIFY_WITH_TIMEOUT(modalButton("allowOnceButton"), 10000);
        modalButton("allowOnceButton")->click();
        QTRY_VERIFY_WITH_TIMEOUT(modalButton("samplingYesButton"), 10000);
        auto *dialog = qobject_cast<Gui::SamplingDialog *>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        auto edits = dialog->findChildren<QPlainTextEdit *>(QStringLiteral("samplingMessageEdit"));
        QVERIFY(!edits.isEmpty());
        QVERIFY2(edits.back()->toPlainText().contains(QLatin1String("What is resource 42?")),
                 qPrintable(edits.back()->toPlainText()));
        edits.back()->setPlainText(QStringLiteral("What is resource 43?"));
        modalButton("samplingYesButton")->click();
        auto *answer = dialog->findChild<QPlainTextEdit *>(QStringLiteral("samplingAnswerEdit"));
        QTRY_VERIFY_WITH_TIMEOUT(answer->isEnabled(), 10000);
        QCOMPARE(answer->toPlainText(), QStringLiteral("The model's own words."));
        answer->setPlainText(QStringLiteral("Words the user chose."));
        modalButton("samplingYesButton")->click();
        QTRY_COMPARE_WITH_TIMEOUT(model.requests().size(), 3, 10000);
        const std::string sampled = model.requests().at(1).dump();
        QVERIFY2(sampled.find("What is resource 43?") != std::string::npos, sampled.c_str());
        QVERIFY(sampled.find("What is resource 42?") == std::string::npos);
        const std::string observed = model.requests().at(2).dump();
        QVERIFY2(observed.find("Words the user chose.") != std::string::npos, observed.c_str());
        QVERIFY(observed.find("The model's own words.") == std::string::npos);
    }
};

QTEST_MAIN(tst_ServerRequests)
#include "tst_serverrequests.moc"
