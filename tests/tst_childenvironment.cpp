#include <mcp/process/childenvironment.h>

#include <QTest>

using namespace Mcp;

// ChildEnvironment: what a server or bash inherits from the application.
class tst_ChildEnvironment : public QObject
{
    Q_OBJECT

    static QProcessEnvironment parent()
    {
        QProcessEnvironment env;
        for (const char *name :
             {"PATH", "HOME", "LANG", "LC_ALL", "LC_TIME", "https_proxy", "HTTPS_PROXY",
              "NODE_EXTRA_CA_CERTS", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GITHUB_TOKEN",
              "AWS_SECRET_ACCESS_KEY", "LD_PRELOAD", "LCX"})
            env.insert(QString::fromLatin1(name), QStringLiteral("v-") + QLatin1String(name));
        return env;
    }

private slots:
    void allowListOnly()
    {
        const QProcessEnvironment env = ChildEnvironment::build(parent(), {}, false);
        QStringList keys = env.keys();
        keys.sort();
        QCOMPARE(keys, QStringList({"HOME", "HTTPS_PROXY", "LANG", "LC_ALL", "LC_TIME",
                                    "NODE_EXTRA_CA_CERTS", "PATH", "https_proxy"}));
        QCOMPARE(env.value(QStringLiteral("PATH")), QStringLiteral("v-PATH"));
    }

    void inheritAllButProviderKeys()
    {
        const QProcessEnvironment env = ChildEnvironment::build(parent(), {}, true);
        QVERIFY(env.contains(QStringLiteral("GITHUB_TOKEN")));
        QVERIFY(env.contains(QStringLiteral("LD_PRELOAD")));
        QVERIFY(env.contains(QStringLiteral("PATH")));
        QVERIFY(!env.contains(QStringLiteral("OPENAI_API_KEY")));
        QVERIFY(!env.contains(QStringLiteral("ANTHROPIC_API_KEY")));
        QCOMPARE(env.keys().size(), parent().keys().size() - 2);
    }

    void ownVariablesWin()
    {
        const QMap<QString, QString> own{{QStringLiteral("PATH"), QStringLiteral("/own/bin")},
                                         {QStringLiteral("API_TOKEN"), QStringLiteral("t")},
                                         {QStringLiteral("OPENAI_API_KEY"), QStringLiteral("k")}};
        const QProcessEnvironment env = ChildEnvironment::build(parent(), own, false);
        QCOMPARE(env.value(QStringLiteral("PATH")), QStringLiteral("/own/bin"));
        QCOMPARE(env.value(QStringLiteral("API_TOKEN")), QStringLiteral("t"));
        // Named in the server's own env: the config asked for it explicitly.
        QCOMPARE(env.value(QStringLiteral("OPENAI_API_KEY")), QStringLiteral("k"));
        QVERIFY(!env.contains(QStringLiteral("GITHUB_TOKEN")));
    }

    void names()
    {
        QVERIFY(ChildEnvironment::isAllowed(QStringLiteral("LC_MESSAGES")));
        QVERIFY(ChildEnvironment::isAllowed(QStringLiteral("no_proxy")));
        QVERIFY(ChildEnvironment::isAllowed(QStringLiteral("SSL_CERT_DIR")));
        QVERIFY(!ChildEnvironment::isAllowed(QStringLiteral("LCX")));
        QVERIFY(!ChildEnvironment::isAllowed(QStringLiteral("path")));
        QVERIFY(ChildEnvironment::isProviderSecret(QStringLiteral("ANTHROPIC_API_KEY")));
        QVERIFY(!ChildEnvironment::isProviderSecret(QStringLiteral("OPENAI_BASE_URL")));
    }
};

QTEST_GUILESS_MAIN(tst_ChildEnvironment)
#include "tst_childenvironment.moc"
