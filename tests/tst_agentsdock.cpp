// The Agents dock: known agents with their cards (reachable, unreachable, a workspace's not
// contacted until trusted), the "Serve this workspace as an agent" switch with its address,
// and inbound tasks with the tools they were refused; pictures in English and Chinese.

#include "a2apeer.h"
#include "fakellmserver.h"
#include "postedevents.h"
#include "sessiontest.h"

#include <engine/session.h>
#include <engine/storage/conversationstore.h>
#include <ui/agentsdock.h>
#include <ui/language.h>

#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPushButton>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace Engine;
using Json = nlohmann::json;

namespace {

bool writeFile(const QString &path, const QByteArray &text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(text) == text.size();
}

QTreeWidgetItem *row(QTreeWidget *view, const QString &name)
{
    for (int i = 0; i < view->topLevelItemCount(); ++i) {
        if (view->topLevelItem(i)->data(0, Qt::UserRole).toString() == name)
            return view->topLevelItem(i);
    }
    return nullptr;
}

} // namespace

class tst_AgentsDock : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_workspace;
    std::unique_ptr<SdkAgent> m_agent;
    QTcpServer m_watched; // the untrusted workspace agent's address: nothing may connect
    int m_connections = 0;

    std::unique_ptr<Session> makeSession() { return makeTestSession(m_workspace, m_dir.path()); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        qputenv("XDG_CONFIG_HOME", m_dir.filePath(QStringLiteral("config")).toUtf8());
        m_workspace = QDir(m_dir.filePath(QStringLiteral("ws"))).absolutePath();
        QVERIFY(QDir().mkpath(m_workspace));
        m_agent = std::make_unique<SdkAgent>();
        QVERIFY(m_agent->start());
        QVERIFY(m_watched.listen(QHostAddress::LocalHost));
        connect(&m_watched, &QTcpServer::newConnection, this, [this] {
            ++m_connections;
            delete m_watched.nextPendingConnection();
        });
        QTcpServer dead;
        QVERIFY(dead.listen(QHostAddress::LocalHost));
        const quint16 deadPort = dead.serverPort();
        dead.close();
        QVERIFY(writeFile(m_dir.filePath(QStringLiteral("config/switchboard/a2a.json")),
                          QStringLiteral("{\"agents\": {\"echo\": {\"url\": \"%1\"},"
                                         " \"gone\": {\"url\": \"http://127.0.0.1:%2/\"}}}")
                                  .arg(m_agent->url())
                                  .arg(deadPort)
                                  .toUtf8()));
        QVERIFY(writeFile(m_workspace + QStringLiteral("/.a2a.json"),
                          QStringLiteral("{\"agents\": {\"cloned\": {\"url\": "
                                         "\"http://127.0.0.1:%1/\", \"headers\": {\"X-Token\": "
                                         "\"${HOME}\"}}}}")
                                  .arg(m_watched.serverPort())
                                  .toUtf8()));
    }

    void showsKnownAgents()
    {
        auto session = makeSession();
        ConversationStore store(m_dir.filePath(QStringLiteral("conversations")));
        Gui::AgentsDock dock(session.get(), &store);
        QTreeWidget *peers = dock.peerView();
        QCOMPARE(peers->topLevelItemCount(), 3);
        QVERIFY(QTest::qWaitFor(
                [&] {
                    return row(peers, QStringLiteral("echo"))
                                           ->text(Gui::AgentsDock::PeerStateColumn)
                                   == QLatin1String("reachable")
                           && row(peers, QStringLiteral("gone"))
                                              ->text(Gui::AgentsDock::PeerStateColumn)
                                      == QLatin1String("unreachable");
                },
                15000));
        QTreeWidgetItem *echo = row(peers, QStringLiteral("echo"));
        QCOMPARE(echo->text(Gui::AgentsDock::PeerCardColumn), QStringLiteral("SDK echo agent"));
        QVERIFY2(echo->text(Gui::AgentsDock::PeerSkillsColumn).contains(QLatin1String("Echo")),
                 qPrintable(echo->text(Gui::AgentsDock::PeerSkillsColumn)));
        QTreeWidgetItem *cloned = row(peers, QStringLiteral("cloned"));
        QCOMPARE(cloned->text(Gui::AgentsDock::PeerStateColumn), QStringLiteral("not trusted yet"));
        // A cloned repository's agent was not contacted: the dock probed its agents at once,
        // and echo's answer (an HTTP round trip through Node) came after any knock there.
        QCOMPARE(m_connections, 0);

        // Trust is offered for the untrusted one only, and asked of the window.
        QPushButton *trust = dock.findChild<QPushButton *>(QStringLiteral("agentsTrustButton"));
        echo->setSelected(true);
        QVERIFY(!trust->isEnabled());
        peers->clearSelection();
        cloned->setSelected(true);
        QVERIFY(trust->isEnabled());
        QStringList asked;
        connect(&dock, &Gui::AgentsDock::trustRequested, this,
                [&](const QStringList &names) { asked = names; });
        trust->click();
        QCOMPARE(asked, QStringList{QStringLiteral("cloned")});
        // Once trusted, it is contacted (and found wanting: it speaks no HTTP).
        QVERIFY(session->trustAgents(asked).isEmpty());
        dock.refreshPeers();
        QVERIFY(QTest::qWaitFor([&] { return m_connections > 0; }, 10000));
        QFile::remove(m_dir.filePath(QStringLiteral("trust.json")));
    }

    // Without a model the switch is off and says why; with one it serves on 127.0.0.1, and an
    // inbound task shows with its answer and the tools it was refused.
    void servesAndShowsInboundTasks()
    {
        auto session = makeSession();
        ConversationStore store(m_dir.filePath(QStringLiteral("conversations")));
        Gui::AgentsDock dock(session.get(), &store);
        QVERIFY(!dock.serveSwitch()->isEnabled());
        QVERIFY(!dock.isServing());

        FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
        QVERIFY(model.listen());
        model.enqueue(FakeLlmServer::openAiToolCalls(
                {{QStringLiteral("bash"), {{"command", "rm -rf ~"}}}}));
        model.enqueue(FakeLlmServer::openAiText(QStringLiteral("I was not allowed to.")));
        ProviderConfig config;
        config.baseUrl = model.baseUrl();
        config.model = QStringLiteral("scripted");
        dock.setModel(config);
        QVERIFY(dock.serveSwitch()->isEnabled());
        dock.serveSwitch()->click();
        QVERIFY(dock.isServing());
        QCOMPARE(dock.server()->maxConcurrentTasks(), 4); // the setting's default
        dock.setMaxTasks(2);
        QCOMPARE(dock.server()->maxConcurrentTasks(), 2);
        QVERIFY(dock.address().startsWith(QLatin1String("http://127.0.0.1:")));
        QLabel *address = dock.findChild<QLabel *>(QStringLiteral("agentsAddress"));
        QVERIFY2(address->text().contains(dock.address()), qPrintable(address->text()));

        QNetworkAccessManager network;
        QNetworkRequest request{QUrl(dock.address() + QStringLiteral("a2a/message"))};
        request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
        QNetworkReply *reply = network.post(request, "{\"message\": \"clean my home\"}");
        QVERIFY(QTest::qWaitFor([&] { return reply->isFinished(); }, 20000));
        const Json answer = Json::parse(reply->readAll().toStdString(), nullptr, false);
        QVERIFY2(answer.value("code", -1) == 0, answer.dump().c_str());
        reply->deleteLater();

        QTreeWidget *tasks = dock.taskView();
        QCOMPARE(tasks->topLevelItemCount(), 1);
        QTreeWidgetItem *task = tasks->topLevelItem(0);
        QCOMPARE(task->text(Gui::AgentsDock::TaskStateColumn), QStringLiteral("completed"));
        QCOMPARE(task->text(Gui::AgentsDock::TaskRequestColumn), QStringLiteral("clean my home"));
        QCOMPARE(task->text(Gui::AgentsDock::TaskReplyColumn),
                 QStringLiteral("I was not allowed to."));
        QCOMPARE(task->text(Gui::AgentsDock::TaskRefusedColumn), QStringLiteral("bash"));

        // Hostile content stays one line.
        model.enqueue(FakeLlmServer::openAiText(QStringLiteral("\x1b[31mred\nnext")
                                                + QString(5000, 'x')));
        reply = network.post(request, "{\"message\": \"line\\u001b[2J\\nbreak\"}");
        QVERIFY(QTest::qWaitFor([&] { return reply->isFinished(); }, 20000));
        reply->deleteLater();
        QCOMPARE(tasks->topLevelItemCount(), 2);
        const QString shownReply = tasks->topLevelItem(0)->text(Gui::AgentsDock::TaskReplyColumn);
        QVERIFY(!shownReply.contains(QChar(0x1b)));
        QVERIFY(!shownReply.contains(QLatin1Char('\n')));
        QVERIFY(shownReply.size() <= 121);

        for (const QString &lang : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
            Gui::installLanguage(lang);
            QVERIFY(deliverPostedEvents()); // the LanguageChange events are posted
            dock.resize(720, 560);
            dock.show();
            QVERIFY(QTest::qWaitForWindowExposed(&dock));
            QVERIFY(QTest::qWaitFor(
                    [&] {
                        QTreeWidgetItem *echo = row(dock.peerView(), QStringLiteral("echo"));
                        return echo && !echo->text(Gui::AgentsDock::PeerCardColumn).isEmpty();
                    },
                    15000));
            const QString folder
                    = qEnvironmentVariable("SWITCHBOARD_SCREENSHOT_DIR",
                                           QStringLiteral(QT_TESTCASE_BUILDDIR "/screenshots"));
            QVERIFY(QDir().mkpath(folder));
            QVERIFY(dock.grab().save(folder + QStringLiteral("/agents-%1.png").arg(lang)));
            if (lang == QLatin1String("zh_CN"))
                QVERIFY2(dock.windowTitle() != QLatin1String("Agents"),
                         qPrintable(dock.windowTitle()));
        }
        Gui::installLanguage(QStringLiteral("en"));

        dock.serveSwitch()->click();
        QVERIFY(!dock.isServing());
        QCOMPARE(address->text(), QStringLiteral("Not serving."));
    }
};

QTEST_MAIN(tst_AgentsDock)
#include "tst_agentsdock.moc"
