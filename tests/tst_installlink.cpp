#include <engine/install/installlink.h>

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using Engine::InstallLink;

// What `switchboard --install …` and a switchboard:// link from a browser may ask for: a local
// bundle, a registry entry by name, or a download with its SHA-256; everything else refused
// with the reason.
class tst_InstallLink : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void accepted()
    {
        const QString bundle = m_dir.filePath(QStringLiteral("weather.mcpb"));
        QFile file(bundle);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        QString problem;
        for (const QString &given : {bundle, QUrl::fromLocalFile(bundle).toString()}) {
            const std::optional<InstallLink> link = InstallLink::parse(given, &problem);
            QVERIFY2(link, qPrintable(problem));
            QCOMPARE(link->kind, InstallLink::Kind::File);
            QCOMPARE(link->file, bundle);
        }
        std::optional<InstallLink> link = InstallLink::parse(
                QStringLiteral("switchboard://install?name=io.github.modelcontextprotocol/"
                               "server-memory"),
                &problem);
        QVERIFY2(link, qPrintable(problem));
        QCOMPARE(link->kind, InstallLink::Kind::Registry);
        QCOMPARE(link->name, QStringLiteral("io.github.modelcontextprotocol/server-memory"));
        // Encoded as a browser would hand it over.
        link = InstallLink::parse(QStringLiteral("switchboard://install?name=io.example%2Fx"),
                                  &problem);
        QVERIFY2(link && link->name == QLatin1String("io.example/x"), qPrintable(problem));
        const QString sha(64, QLatin1Char('a'));
        link = InstallLink::parse(
                QStringLiteral("switchboard://install?bundle=https%3A%2F%2Fgithub.com%2Fo%2Fr%2F"
                               "releases%2Fdownload%2Fv1%2Fs.mcpb&sha256=")
                        + sha.toUpper(),
                &problem);
        QVERIFY2(link, qPrintable(problem));
        QCOMPARE(link->kind, InstallLink::Kind::Download);
        QCOMPARE(link->download.identifier,
                 QStringLiteral("https://github.com/o/r/releases/download/v1/s.mcpb"));
        QCOMPARE(link->download.fileSha256, sha);
        QVERIFY(InstallLink::looksLikeOne(QStringLiteral("switchboard://install?name=a/b")));
        QVERIFY(InstallLink::looksLikeOne(bundle));
        QVERIFY(!InstallLink::looksLikeOne(QStringLiteral("--workspace")));
    }

    void refused_data()
    {
        QTest::addColumn<QString>("given");
        QTest::addColumn<QString>("says");
        const QString sha(64, QLatin1Char('b'));
        QTest::newRow("another scheme") << "https://example.com/x.mcpb"
                                        << "is not an install link";
        QTest::newRow("another verb") << "switchboard://run?name=a/b"
                                      << "is not an install link";
        QTest::newRow("a file that is not a bundle") << "/etc/passwd"
                                                     << "is not an MCP Bundle";
        QTest::newRow("no such bundle") << "/nowhere/x.mcpb"
                                        << "no such file";
        QTest::newRow("another registry") << "switchboard://install?name=a/b&registry=http://evil"
                                          << "a parameter 'registry' it may not have";
        QTest::newRow("a name twice") << "switchboard://install?name=a/b&name=c/d"
                                      << "gives 'name' twice";
        QTest::newRow("nothing named") << "switchboard://install"
                                       << "names neither";
        QTest::newRow("both") << "switchboard://install?name=a/b&bundle=https://x/y.mcpb"
                              << "names neither";
        QTest::newRow("a name with a shell in it") << "switchboard://install?name=a/b;rm%20-rf%20~"
                                                   << "is not the name of";
        QTest::newRow("a download unchecked") << "switchboard://install?bundle=https://x/y.mcpb"
                                              << "names no SHA-256";
        QTest::newRow("a download over http")
                << "switchboard://install?bundle=http://example.com/y.mcpb&sha256=" + sha
                << "is not an https download address";
        QTest::newRow("a control character") << "switchboard://install?name=a/b\x1b[2J"
                                             << "control character";
        QTest::newRow("too long") << "switchboard://install?name=" + QString(5000, QLatin1Char('a'))
                                  << "longer than 4096";
    }

    void refused()
    {
        QFETCH(QString, given);
        QFETCH(QString, says);
        QString problem;
        QVERIFY(!InstallLink::parse(given, &problem));
        QVERIFY2(problem.contains(says), qPrintable(problem));
    }
};

QTEST_GUILESS_MAIN(tst_InstallLink)
#include "tst_installlink.moc"
