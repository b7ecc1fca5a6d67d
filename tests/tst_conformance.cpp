#include "pinnednode.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

// The official MCP client conformance suite (@modelcontextprotocol/conformance, pinned in
// package-lock.json, run on the Node 22 the lockfile installs) against switchboard-conformance
// (tests/conformance/driver.cpp, which speaks through src/mcp). Every non-auth scenario a
// revision requires must pass: at least one SUCCESS, no FAILURE, no WARNING; so must the
// authorization scenarios (sign-in through Mcp::OAuth::Authorizer, the browser replaced by
// the driver reading the redirect), the 2025-03-26 back-compat ones and the auth extensions.
// Any scenario the suite runs that these lists do not name fails the test, so none slips
// through unjudged.
class tst_Conformance : public QObject
{
    Q_OBJECT

    // The auth extensions (not scored by either revision, but run by both): client
    // credentials, enterprise-managed authorization, workload identity, DPoP.
    inline static const QStringList Extensions{
            QStringLiteral("auth/client-credentials-basic"),
            QStringLiteral("auth/client-credentials-jwt"),
            QStringLiteral("auth/enterprise-managed-authorization"),
            QStringLiteral("auth/wif-jwt-bearer"),
            QStringLiteral("auth/dpop"),
            QStringLiteral("auth/dpop-nonce")};

    // The authorization scenarios both revisions require.
    static QStringList authScenarios()
    {
        QStringList names;
        for (const char *name :
             {"metadata-default", "metadata-var1", "metadata-var2", "metadata-var3", "basic-cimd",
              "scope-from-www-authenticate", "scope-from-scopes-supported",
              "scope-omitted-when-undefined", "scope-step-up", "scope-retry-limit",
              "token-endpoint-auth-basic", "token-endpoint-auth-post", "token-endpoint-auth-none",
              "pre-registration"})
            names << QStringLiteral("auth/") + QLatin1String(name);
        return names;
    }

    static QString source(const QString &path)
    {
        return QDir(QStringLiteral(SWITCHBOARD_SOURCE_DIR)).filePath(path);
    }

    struct Run
    {
        int code = -1;
        QByteArray output;
    };

    static Run suite(const QStringList &args, const QString &outputDir)
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        // The suite needs Node >= 22 (fs.globSync): it runs on the pinned one, and so does
        // anything it starts as `node` (the pinned one's folder comes first on PATH).
        env.insert(QStringLiteral("PATH"),
                   QFileInfo(PinnedNode::program()).path() + QLatin1Char(':') + env.value("PATH"));
        process.setProcessEnvironment(env);
        process.setProcessChannelMode(QProcess::MergedChannels);
        process.start(PinnedNode::program(),
                      QStringList{source(QStringLiteral("node_modules/.bin/conformance")),
                                  QStringLiteral("client"), QStringLiteral("--command"),
                                  QStringLiteral(SWITCHBOARD_CONFORMANCE_DRIVER)}
                              + args + QStringList{QStringLiteral("-o"), outputDir});
        Run run;
        if (!process.waitForFinished(240000)) {
            process.kill();
            process.waitForFinished();
        } else {
            run.code = process.exitCode();
        }
        run.output = process.readAll();
        return run;
    }

    // scenario → its checks, from the result folders the suite wrote (NAME-TIMESTAMP).
    static QMap<QString, nlohmann::json> results(const QString &outputDir)
    {
        QMap<QString, nlohmann::json> found;
        static const QRegularExpression stamp(QStringLiteral("-\\d{4}-\\d\\d-\\d\\dT[\\d-]+Z$"));
        QDirIterator it(outputDir, {QStringLiteral("checks.json")}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString file = it.next();
            QString scenario = QDir(outputDir).relativeFilePath(QFileInfo(file).path());
            scenario.remove(stamp);
            QFile in(file);
            if (in.open(QIODevice::ReadOnly))
                found.insert(scenario,
                             nlohmann::json::parse(in.readAll().toStdString(), nullptr, false));
        }
        return found;
    }

    // "" when the scenario passed: a SUCCESS, no FAILURE, no WARNING; else what was wrong.
    static QString verdict(const nlohmann::json &checks)
    {
        if (!checks.is_array())
            return QStringLiteral("no checks.json");
        int successes = 0;
        QStringList problems;
        for (const auto &check : checks) {
            const std::string status = check.value("status", "");
            if (status == "SUCCESS")
                ++successes;
            else if (status == "FAILURE" || status == "WARNING")
                problems << QString::fromStdString(
                        status + " " + check.value("id", "") + ": "
                        + check.value("errorMessage", check.value("description", "")));
        }
        if (successes == 0)
            problems << QStringLiteral("no check passed");
        return problems.join(QStringLiteral("; "));
    }

    // `--suite NAME`: it exits 0, and each of `scenarios` ran and passed.
    static void judgeSuite(const QString &name, const QStringList &scenarios)
    {
        QTemporaryDir out;
        const Run run = suite({QStringLiteral("--suite"), name}, out.path());
        QVERIFY2(run.code == 0, run.output.right(4000).constData());
        const QMap<QString, nlohmann::json> found = results(out.path());
        for (const QString &scenario : scenarios) {
            QVERIFY2(found.contains(scenario), qPrintable(scenario));
            const QString problem = verdict(found.value(scenario));
            QVERIFY2(problem.isEmpty(), qPrintable(scenario + QStringLiteral(": ") + problem));
        }
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(source(QStringLiteral("node_modules/.bin/conformance"))),
                 "the conformance suite is missing: run scripts/bootstrap.sh (npm ci)");
        QVERIFY2(QFileInfo::exists(PinnedNode::program()),
                 "Node 22 from npm is missing: run scripts/bootstrap.sh (npm ci)");
    }

    // `client --requirements REVISION`: the scenarios the revision requires, in parallel.
    // sse-retry is judged from its own run below (its timing window is tight on 2 cores).
    void requirements_data()
    {
        QTest::addColumn<QString>("revision");
        QTest::addColumn<QStringList>("scenarios");
        QTest::newRow("2025-11-25")
                << QStringLiteral("2025-11-25")
                << QStringList{QStringLiteral("initialize"), QStringLiteral("tools_call"),
                               QStringLiteral("elicitation-sep1034-client-defaults"),
                               QStringLiteral("sse-retry"),
                               QStringLiteral("json-schema-2020-12-preservation")}
                           + authScenarios() + Extensions;
        QTest::newRow("2026-07-28")
                << QStringLiteral("2026-07-28")
                << QStringList{QStringLiteral("tools_call"),
                               QStringLiteral("request-metadata"),
                               QStringLiteral("sep-2322-client-request-state"),
                               QStringLiteral("http-standard-headers"),
                               QStringLiteral("http-custom-headers"),
                               QStringLiteral("http-invalid-tool-headers"),
                               QStringLiteral("json-schema-ref-no-deref"),
                               QStringLiteral("json-schema-2020-12-preservation")}
                           + authScenarios() + Extensions
                           + QStringList{QStringLiteral("auth/resource-mismatch"),
                                         QStringLiteral("auth/offline-access-scope"),
                                         QStringLiteral("auth/offline-access-not-supported"),
                                         QStringLiteral("auth/authorization-server-migration"),
                                         QStringLiteral("auth/iss-supported"),
                                         QStringLiteral("auth/iss-not-advertised"),
                                         QStringLiteral("auth/iss-supported-missing"),
                                         QStringLiteral("auth/iss-wrong-issuer"),
                                         QStringLiteral("auth/iss-unexpected"),
                                         QStringLiteral("auth/iss-normalized"),
                                         QStringLiteral("auth/metadata-issuer-mismatch")};
    }
    void requirements()
    {
        QFETCH(QString, revision);
        QFETCH(QStringList, scenarios);
        QTemporaryDir out;
        const Run run = suite({QStringLiteral("--requirements"), revision}, out.path());
        QVERIFY2(run.code >= 0, run.output.right(4000).constData());
        const QMap<QString, nlohmann::json> found = results(out.path());
        for (auto it = found.cbegin(); it != found.cend(); ++it) {
            QVERIFY2(scenarios.contains(it.key()),
                     qPrintable(QStringLiteral("the suite ran '%1', which this test does not "
                                               "judge yet")
                                        .arg(it.key())));
        }
        for (const QString &scenario : scenarios) {
            QVERIFY2(found.contains(scenario),
                     qPrintable(QStringLiteral("%1 did not run:\n%2")
                                        .arg(scenario, QString::fromUtf8(run.output.right(3000)))));
            if (scenario == QLatin1String("sse-retry"))
                continue;
            const QString problem = verdict(found.value(scenario));
            QVERIFY2(problem.isEmpty(), qPrintable(scenario + QStringLiteral(": ") + problem));
        }
    }

    // The 2025-03-26 servers: no protected resource metadata, the authorization server's
    // metadata at the server's origin, else its default endpoints.
    void backcompat()
    {
        judgeSuite(QStringLiteral("backcompat"),
                   {QStringLiteral("auth/2025-03-26-oauth-metadata-backcompat"),
                    QStringLiteral("auth/2025-03-26-oauth-endpoint-fallback")});
    }

    // `--suite extensions`: the auth extensions on their own, as the issue asks.
    void extensions() { judgeSuite(QStringLiteral("extensions"), Extensions); }

    // The skills extension (SEP-2640), off the spec timeline: each scenario on its own, in the
    // 2025-11-25 era and (forced) in 2026-07-28. No skill file is read on listing; a skill
    // whose SKILL.md fails its size, digest or frontmatter is refused before its other file.
    void skills_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<QStringList>("era");
        for (const char *name :
             {"no-prefetch", "verify-digest", "verify-size", "verify-frontmatter"}) {
            const QString scenario = QStringLiteral("sep-2640-client-") + QLatin1String(name);
            QTest::addRow("%s legacy", name) << scenario << QStringList();
            QTest::addRow("%s modern", name)
                    << scenario
                    << QStringList{QStringLiteral("--spec-version"), QStringLiteral("2026-07-28"),
                                   QStringLiteral("--force")};
        }
    }

    void skills()
    {
        QFETCH(QString, scenario);
        QFETCH(QStringList, era);
        QTemporaryDir out;
        const Run run
                = suite(QStringList{QStringLiteral("--scenario"), scenario} + era, out.path());
        QVERIFY2(run.code == 0, run.output.right(4000).constData());
        const QString problem = verdict(results(out.path()).value(scenario));
        QVERIFY2(problem.isEmpty(),
                 qPrintable(problem + QString::fromUtf8(run.output.right(2000))));
    }

    void sseRetryAlone()
    {
        QTemporaryDir out;
        const Run run = suite({QStringLiteral("--scenario"), QStringLiteral("sse-retry"),
                               QStringLiteral("--spec-version"), QStringLiteral("2025-11-25")},
                              out.path());
        QVERIFY2(run.code == 0, run.output.right(4000).constData());
        const QString problem = verdict(results(out.path()).value(QStringLiteral("sse-retry")));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }
};

QTEST_GUILESS_MAIN(tst_Conformance)
#include "tst_conformance.moc"
