// Tests for Mcp::ConfigPatcher: the disable switch edits .mcp.json text in place; every byte
// outside the edit must stay as the user wrote it.

#include <mcp/config/config.h>
#include <mcp/config/configpatcher.h>
#include <mcp/wire/jsonparser.h>

#include <QFile>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace Mcp;

class tst_ConfigPatcher : public QObject
{
    Q_OBJECT

private slots:
    void disable_data();
    void disable();
    void setServerDisabled_data();
    void setServerDisabled();
    void missingFile();
    void truncatedAtEveryByte();
    void addAndRemove_data();
    void addAndRemove();
    void addToFiles();
    void replace();

private:
    QString writeTemp(const QByteArray &text);
    QTemporaryDir m_dir;
    int m_fileCounter = 0;
};

namespace {

// JSON with single quotes reads better in C++ literals (moc rejects some raw strings): every
// ' becomes ".
QByteArray q(const char *text)
{
    QByteArray result(text);
    result.replace('\'', '"');
    return result;
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QByteArray();
    return file.readAll();
}

} // namespace

QString tst_ConfigPatcher::writeTemp(const QByteArray &text)
{
    const QString path = m_dir.filePath(QStringLiteral("config%1.mcp.json").arg(++m_fileCounter));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
        return QString();
    return path;
}

void tst_ConfigPatcher::disable_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QString>("server");
    QTest::addColumn<QByteArray>("expected"); // null: refused, file untouched
    QTest::addColumn<QString>("errorPart");
    QTest::addColumn<bool>("loaderKeepsServer"); // ConfigLoader accepts the server afterwards

    QTest::newRow("compact one line")
            << q("{'mcpServers':{'a':{'command':'x','args':['y']},'b':{'url':'http://h'}}}") << "a"

            << q("{'mcpServers':{'a':{'command':'x','args':['y'],'disabled':true},"
                 "'b':{'url':'http://h'}}}")
            << QString() << true;

    QTest::newRow("pretty 2 spaces") << q("{\n"
                                          "  'mcpServers': {\n"
                                          "    'a': {\n"
                                          "      'command': 'x',\n"
                                          "      'args': ['y']\n"
                                          "    },\n"
                                          "    'b': {\n"
                                          "      'url': 'http://h'\n"
                                          "    }\n"
                                          "  }\n"
                                          "}\n")
                                     << "a"

                                     << q("{\n"
                                          "  'mcpServers': {\n"
                                          "    'a': {\n"
                                          "      'command': 'x',\n"
                                          "      'args': ['y'],\n"
                                          "      'disabled': true\n"
                                          "    },\n"
                                          "    'b': {\n"
                                          "      'url': 'http://h'\n"
                                          "    }\n"
                                          "  }\n"
                                          "}\n")
                                     << QString() << true;

    QTest::newRow("pretty 4 spaces, one member, last server")
            << q("{\n"
                 "    'other': 1,\n"
                 "    'mcpServers': {\n"
                 "        'a': {\n"
                 "            'command': 'x'\n"
                 "        },\n"
                 "        'b': {\n"
                 "            'url': 'http://h'\n"
                 "        }\n"
                 "    }\n"
                 "}")
            << "b"

            << q("{\n"
                 "    'other': 1,\n"
                 "    'mcpServers': {\n"
                 "        'a': {\n"
                 "            'command': 'x'\n"
                 "        },\n"
                 "        'b': {\n"
                 "            'url': 'http://h',\n"
                 "            'disabled': true\n"
                 "        }\n"
                 "    }\n"
                 "}")
            << QString() << true;

    QTest::newRow("tabs, new member")
            << q("{\n\t'mcpServers': {\n\t\t'a': {\n\t\t\t'command': 'x'\n\t\t}\n\t}\n}\n") << "a"

            << q("{\n\t'mcpServers': {\n\t\t'a': {\n\t\t\t'command': 'x',\n"
                 "\t\t\t'disabled': true\n\t\t}\n\t}\n}\n")
            << QString() << true;

    QTest::newRow("server with no members, one line")
            << q("{'mcpServers': {'a': {}}}") << "a"
            << q("{'mcpServers': {'a': {'disabled': true}}}") << QString() << false;

    QTest::newRow("server with no members, multi-line")
            << q("{\n  'mcpServers': {\n    'a': {\n    }\n  }\n}\n") << "a"

            << q("{\n  'mcpServers': {\n    'a': {\n      'disabled': true\n    }\n  }\n}\n")
            << QString() << false;

    QTest::newRow("unicode")
            << q("{\n  'mcpServers': {\n    '数据': {\n      'command': 'python',\n"
                 "      'args': ['привет.py', '😀']\n    }\n  }\n}\n")
            << QString::fromUtf8("数据")
            << q("{\n  'mcpServers': {\n    '数据': {\n      'command': 'python',\n"
                 "      'args': ['привет.py', '😀'],\n      'disabled': true\n    }\n"
                 "  }\n}\n")
            << QString() << false; // the loader refuses a name outside [A-Za-z0-9_.-]

    QTest::newRow("escaped keys")
            << q("{'mcp\\u0053ervers': {'a\\u00e9': {'command': 'x', 'dis\\u0061bled': false}}}")
            << QString::fromUtf8("aé")
            << q("{'mcp\\u0053ervers': {'a\\u00e9': {'command': 'x', 'dis\\u0061bled': true}}}")
            << QString() << false; // the loader refuses a name outside [A-Za-z0-9_.-]

    QTest::newRow("CRLF") << q(
            "{\r\n  'mcpServers': {\r\n    'a': {\r\n      'command': 'x'\r\n    }\r\n"
            "  }\r\n}\r\n")
                          << "a"

                          << q("{\r\n  'mcpServers': {\r\n    'a': {\r\n      'command': 'x',\r\n"
                               "      'disabled': true\r\n    }\r\n  }\r\n}\r\n")
                          << QString() << true;

    QTest::newRow("CRLF, empty server")
            << q("{\r\n  'mcpServers': {\r\n    'a': {\r\n    }\r\n  }\r\n}\r\n") << "a"

            << q("{\r\n  'mcpServers': {\r\n    'a': {\r\n      'disabled': true\r\n"
                 "    }\r\n  }\r\n}\r\n")
            << QString() << false;

    QTest::newRow("byte order mark")
            << QByteArray("\xEF\xBB\xBF") + q("{'mcpServers': {'a': {'command': 'x'}}}") << "a"

            << QByteArray("\xEF\xBB\xBF")
                       + q("{'mcpServers': {'a': {'command': 'x', 'disabled': true}}}")
            << QString() << true;

    // The editor patches the value that counts (the last); the loader refuses the file.
    QTest::newRow("duplicate keys: the last one is patched")
            << q("{'mcpServers': {'a': {'command': 'x', 'disabled': 5, 'disabled': false}}}") << "a"
            << q("{'mcpServers': {'a': {'command': 'x', 'disabled': 5, 'disabled': true}}}")
            << QString() << false;

    QTest::newRow("strings with brackets and escapes before")
            << q("{'mcpServers': {'a': {'command': 'x}]\\'[{', 'args': ['\\\\', '{']}}}") << "a"

            << q("{'mcpServers': {'a': {'command': 'x}]\\'[{', 'args': ['\\\\', '{'], "
                 "'disabled': true}}}")
            << QString() << true;

    QTest::newRow("missing server") << q("{'mcpServers': {'a': {'command': 'x'}}}") << "b"
                                    << QByteArray() << "server 'b' is not defined" << false;
    QTest::newRow("no mcpServers") << q("{'servers': {'a': {'command': 'x'}}}") << "a"
                                   << QByteArray() << "mcpServers" << false;
    QTest::newRow("broken JSON") << q("{'mcpServers': {'a': {'command': 'x',}}}") << "a"
                                 << QByteArray() << "not valid JSON (line 1, column 38" << false;
    QTest::newRow("broken JSON on line 3")
            << q("{\n  'mcpServers': {\n    'a': {'command': 'x'\n  }\n}") << "a" << QByteArray()
            << "line 5" << false;
    QTest::newRow("NUL byte") << QByteArray("{\"mcpServers\": {\"a\": {\"command\": \"x\"}}}\0junk",
                                            45)
                              << "a" << QByteArray() << "NUL" << false;
    QTest::newRow("server not an object")
            << q("{'mcpServers': {'a': 'x'}}") << "a" << QByteArray() << "not an object" << false;
}

// Disabling a server that has no "disabled" member inserts one, laid out like its neighbours.
void tst_ConfigPatcher::disable()
{
    QFETCH(QByteArray, input);
    QFETCH(QString, server);
    QFETCH(QByteArray, expected);
    QFETCH(QString, errorPart);
    QFETCH(bool, loaderKeepsServer);

    const QString path = writeTemp(input);
    QVERIFY(!path.isEmpty());
    QString error;
    const bool ok = ConfigPatcher::setServerDisabled(path, server, true, &error);
    const QByteArray result = readAll(path);

    if (expected.isNull()) {
        QVERIFY(!ok);
        QVERIFY2(error.contains(errorPart), qPrintable(error));
        QVERIFY2(error.contains(path), qPrintable(error)); // names the file
        QCOMPARE(result, input);
        return;
    }
    QVERIFY2(ok, qPrintable(error));
    QVERIFY(error.isEmpty());
    QCOMPARE(result, expected);

    const Json parsed = parseJson(std::string_view(result.constData(), size_t(result.size())));
    QVERIFY(!parsed.is_discarded());
    QVERIFY(parsed["mcpServers"][server.toStdString()]["disabled"] == Json(true));

    const McpConfig config = ConfigLoader::parse(result, path, QProcessEnvironment());
    if (loaderKeepsServer) {
        const ServerConfig *parsedServer = config.find(server);
        QVERIFY(parsedServer);
        QVERIFY(parsedServer->disabled);
    }

    // Disabling it again changes nothing.
    QVERIFY2(ConfigPatcher::setServerDisabled(path, server, true, &error), qPrintable(error));
    QCOMPARE(readAll(path), expected);
}

void tst_ConfigPatcher::setServerDisabled_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QString>("server");
    QTest::addColumn<bool>("disabled");
    QTest::addColumn<QByteArray>("expected"); // null: refused

    QTest::newRow("insert, pretty")
            << q("{\n  'mcpServers': {\n    'a': {\n      'command': 'x'\n    }\n  }\n}\n") << "a"
            << true
            << q("{\n  'mcpServers': {\n    'a': {\n      'command': 'x',\n"
                 "      'disabled': true\n    }\n  }\n}\n");
    QTest::newRow("insert, compact")
            << q("{'mcpServers':{'a':{'command':'x'},'b':{'command':'y'}}}") << "a" << true
            << q("{'mcpServers':{'a':{'command':'x','disabled':true},'b':{'command':'y'}}}");
    QTest::newRow("replace true by false")
            << q("{'mcpServers': {'a': {'command': 'x', 'disabled': true, 'args': []}}}") << "a"
            << false << q("{'mcpServers': {'a': {'command': 'x', 'disabled': false, 'args': []}}}");
    QTest::newRow("replace false by true")
            << q("{'mcpServers': {'a': {'disabled':false,'command': 'x'}}}") << "a" << true
            << q("{'mcpServers': {'a': {'disabled':true,'command': 'x'}}}");
    QTest::newRow("replace a wrong type")
            << q("{'mcpServers': {'a': {'command': 'x', 'disabled': 'yes'}}}") << "a" << true
            << q("{'mcpServers': {'a': {'command': 'x', 'disabled': true}}}");
    const QByteArray enabled = q("{'mcpServers': {'a': {'command': 'x'}}}");
    QTest::newRow("enable: absent means enabled") << enabled << "a" << false << enabled;
    const QByteArray disabledAlready
            = q("{'mcpServers': {'a': {'command': 'x', 'disabled': true}}}");
    QTest::newRow("already disabled") << disabledAlready << "a" << true << disabledAlready;
    QTest::newRow("missing server") << enabled << "zz" << true << QByteArray();
    QTest::newRow("broken JSON") << q("{'mcpServers': {'a': ") << "a" << true << QByteArray();
}

void tst_ConfigPatcher::setServerDisabled()
{
    QFETCH(QByteArray, input);
    QFETCH(QString, server);
    QFETCH(bool, disabled);
    QFETCH(QByteArray, expected);

    const QString path = writeTemp(input);
    QVERIFY(!path.isEmpty());
    QString error;
    const bool ok = ConfigPatcher::setServerDisabled(path, server, disabled, &error);
    if (expected.isNull()) {
        QVERIFY(!ok);
        QVERIFY(!error.isEmpty());
        QCOMPARE(readAll(path), input);
        return;
    }
    QVERIFY2(ok, qPrintable(error));
    const QByteArray result = readAll(path);
    QCOMPARE(result, expected);
    const McpConfig config = ConfigLoader::parse(result, path, QProcessEnvironment());
    QVERIFY(config.errors.isEmpty());
    QVERIFY(config.find(server));
    QCOMPARE(config.find(server)->disabled, disabled);
}

void tst_ConfigPatcher::missingFile()
{
    const QString path = m_dir.filePath(QStringLiteral("absent.json"));
    QString error;
    QVERIFY(!ConfigPatcher::setServerDisabled(path, QStringLiteral("a"), true, &error));
    QVERIFY2(error.contains(path), qPrintable(error));
    QVERIFY(!QFile::exists(path));
}

// Every cut of a valid file is refused or edited into valid JSON; nothing crashes.
void tst_ConfigPatcher::truncatedAtEveryByte()
{
    const QByteArray text = q("{\n  'mcpServers': {\n    'a': {\n      'command': 'x',\n"
                              "      'args': ['o\\'ne', 'two']\n    }\n  }\n}\n");
    int accepted = 0;
    for (qsizetype size = 0; size <= text.size(); ++size) {
        const QByteArray cut = text.left(size);
        QString error;
        const std::optional<QByteArray> result = ConfigPatcher::withServerDisabled(
                cut, QStringLiteral("cut.json"), QStringLiteral("a"), true, &error);
        if (!result) {
            QVERIFY(!error.isEmpty());
            continue;
        }
        ++accepted;
        QVERIFY(!parseJson(std::string_view(result->constData(), size_t(result->size())))
                         .is_discarded());
    }
    QCOMPARE(accepted, 2); // the whole text, and the text without its final newline
}

QTEST_GUILESS_MAIN(tst_ConfigPatcher)

#include "tst_configpatcher.moc"

void tst_ConfigPatcher::addAndRemove_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QByteArray>("added");
    QTest::addColumn<QByteArray>("removed"); // after removing "new" again: the input

    QTest::newRow("empty file") << QByteArray()
                                << q("{\n  'mcpServers': {\n    'new': {\n      'command': "
                                     "'npx',\n      'args': [\n        '-y'\n      ]\n    }\n  "
                                     "}\n}\n")
                                << q("{\n  'mcpServers': {}\n}\n");
    QTest::newRow("pretty, after the last server")
            << q("{\n  'mcpServers': {\n    'a': {\n      'command': 'x'\n    }\n  }\n}\n")
            << q("{\n  'mcpServers': {\n    'a': {\n      'command': 'x'\n    },\n    'new': "
                 "{\n      'command': 'npx',\n      'args': [\n        '-y'\n      ]\n    }\n  "
                 "}\n}\n")
            << QByteArray();
    QTest::newRow("four spaces and CRLF")
            << q("{\r\n    'mcpServers': {\r\n        'a': {'command': 'x'},\r\n        'b': "
                 "{'command': 'y'}\r\n    }\r\n}")
            << q("{\r\n    'mcpServers': {\r\n        'a': {'command': 'x'},\r\n        'b': "
                 "{'command': 'y'},\r\n        'new': {\r\n          'command': 'npx',\r\n  "
                 "        'args': [\r\n            '-y'\r\n          ]\r\n        }\r\n    "
                 "}\r\n}")
            << QByteArray();
    QTest::newRow("no mcpServers yet, other keys kept")
            << q("{\n  'secretVariables': ['X']\n}\n")
            << q("{\n  'secretVariables': ['X'],\n  'mcpServers': {\n    'new': {\n      "
                 "'command': 'npx',\n      'args': [\n        '-y'\n      ]\n    }\n  }\n}\n")
            << q("{\n  'secretVariables': ['X'],\n  'mcpServers': {}\n}\n");
    QTest::newRow("an empty mcpServers")
            << q("{'mcpServers': {}}")
            << q("{'mcpServers': {\n  'new': {\n    'command': 'npx',\n    'args': [\n      "
                 "'-y'\n    ]\n  }\n}}")
            << q("{'mcpServers': {}}");
}

// A server added as the file's neighbours are written, and removed again leaving the rest as
// it was.
void tst_ConfigPatcher::addAndRemove()
{
    QFETCH(QByteArray, input);
    QFETCH(QByteArray, added);
    QFETCH(QByteArray, removed);
    const nlohmann::ordered_json definition
            = nlohmann::ordered_json::parse(R"({"command": "npx", "args": ["-y"]})");
    QString error;
    const std::optional<QByteArray> withNew = ConfigPatcher::withServerAdded(
            input, QStringLiteral("f.json"), QStringLiteral("new"), definition, &error);
    QVERIFY2(withNew, qPrintable(error));
    QCOMPARE(*withNew, added);
    const McpConfig config = ConfigLoader::parse(*withNew, QStringLiteral("f.json"), {});
    QVERIFY(config.errors.isEmpty());
    QVERIFY(config.find(QStringLiteral("new")));

    // Twice: refused, naming the server.
    QVERIFY(!ConfigPatcher::withServerAdded(*withNew, QStringLiteral("f.json"),
                                            QStringLiteral("new"), definition, &error));
    QVERIFY2(error.contains(QStringLiteral("already defines a server named 'new'")),
             qPrintable(error));

    const std::optional<QByteArray> without = ConfigPatcher::withServerRemoved(
            *withNew, QStringLiteral("f.json"), QStringLiteral("new"), &error);
    QVERIFY2(without, qPrintable(error));
    QCOMPARE(*without, removed.isNull() ? input : removed);
    QVERIFY(!ConfigPatcher::withServerRemoved(*without, QStringLiteral("f.json"),
                                              QStringLiteral("new"), &error));
    QVERIFY2(error.contains(QStringLiteral("server 'new' is not defined")), qPrintable(error));
}

// An update replaces a server's value where it stands: its neighbours, the comments-free layout
// around it and the line endings stay; a server that is not there is refused.
void tst_ConfigPatcher::replace()
{
    const QByteArray input = q("{\r\n    'mcpServers': {\r\n        'a': {'command': 'old'},\r\n"
                               "        'b': {'url': 'http://h'}\r\n    }\r\n}\r\n");
    const nlohmann::ordered_json definition
            = nlohmann::ordered_json::parse(R"({"command": "new", "args": ["-y"]})");
    QString error;
    const std::optional<QByteArray> replaced = ConfigPatcher::withServerReplaced(
            input, QStringLiteral("f.json"), QStringLiteral("a"), definition, &error);
    QVERIFY2(replaced, qPrintable(error));
    QCOMPARE(*replaced,
             q("{\r\n    'mcpServers': {\r\n        'a': {\r\n          'command': 'new',\r\n"
               "          'args': [\r\n            '-y'\r\n          ]\r\n        },\r\n"
               "        'b': {'url': 'http://h'}\r\n    }\r\n}\r\n"));
    QVERIFY(!ConfigPatcher::withServerReplaced(input, QStringLiteral("f.json"), QStringLiteral("c"),
                                               definition, &error));
    QVERIFY2(error.contains(QStringLiteral("server 'c' is not defined")), qPrintable(error));

    const QString path = writeTemp(input);
    QVERIFY(ConfigPatcher::replaceServer(path, QStringLiteral("a"), definition, &error));
    QCOMPARE(readAll(path), *replaced);
}

// addServer() creates a missing file and its folder; a file that is not JSON (or not a config)
// is refused and left as it is.
void tst_ConfigPatcher::addToFiles()
{
    const QString fresh = m_dir.filePath(QStringLiteral("sub/folder/mcp.json"));
    QString error;
    QVERIFY2(ConfigPatcher::addServer(fresh, QStringLiteral("m"),
                                      nlohmann::ordered_json{{"command", "npx"}}, &error),
             qPrintable(error));
    QVERIFY(ConfigLoader::loadFile(fresh, {}).find(QStringLiteral("m")));
    QVERIFY2(ConfigPatcher::removeServer(fresh, QStringLiteral("m"), &error), qPrintable(error));
    QVERIFY(ConfigLoader::loadFile(fresh, {}).servers.isEmpty());

    for (const QByteArray &bad : {QByteArray("{\"mcpServers\": "), QByteArray("[1, 2]"),
                                  QByteArray("{\"mcpServers\": [1]}")}) {
        const QString path = writeTemp(bad);
        QVERIFY(!ConfigPatcher::addServer(path, QStringLiteral("m"),
                                          nlohmann::ordered_json{{"command", "npx"}}, &error));
        QVERIFY2(error.contains(path), qPrintable(error));
        QCOMPARE(readAll(path), bad);
    }
}
