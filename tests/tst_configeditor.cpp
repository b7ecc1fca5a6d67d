// Tests for Mcp::ConfigEditor: "always allow (saved to config)" and the disable switch edit
// .mcp.json text in place; every byte outside the insertion must stay as the user wrote it.

#include "mcp/config.h"
#include "mcp/configeditor.h"
#include "mcp/jsonparser.h"

#include <QFile>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace Mcp;

class tst_ConfigEditor : public QObject
{
    Q_OBJECT

private slots:
    void addAutoApprove_data();
    void addAutoApprove();
    void setServerDisabled_data();
    void setServerDisabled();
    void missingFile();
    void truncatedAtEveryByte();

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

QString tst_ConfigEditor::writeTemp(const QByteArray &text)
{
    const QString path = m_dir.filePath(QStringLiteral("config%1.mcp.json").arg(++m_fileCounter));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
        return QString();
    return path;
}

void tst_ConfigEditor::addAutoApprove_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QString>("server");
    QTest::addColumn<QString>("tool");
    QTest::addColumn<QByteArray>("expected"); // null: refused, file untouched
    QTest::addColumn<QString>("errorPart");
    QTest::addColumn<bool>("loaderKeepsServer"); // ConfigLoader accepts the server afterwards

    QTest::newRow("compact one line")
            << q("{'mcpServers':{'a':{'command':'x','args':['y']},'b':{'url':'http://h'}}}") << "a"
            << "t"
            << q("{'mcpServers':{'a':{'command':'x','args':['y'],'autoApprove':['t']},"
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
                                     << "t"
                                     << q("{\n"
                                          "  'mcpServers': {\n"
                                          "    'a': {\n"
                                          "      'command': 'x',\n"
                                          "      'args': ['y'],\n"
                                          "      'autoApprove': ['t']\n"
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
            << "search"
            << q("{\n"
                 "    'other': 1,\n"
                 "    'mcpServers': {\n"
                 "        'a': {\n"
                 "            'command': 'x'\n"
                 "        },\n"
                 "        'b': {\n"
                 "            'url': 'http://h',\n"
                 "            'autoApprove': ['search']\n"
                 "        }\n"
                 "    }\n"
                 "}")
            << QString() << true;

    QTest::newRow("tabs, items on separate lines") << q("{\n"
                                                        "\t'mcpServers': {\n"
                                                        "\t\t'a': {\n"
                                                        "\t\t\t'command': 'x',\n"
                                                        "\t\t\t'autoApprove': [\n"
                                                        "\t\t\t\t'one',\n"
                                                        "\t\t\t\t'two'\n"
                                                        "\t\t\t],\n"
                                                        "\t\t\t'env': {'K': 'V'}\n"
                                                        "\t\t}\n"
                                                        "\t}\n"
                                                        "}\n")
                                                   << "a"
                                                   << "three"
                                                   << q("{\n"
                                                        "\t'mcpServers': {\n"
                                                        "\t\t'a': {\n"
                                                        "\t\t\t'command': 'x',\n"
                                                        "\t\t\t'autoApprove': [\n"
                                                        "\t\t\t\t'one',\n"
                                                        "\t\t\t\t'two',\n"
                                                        "\t\t\t\t'three'\n"
                                                        "\t\t\t],\n"
                                                        "\t\t\t'env': {'K': 'V'}\n"
                                                        "\t\t}\n"
                                                        "\t}\n"
                                                        "}\n")
                                                   << QString() << true;

    QTest::newRow("tabs, new member")
            << q("{\n\t'mcpServers': {\n\t\t'a': {\n\t\t\t'command': 'x'\n\t\t}\n\t}\n}\n") << "a"
            << "t"
            << q("{\n\t'mcpServers': {\n\t\t'a': {\n\t\t\t'command': 'x',\n"
                 "\t\t\t'autoApprove': ['t']\n\t\t}\n\t}\n}\n")
            << QString() << true;

    QTest::newRow("one item on its own line")
            << q("{'mcpServers': {'a': {'command': 'x', 'autoApprove': [\n      'one'\n    ]}}}")
            << "a"
            << "t"
            << q("{'mcpServers': {'a': {'command': 'x', 'autoApprove': [\n      'one',\n"
                 "      't'\n    ]}}}")
            << QString() << true;

    QTest::newRow("existing empty array")
            << q("{'mcpServers': {'a': {'command': 'x', 'autoApprove': []}}}") << "a"
            << "t" << q("{'mcpServers': {'a': {'command': 'x', 'autoApprove': ['t']}}}")
            << QString() << true;

    QTest::newRow("existing empty array with whitespace")
            << q("{'mcpServers': {'a': {'command': 'x', 'autoApprove': [\n  ]}}}") << "a"
            << "t" << q("{'mcpServers': {'a': {'command': 'x', 'autoApprove': ['t']}}}")
            << QString() << true;

    QTest::newRow("items on one line")
            << q("{'mcpServers': {'a': {'command': 'x', 'autoApprove': ['one', 'two']}}}") << "a"
            << "t"
            << q("{'mcpServers': {'a': {'command': 'x', 'autoApprove': ['one', 'two', 't']}}}")
            << QString() << true;

    QTest::newRow("single item, spaced")
            << q("{'mcpServers': {'a': {'command': 'x', 'autoApprove': ['one']}}}") << "a"
            << "t" << q("{'mcpServers': {'a': {'command': 'x', 'autoApprove': ['one', 't']}}}")
            << QString() << true;

    QTest::newRow("single item, compact")
            << q("{'mcpServers':{'a':{'command':'x','autoApprove':['one']}}}") << "a"
            << "t" << q("{'mcpServers':{'a':{'command':'x','autoApprove':['one','t']}}}")
            << QString() << true;

    QTest::newRow("single item, padded brackets")
            << q("{'mcpServers':{'a':{'command':'x','autoApprove':[ 'one' ]}}}") << "a"
            << "t" << q("{'mcpServers':{'a':{'command':'x','autoApprove':[ 'one', 't' ]}}}")
            << QString() << true;

    QTest::newRow("server with no members, one line")
            << q("{'mcpServers': {'a': {}}}") << "a"
            << "t" << q("{'mcpServers': {'a': {'autoApprove': ['t']}}}") << QString() << false;

    QTest::newRow("server with no members, multi-line")
            << q("{\n  'mcpServers': {\n    'a': {\n    }\n  }\n}\n") << "a"
            << "t"
            << q("{\n  'mcpServers': {\n    'a': {\n      'autoApprove': ['t']\n    }\n  }\n}\n")
            << QString() << false;

    QTest::newRow("unicode")
            << q("{\n  'mcpServers': {\n    '数据': {\n      'command': 'python',\n"
                 "      'args': ['привет.py', '😀']\n    }\n  }\n}\n")
            << QString::fromUtf8("数据") << QString::fromUtf8("查询_😀")
            << q("{\n  'mcpServers': {\n    '数据': {\n      'command': 'python',\n"
                 "      'args': ['привет.py', '😀'],\n      'autoApprove': ['查询_😀']\n    }\n"
                 "  }\n}\n")
            << QString() << false; // the loader refuses a name outside [A-Za-z0-9_.-]

    QTest::newRow("escaped keys")
            << q("{'mcp\\u0053ervers': {'a\\u00e9': {'command': 'x', 'auto\\u0041pprove': []}}}")
            << QString::fromUtf8("aé") << "t"
            << q("{'mcp\\u0053ervers': {'a\\u00e9': {'command': 'x', 'auto\\u0041pprove': ['t']}}}")
            << QString() << false; // the loader refuses a name outside [A-Za-z0-9_.-]

    QTest::newRow("tool name needing escapes")
            << q("{'mcpServers': {'a': {'command': 'x'}}}") << "a"
            << "say \"hi\"\\now"
            << q("{'mcpServers': {'a': {'command': 'x', 'autoApprove': ['say \\'hi\\'\\\\now']}}}")
            << QString() << true;

    QTest::newRow("CRLF") << q(
            "{\r\n  'mcpServers': {\r\n    'a': {\r\n      'command': 'x'\r\n    }\r\n"
            "  }\r\n}\r\n")
                          << "a"
                          << "t"
                          << q("{\r\n  'mcpServers': {\r\n    'a': {\r\n      'command': 'x',\r\n"
                               "      'autoApprove': ['t']\r\n    }\r\n  }\r\n}\r\n")
                          << QString() << true;

    QTest::newRow("CRLF, empty server")
            << q("{\r\n  'mcpServers': {\r\n    'a': {\r\n    }\r\n  }\r\n}\r\n") << "a"
            << "t"
            << q("{\r\n  'mcpServers': {\r\n    'a': {\r\n      'autoApprove': ['t']\r\n"
                 "    }\r\n  }\r\n}\r\n")
            << QString() << false;

    QTest::newRow("byte order mark")
            << QByteArray("\xEF\xBB\xBF") + q("{'mcpServers': {'a': {'command': 'x'}}}") << "a"
            << "t"
            << QByteArray("\xEF\xBB\xBF")
                       + q("{'mcpServers': {'a': {'command': 'x', 'autoApprove': ['t']}}}")
            << QString() << true;

    // The editor patches the value that counts (the last); the loader refuses the file.
    QTest::newRow("duplicate keys: the last one is patched")
            << q("{'mcpServers': {'a': {'command': 'x', 'autoApprove': 5, 'autoApprove': []}}}")
            << "a"
            << "t"
            << q("{'mcpServers': {'a': {'command': 'x', 'autoApprove': 5, 'autoApprove': ['t']}}}")
            << QString() << false;

    QTest::newRow("strings with brackets and escapes before")
            << q("{'mcpServers': {'a': {'command': 'x}]\\'[{', 'args': ['\\\\', '{']}}}") << "a"
            << "t"
            << q("{'mcpServers': {'a': {'command': 'x}]\\'[{', 'args': ['\\\\', '{'], "
                 "'autoApprove': ['t']}}}")
            << QString() << true;

    const QByteArray present
            = q("{\n  'mcpServers': {'a': {'command': 'x', 'autoApprove': ['t', 'u']}}\n}");
    QTest::newRow("already present") << present << "a"
                                     << "t" << present << QString() << true;

    QTest::newRow("missing server") << q("{'mcpServers': {'a': {'command': 'x'}}}") << "b"
                                    << "t" << QByteArray() << "server 'b' is not defined" << false;
    QTest::newRow("no mcpServers") << q("{'servers': {'a': {'command': 'x'}}}") << "a"
                                   << "t" << QByteArray() << "mcpServers" << false;
    QTest::newRow("broken JSON") << q("{'mcpServers': {'a': {'command': 'x',}}}") << "a"
                                 << "t" << QByteArray() << "not valid JSON (line 1, column 38"
                                 << false;
    QTest::newRow("broken JSON on line 3")
            << q("{\n  'mcpServers': {\n    'a': {'command': 'x'\n  }\n}") << "a"
            << "t" << QByteArray() << "line 5" << false;
    QTest::newRow("NUL byte") << QByteArray("{\"mcpServers\": {\"a\": {\"command\": \"x\"}}}\0junk",
                                            45)
                              << "a"
                              << "t" << QByteArray() << "NUL" << false;
    QTest::newRow("autoApprove not an array")
            << q("{'mcpServers': {'a': {'command': 'x', 'autoApprove': 'all'}}}") << "a"
            << "t" << QByteArray() << "\"autoApprove\" of server 'a' is not a list" << false;
    QTest::newRow("server not an object") << q("{'mcpServers': {'a': 'x'}}") << "a"
                                          << "t" << QByteArray() << "not an object" << false;
}

void tst_ConfigEditor::addAutoApprove()
{
    QFETCH(QByteArray, input);
    QFETCH(QString, server);
    QFETCH(QString, tool);
    QFETCH(QByteArray, expected);
    QFETCH(QString, errorPart);
    QFETCH(bool, loaderKeepsServer);

    const QString path = writeTemp(input);
    QVERIFY(!path.isEmpty());
    QString error;
    const bool ok = ConfigEditor::addAutoApprove(path, server, tool, &error);
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
    const Json &list = parsed["mcpServers"][server.toStdString()]["autoApprove"];
    QVERIFY(list.is_array());
    QVERIFY(std::find(list.begin(), list.end(), Json(tool.toStdString())) != list.end());

    const McpConfig config = ConfigLoader::parse(result, path, QProcessEnvironment());
    if (loaderKeepsServer) {
        const ServerConfig *parsedServer = config.find(server);
        QVERIFY(parsedServer);
        QVERIFY(parsedServer->autoApprove.contains(tool));
    }

    // A second addition of the same tool changes nothing.
    QVERIFY2(ConfigEditor::addAutoApprove(path, server, tool, &error), qPrintable(error));
    QCOMPARE(readAll(path), expected);
}

void tst_ConfigEditor::setServerDisabled_data()
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

void tst_ConfigEditor::setServerDisabled()
{
    QFETCH(QByteArray, input);
    QFETCH(QString, server);
    QFETCH(bool, disabled);
    QFETCH(QByteArray, expected);

    const QString path = writeTemp(input);
    QVERIFY(!path.isEmpty());
    QString error;
    const bool ok = ConfigEditor::setServerDisabled(path, server, disabled, &error);
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

void tst_ConfigEditor::missingFile()
{
    const QString path = m_dir.filePath(QStringLiteral("absent.json"));
    QString error;
    QVERIFY(!ConfigEditor::addAutoApprove(path, QStringLiteral("a"), QStringLiteral("t"), &error));
    QVERIFY2(error.contains(path), qPrintable(error));
    QVERIFY(!QFile::exists(path));
}

// Every cut of a valid file is refused or edited into valid JSON; nothing crashes.
void tst_ConfigEditor::truncatedAtEveryByte()
{
    const QByteArray text = q("{\n  'mcpServers': {\n    'a': {\n      'command': 'x',\n"
                              "      'autoApprove': ['o\\'ne', 'two']\n    }\n  }\n}\n");
    int accepted = 0;
    for (qsizetype size = 0; size <= text.size(); ++size) {
        const QByteArray cut = text.left(size);
        QString error;
        const std::optional<QByteArray> result = ConfigEditor::withAutoApprove(
                cut, QStringLiteral("cut.json"), QStringLiteral("a"), QStringLiteral("t"), &error);
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

QTEST_GUILESS_MAIN(tst_ConfigEditor)

#include "tst_configeditor.moc"
