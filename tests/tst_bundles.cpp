#include "bundlefixture.h"
#include "pinnednode.h"

#include <mcp/bundles/bundle.h>
#include <mcp/bundles/manifest.h>

#include <quazip/quazip.h>
#include <quazip/quazipfile.h>
#include <quazip/quazipnewinfo.h>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Mcp::Bundles;

namespace {
// JSON with single quotes reads better in C++ literals (moc misreads some raw strings): every
// ' becomes ".
QByteArray q(const char *text)
{
    QByteArray result(text);
    result.replace('\'', '"');
    return result;
}

// An entry of a zip the tests write.
struct ZipEntry
{
    QString name;
    QByteArray data;
    quint32 unixMode = 0100644;
};
} // namespace

Q_DECLARE_METATYPE(QList<EntryInfo>)
Q_DECLARE_METATYPE(QList<ZipEntry>)

// MCP Bundles (.mcpb): a bundle packed (and signed) by the pinned @anthropic-ai/mcpb from
// tests/fixtures/bundle read whole; its manifest's every field checked; hostile zips built here
// (a path leading out, an absolute path, a symbolic link, a name twice, a zip bomb, an entry
// point outside) refused with the reason and nothing written; extraction into a folder of its
// own; the command with its placeholders put in.
class tst_Bundles : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_packed; // tests/fixtures/bundle packed by mcpb

    // Runs the mcpb CLI on the pinned Node in `folder`.
    static bool mcpb(const QStringList &args, const QString &folder, QString *output = nullptr)
    {
        QProcess process;
        process.setWorkingDirectory(folder);
        process.setProcessChannelMode(QProcess::MergedChannels);
        process.start(
                PinnedNode::program(),
                QStringList{QStringLiteral(SWITCHBOARD_SOURCE_DIR
                                           "/node_modules/@anthropic-ai/mcpb/dist/cli/cli.js")}
                        + args);
        const bool done = process.waitForFinished(120000);
        if (output)
            *output = QString::fromUtf8(process.readAll());
        return done && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
    }

    static QByteArray fileBytes(const QString &path)
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

    // A zip written here, each entry as given (names unchecked: that is the point).
    QString writeZip(const QString &fileName, const QList<ZipEntry> &entries)
    {
        const QString path = m_dir.filePath(fileName);
        QuaZip zip(path);
        if (!zip.open(QuaZip::mdCreate))
            return {};
        for (const ZipEntry &entry : entries) {
            QuaZipFile out(&zip);
            QuaZipNewInfo info(entry.name);
            info.externalAttr = entry.unixMode << 16;
            if (!out.open(QIODevice::WriteOnly, info))
                return {};
            out.write(entry.data);
            out.close();
        }
        zip.close();
        return path;
    }

    static QByteArray manifestText(const QString &entryPoint = QStringLiteral("server/index.js"))
    {
        return QString::fromUtf8(q("{'manifest_version': '0.3', 'name': 'z', 'version': '1.0.0',\n"
                                   "            'description': 'd', 'author': {'name': 'a'},\n"
                                   "            'server': {'type': 'node', 'entry_point': '%1',\n"
                                   "                       'mcp_config': {'command': 'node', "
                                   "'args': ['${__dirname}/%1']}}}"))
                .arg(entryPoint)
                .toUtf8();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        // Packed as a bundle's author would: mcpb pack on the fixture folder.
        QString output;
        m_packed = packFixtureBundle(m_dir.path(), &output);
        QVERIFY2(!m_packed.isEmpty(), qPrintable(output));
    }

    // The packed bundle read whole: its manifest, entries, no signature.
    void readsAPackedBundle()
    {
        const OpenResult opened = openBundle(m_packed);
        QVERIFY2(opened.bundle, qPrintable(opened.problem));
        const Manifest &m = opened.bundle->manifest;
        QCOMPARE(m.name, QStringLiteral("key-echo"));
        QCOMPARE(m.title(), QStringLiteral("Key Echo"));
        QCOMPARE(m.version, QStringLiteral("1.0.0"));
        QCOMPARE(m.authorName, QStringLiteral("Switchboard tests"));
        QCOMPARE(m.serverType, QStringLiteral("node"));
        QCOMPARE(m.entryPoint, QStringLiteral("server/index.js"));
        QCOMPARE(m.tools.size(), 3);
        QCOMPARE(m.prompts.size(), 1);
        QCOMPARE(m.userConfig.size(), 3);
        const auto apiKey
                = std::find_if(m.userConfig.cbegin(), m.userConfig.cend(),
                               [](const UserConfigOption &o) { return o.key == "api_key"; });
        QVERIFY(apiKey != m.userConfig.cend() && apiKey->sensitive && apiKey->required);
        QCOMPARE(opened.bundle->signature.status, Signature::Status::Unsigned);
        QCOMPARE(opened.bundle->entries.size(), 2);
        QCOMPARE(opened.bundle->sha256.size(), 64);
    }

    // `mcpb sign --self-signed`: the signature checked and its signer shown; a byte changed
    // after signing refuses the bundle.
    void signatures()
    {
        const QString signedCopy = m_dir.filePath(QStringLiteral("signed.mcpb"));
        QVERIFY(QFile::copy(m_packed, signedCopy));
        QString output;
        QVERIFY2(mcpb({QStringLiteral("sign"), signedCopy, QStringLiteral("--self-signed")},
                      m_dir.path(), &output),
                 qPrintable(output));
        const OpenResult opened = openBundle(signedCopy);
        QVERIFY2(opened.bundle, qPrintable(opened.problem));
        const Signature &signature = opened.bundle->signature;
        QCOMPARE(signature.status, Signature::Status::SelfSigned);
        QVERIFY2(!signature.signer.isEmpty(), "the signer is named");
        QCOMPARE(signature.fingerprint.size(), 64);

        QByteArray tampered = fileBytes(signedCopy);
        // A byte of the first entry's packed data (past its local header), inside what was signed.
        const qsizetype at = 60;
        QVERIFY(tampered.size() > 200);
        tampered[at] = char(tampered.at(at) ^ 0x01);
        const OpenResult refused = readBundle(tampered);
        QVERIFY(!refused.bundle);
        QVERIFY2(refused.problem.contains(QLatin1String("changed after it was signed")),
                 qPrintable(refused.problem));
        // A block with a wrong length, and one that is not PKCS#7.
        QByteArray cut = fileBytes(signedCopy);
        cut.remove(cut.size() - 20, 4);
        QVERIFY(!readBundle(cut).bundle);
        const QByteArray notPkcs7 = fileBytes(m_packed)
                                    + QByteArray("MCPB_SIG_V1\x03\x00\x00\x00"
                                                 "abcMCPB_SIG_END",
                                                 30);
        const OpenResult garbage = readBundle(notPkcs7);
        QVERIFY2(!garbage.bundle && garbage.problem.contains(QLatin1String("not a PKCS#7")),
                 qPrintable(garbage.problem));
    }

    void hostileEntries_data()
    {
        QTest::addColumn<QList<EntryInfo>>("entries");
        QTest::addColumn<QString>("says");
        const auto file = [](const QString &name, qint64 size = 10, qint64 packed = 10) {
            EntryInfo e;
            e.name = name;
            e.versionMadeBy = 3 << 8;
            e.externalAttributes = 0100644u << 16;
            e.size = size;
            e.compressedSize = packed;
            return e;
        };
        EntryInfo link = file(QStringLiteral("server/link"));
        link.externalAttributes = 0120777u << 16;
        EntryInfo device = file(QStringLiteral("dev"));
        device.externalAttributes = 0020644u << 16;
        QTest::newRow("..") << QList<EntryInfo>{file("../evil")} << "leads out of the bundle";
        QTest::newRow(".. inside") << QList<EntryInfo>{file("a/../../evil")} << "leads out";
        QTest::newRow("absolute") << QList<EntryInfo>{file("/etc/passwd")} << "absolute path";
        QTest::newRow("drive") << QList<EntryInfo>{file("C:/x")} << "absolute path";
        QTest::newRow("backslash") << QList<EntryInfo>{file("a\\..\\b")} << "backslash";
        QTest::newRow("control") << QList<EntryInfo>{file("a\x1b[2Jb")} << "control character";
        QTest::newRow("empty part") << QList<EntryInfo>{file("a//b")} << "empty or '.' part";
        QTest::newRow("symlink") << QList<EntryInfo>{link} << "symbolic link";
        QTest::newRow("device") << QList<EntryInfo>{device} << "not a file or a folder";
        QTest::newRow("twice") << QList<EntryInfo>{file("a.js"), file("a.js")} << "twice";
        QTest::newRow("twice by case") << QList<EntryInfo>{file("A.js"), file("a.js")} << "twice";
        QTest::newRow("one too big")
                << QList<EntryInfo>{file("big", MaxEntryBytes + 1, MaxEntryBytes)} << "MiB";
        QList<EntryInfo> many;
        for (int i = 0; i < 5; ++i)
            many << file(QStringLiteral("f%1").arg(i), MaxEntryBytes, MaxEntryBytes);
        QTest::newRow("all too big") << many << "unpacks to more than 512 MiB";
        QTest::newRow("bomb") << QList<EntryInfo>{file("b", 100 * 1024 * 1024, 100 * 1024)}
                              << "zip bomb";
        QList<EntryInfo> crowd;
        for (int i = 0; i <= MaxEntries; ++i)
            crowd << file(QStringLiteral("f%1").arg(i));
        QTest::newRow("too many files") << crowd << "more than 20000 files";
    }
    void hostileEntries()
    {
        QFETCH(QList<EntryInfo>, entries);
        QFETCH(QString, says);
        const QString problem = entriesProblem(entries);
        QVERIFY2(problem.contains(says), qPrintable(problem));
    }

    // Whole hostile bundles: refused with the reason, nothing extracted.
    void hostileBundles_data()
    {
        QTest::addColumn<QList<ZipEntry>>("entries");
        QTest::addColumn<QString>("says");
        const ZipEntry manifest{QStringLiteral("manifest.json"), manifestText()};
        const ZipEntry server{QStringLiteral("server/index.js"), "1"};
        QTest::newRow("a path out") << QList<ZipEntry>{manifest, server, {"../evil.js", "x"}}
                                    << "leads out of the bundle";
        QTest::newRow("absolute") << QList<ZipEntry>{manifest, server, {"/tmp/evil", "x"}}
                                  << "absolute path";
        QTest::newRow("a link") << QList<ZipEntry>{manifest, server, {"l", "/etc/passwd", 0120777}}
                                << "symbolic link";
        QTest::newRow("twice") << QList<ZipEntry>{manifest, server, server} << "twice";
        QTest::newRow("no manifest") << QList<ZipEntry>{server} << "no manifest.json";
        QTest::newRow("entry point missing") << QList<ZipEntry>{manifest} << "not a file in it";
        QTest::newRow("entry point outside")
                << QList<ZipEntry>{{QStringLiteral("manifest.json"), manifestText("../x.js")},
                                   server}
                << "leads out";
        QTest::newRow("manifest not JSON")
                << QList<ZipEntry>{{QStringLiteral("manifest.json"), "{\"name\": "}, server}
                << "not JSON";
        QTest::newRow("a bomb") << QList<ZipEntry>{manifest,
                                                   server,
                                                   {"zeros", QByteArray(100 * 1024 * 1024, '\0')}}
                                << "zip bomb";
    }
    void hostileBundles()
    {
        QFETCH(QList<ZipEntry>, entries);
        QFETCH(QString, says);
        const QString path = writeZip(QStringLiteral("hostile.mcpb"), entries);
        QVERIFY(!path.isEmpty());
        const OpenResult opened = openBundle(path);
        QVERIFY(!opened.bundle);
        QVERIFY2(opened.problem.contains(says), qPrintable(opened.problem));
        QVERIFY(opened.problem.startsWith(QLatin1String("The bundle is refused")));
        QFile::remove(path);
    }

    void notAZip()
    {
        QVERIFY(readBundle("PK\x03\x04 not really").problem.contains(QLatin1String("not a zip")));
        QVERIFY(!readBundle(QByteArray()).bundle);
        QVERIFY(openBundle(m_dir.path()).problem.contains(QLatin1String("is not a file")));
    }

    void manifests_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("says");
        const auto with = [](const QByteArray &member) {
            return q("{'manifest_version': '0.3', 'name': 'z', 'version': '1',\n"
                     "                'description': 'd', 'author': {'name': 'a'},\n"
                     "                'server': {'type': 'node', 'entry_point': 'i.js',\n"
                     "                           'mcp_config': {'command': 'node'}}")
                   + member + "}";
        };
        QTest::newRow("fine") << with("") << QString();
        QTest::newRow("an old version")
                << QByteArray(with("").replace("0.3", "0.1")) << "is not a version this reads";
        QTest::newRow("dxt_version")
                << QByteArray(with("").replace("manifest_version", "dxt_version")) << QString();
        QTest::newRow("a name with a slash") << QByteArray(with("").replace("\"z\"", "\"a/b\""))
                                             << "is not a name a bundle's folder can have";
        QTest::newRow("a name ..")
                << QByteArray(with("").replace("\"z\"", "\"..\"")) << "is not a name";
        QTest::newRow("server type") << QByteArray(with("").replace("\"node\"", "\"ruby\""))
                                     << "is not one of node, python, binary, uv";
        QTest::newRow("uv") << QByteArray(with("").replace("\"node\"", "\"uv\"")) << QString();
        QTest::newRow("no author") << QByteArray(with("").replace("\"author\"", "\"writer\""))
                                   << "'author' is required";
        QTest::newRow("args not strings") << QByteArray(
                with("").replace("\"command\": \"node\"", "\"command\": \"node\", \"args\": [1]"))
                                          << "must be a string";
        QTest::newRow("an option's type") << with(
                q(", 'user_config': {'k': {'type': 'color', 'title': 't', 'description': 'd'}}"))
                                          << "is not one of string, number";
        QTest::newRow("a control character")
                << with(q(", 'display_name': 'a\\u001b[2Jb'")) << "control character";
        QTest::newRow("a platform") << with(q(", 'compatibility': {'platforms': ['beos']}"))
                                    << "is not one of darwin, win32, linux";
        QTest::newRow("homepage javascript:")
                << with(q(", 'homepage': 'javascript:alert(1)'")) << "is not an http(s) address";
        QByteArray deep = with(q(", '_meta': "));
        deep.chop(1);
        deep += QByteArray(40, '[') + QByteArray(40, ']') + "}";
        QTest::newRow("deep") << deep << "nests deeper";
        QTest::newRow("not an object") << QByteArray("[]") << "not a JSON object";
    }
    void manifests()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, says);
        const ManifestResult result = readManifest(Json::parse(json.toStdString(), nullptr, false));
        if (says.isEmpty()) {
            QVERIFY2(result.manifest, qPrintable(result.problem));
            return;
        }
        QVERIFY(!result.manifest);
        QVERIFY2(result.problem.contains(says), qPrintable(result.problem));
    }

    // A platform it leaves out: refused here with why.
    void compatibility()
    {
        Manifest m;
        m.name = QStringLiteral("mac-only");
        m.platforms = {QStringLiteral("darwin")};
        QVERIFY(compatibilityProblem(m, QStringLiteral("linux"))
                        .contains(QLatin1String("darwin only")));
        QCOMPARE(compatibilityProblem(m, QStringLiteral("darwin")), QString());
    }

    // Into a folder of its own: the files as packed; never over one that exists.
    void extracts()
    {
        const OpenResult opened = openBundle(m_packed);
        QVERIFY2(opened.bundle, qPrintable(opened.problem));
        const QString dir = m_dir.filePath(QStringLiteral("extensions/key-echo"));
        QString problem;
        QVERIFY2(extract(*opened.bundle, dir, &problem), qPrintable(problem));
        QCOMPARE(fileBytes(dir + QStringLiteral("/server/index.js")),
                 fileBytes(QStringLiteral(SWITCHBOARD_SOURCE_DIR
                                          "/tests/fixtures/bundle/server/index.js")));
        QVERIFY(!QFileInfo::exists(dir + QStringLiteral(".partial")));
        QVERIFY(!extract(*opened.bundle, dir, &problem));
        QVERIFY2(problem.contains(QLatin1String("exists already")), qPrintable(problem));
    }

    // ${__dirname}, ${HOME}, ${user_config.KEY} (a default, a number checked against min/max, a
    // sensitive one as a reference); a required answer missing.
    void resolvesTheCommand()
    {
        const OpenResult opened = openBundle(m_packed);
        QVERIFY(opened.bundle);
        const Manifest &m = opened.bundle->manifest;
        QString problem;
        const auto reference = [](const QString &key) {
            return QStringLiteral("${secret:key-echo.%1}").arg(key);
        };
        std::optional<Command> command = resolveCommand(
                m, QStringLiteral("/x/key-echo"),
                {{QStringLiteral("api_key"), QStringLiteral("k-123")}}, reference, &problem);
        QVERIFY2(command, qPrintable(problem));
        QCOMPARE(command->command, QStringLiteral("node"));
        QCOMPARE(command->args,
                 QStringList({"/x/key-echo/server/index.js", "--folder", QDir::homePath()}));
        QVERIFY(command->env.contains(qMakePair(QStringLiteral("KEY_ECHO_API_KEY"),
                                                QStringLiteral("${secret:key-echo.api_key}"))));
        QVERIFY(command->env.contains(
                qMakePair(QStringLiteral("KEY_ECHO_LIMIT"), QStringLiteral("10"))));
        // Without a reference function the value itself (what a process gets).
        command = resolveCommand(m, QStringLiteral("/x"),
                                 {{QStringLiteral("api_key"), QStringLiteral("k-123")},
                                  {QStringLiteral("folder"), QStringLiteral("/data ${HOME}")}},
                                 {}, &problem);
        QVERIFY(command);
        QVERIFY(command->env.contains(
                qMakePair(QStringLiteral("KEY_ECHO_API_KEY"), QStringLiteral("k-123"))));
        QCOMPARE(command->args.last(),
                 QStringLiteral("/data ${HOME}")); // an answer is not expanded
        QVERIFY(!resolveCommand(m, QStringLiteral("/x"), {}, {}, &problem));
        QCOMPARE(problem, QStringLiteral("API key is required"));
        QVERIFY(!resolveCommand(m, QStringLiteral("/x"),
                                {{QStringLiteral("api_key"), QStringLiteral("k")},
                                 {QStringLiteral("limit"), QStringLiteral("1000")}},
                                {}, &problem));
        QCOMPARE(problem, QStringLiteral("Limit must be between 1 and 100"));
    }
};

QTEST_GUILESS_MAIN(tst_Bundles)
#include "tst_bundles.moc"
