#include "jsontest.h"

#include <mcp/config/redaction.h>
#include <mcp/wire/jsonparser.h>

#include <QProcessEnvironment>
#include <QTest>

using namespace Mcp;

// The protocol log's redaction: which member names are secrets (and which merely look like
// it), values hidden by key at any depth, known configured values wherever they appear,
// cut-off and non-JSON text, and which configured values count as secrets.
class tst_Redaction : public QObject
{
    Q_OBJECT

    static QByteArray marker() { return QByteArray(Redactor::Marker.data()); }
    static QByteArray quoted() { return '"' + marker() + '"'; }
    // JSON written with single quotes (keeps the test data readable), turned into real ones.
    static QByteArray q(QByteArray text) { return text.replace('\'', '"'); }

private slots:
    void secretKeys_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("secret");
        const char *secrets[] = {"authorization",
                                 "Authorization",
                                 "api_key",
                                 "apiKey",
                                 "apikey",
                                 "api-key",
                                 "API_KEY",
                                 "X-API-Key",
                                 "x-api-key",
                                 "token",
                                 "access_token",
                                 "accessToken",
                                 "refresh_token",
                                 "id_token",
                                 "secret",
                                 "client_secret",
                                 "clientSecret",
                                 "password",
                                 "Password",
                                 "passwd",
                                 "cookie",
                                 "Set-Cookie",
                                 "private_key",
                                 "privateKey",
                                 "x-auth-token",
                                 "credentials",
                                 "passphrase",
                                 "openai_api_key",
                                 "authorization_code",
                                 "aws_secret_access_key",
                                 "bearerToken",
                                 "csrf_token",
                                 "APIKey"};
        for (const char *key : secrets)
            QTest::newRow(key) << QString::fromLatin1(key) << true;
        const char *harmless[] = {"max_tokens",    "maxTokens",         "tokens",
                                  "input_tokens",  "progressToken",     "progresstoken",
                                  "nextPageToken", "next_page_token",   "nextpagetoken",
                                  "cursor",        "nextCursor",        "token_type",
                                  "tokenizer",     "secret_name",       "key",
                                  "keys",          "private_key_id",    "passwordRequired",
                                  "name",          "description",       "sessionId",
                                  "eos_token",     "authorization_url", "",
                                  "monkey"};
        for (const char *key : harmless)
            QTest::newRow(qPrintable(QStringLiteral("not ") + QLatin1String(key)))
                    << QString::fromLatin1(key) << false;
    }
    void secretKeys()
    {
        QFETCH(QString, key);
        QFETCH(bool, secret);
        const QByteArray utf8 = key.toUtf8();
        QCOMPARE(Redactor::isSecretKey(std::string_view(utf8.data(), std::size_t(utf8.size()))),
                 secret);
    }

    void byKey_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QByteArray>("expected");
        const QByteArray R = quoted();
        QTest::newRow("flat") << q("{'api_key':'sk-1','name':'x'}")
                              << q("{'api_key':") + R + q(",'name':'x'}");
        QTest::newRow("spaces") << q("{ 'Authorization' : 'Bearer abc' }")
                                << q("{ 'Authorization' : ") + R + q(" }");
        QTest::newRow("nested") << q("{'a':{'b':{'password':'hunter2'}},'c':1}")
                                << q("{'a':{'b':{'password':") + R + q("}},'c':1}");
        QTest::newRow("in array of objects")
                << q("[{'token':'t1'},{'token':'t2','n':2}]")
                << q("[{'token':") + R + q("},{'token':") + R + q(",'n':2}]");
        QTest::newRow("array value") << q("{'cookies':['a=1','b=2'],'x':['c']}")
                                     << q("{'cookies':[") + R + "," + R + q("],'x':['c']}");
        QTest::newRow("number value")
                << q("{'pin':1,'password':1234}") << q("{'pin':1,'password':") + R + "}";
        QTest::newRow("booleans and null kept")
                << q("{'secret':true,'token':null}") << q("{'secret':true,'token':null}");
        // A tool schema's property named "password" describes a value; it holds none.
        QTest::newRow("object value: members judged by name")
                << q("{'properties':{'password':{'type':'string','description':'the pw'}}}")
                << q("{'properties':{'password':{'type':'string','description':'the pw'}}}");
        QTest::newRow("escaped quote in value")
                << q("{'secret':'a\\'b','next':'ok'}") << q("{'secret':") + R + q(",'next':'ok'}");
        QTest::newRow("name as a value is not a key")
                << q("{'name':'password','v':'token'}") << q("{'name':'password','v':'token'}");
        QTest::newRow("max_tokens kept") << q("{'max_tokens':1024,'tokens':5,'progressToken':7}")
                                         << q("{'max_tokens':1024,'tokens':5,'progressToken':7}");
        QTest::newRow("unicode") << q("{'名前':'値','token':'秘密の値'}")
                                 << q("{'名前':'値','token':") + R + "}";
        QTest::newRow("cut in a secret value")
                << q("{'params':{'api_key':'sk-sec") << q("{'params':{'api_key':") + R.chopped(1);
        QTest::newRow("cut after the colon") << q("{'api_key': ") << q("{'api_key': ");
        QTest::newRow("cut in a key") << q("{'a':1,'api_k") << q("{'a':1,'api_k");
        QTest::newRow("unbalanced closers") << q("]]}{'token':'x'") << q("]]}{'token':") + R;
        QTest::newRow("json in a log line") << q("sending {'password':'pw1'} to server")
                                            << q("sending {'password':") + R + q("} to server");
        QTest::newRow("unquoted header line") << QByteArray("X-Api-Key: abc123 def\nnext line")
                                              << "X-Api-Key: " + marker() + "\nnext line";
        QTest::newRow("query string")
                << QByteArray("GET /cb?code=1&access_token=abc.def&state=s HTTP/1.1")
                << "GET /cb?code=1&access_token=" + marker() + "&state=s HTTP/1.1";
        QTest::newRow("environment dump") << QByteArray("GITHUB_TOKEN=ghp_x PATH=/usr/bin")
                                          << "GITHUB_TOKEN=" + marker() + " PATH=/usr/bin";
        QTest::newRow("bearer in prose")
                << QByteArray("using Bearer eyJhbGciOi.x-y_z for bearer authentication")
                << "using Bearer " + marker() + " for bearer authentication";
        QTest::newRow("no secrets") << q("{'jsonrpc':'2.0','id':1,'result':{'tools':[]}}")
                                    << q("{'jsonrpc':'2.0','id':1,'result':{'tools':[]}}");
        QTest::newRow("empty") << QByteArray() << QByteArray();
    }
    void byKey()
    {
        QFETCH(QByteArray, input);
        QFETCH(QByteArray, expected);
        QCOMPARE(Redactor().redact(input), expected);
    }

    void validJsonStaysValid()
    {
        const Json message = {{"jsonrpc", "2.0"},
                              {"id", 3},
                              {"method", "tools/call"},
                              {"params",
                               {{"name", "login"},
                                {"arguments",
                                 {{"user", "bob"},
                                  {"password", "pw"},
                                  {"nested",
                                   {{"client_secret", 42},
                                    {"list", Json::array({"a", Json{{"token", "t"}}})}}}}}}}};
        const std::string text = message.dump();
        const QByteArray out
                = Redactor().redact(QByteArrayView(text.data(), qsizetype(text.size())));
        const Json parsed = parseJson(std::string_view(out.constData(), std::size_t(out.size())));
        QVERIFY(!parsed.is_discarded());
        const Json &args = parsed["params"]["arguments"];
        QCOMPARE_JSON(args["user"], Json("bob"));
        QCOMPARE_JSON(args["password"], Json(std::string(Redactor::Marker)));
        QCOMPARE_JSON(args["nested"]["client_secret"], Json(std::string(Redactor::Marker)));
        QCOMPARE_JSON(args["nested"]["list"][1]["token"], Json(std::string(Redactor::Marker)));
        QCOMPARE_JSON(parsed["method"], Json("tools/call"));
    }

    void knownValues()
    {
        const Redactor redactor(QStringList{QStringLiteral("sk-secret-123"),
                                            QStringLiteral("ab"), // too short: ignored
                                            QStringLiteral("p\"w/x\\y")});
        QVERIFY(redactor.hasKnownSecrets());
        // Anywhere: in a string value under a harmless key, in free text, twice.
        QCOMPARE(redactor.redact(q("{'text':'my key is sk-secret-123, again sk-secret-123'}")),
                 q("{'text':'my key is ") + marker() + ", again " + marker() + q("'}"));
        QCOMPARE(redactor.redactText(QStringLiteral("stderr: using sk-secret-123")),
                 QStringLiteral("stderr: using ") + QString::fromUtf8(marker()));
        QCOMPARE(redactor.redact(QByteArrayView("ab cd")), QByteArray("ab cd"));
        // As a JSON serializer escapes it (quote, backslash; slash optionally).
        QCOMPARE(redactor.redact(q("{'v':'p\\'w/x\\\\y'}")), q("{'v':'") + marker() + q("'}"));
        QCOMPARE(redactor.redact(q("{'v':'p\\'w\\/x\\\\y'}")), q("{'v':'") + marker() + q("'}"));
        QCOMPARE(redactor.redact(QByteArrayView("raw p\"w/x\\y")), "raw " + marker());
    }

    void knownValueCutOff()
    {
        const Redactor redactor(QStringList{QStringLiteral("sk-secret-123")});
        // The text ends inside the secret: what is there is hidden, but only when cut off.
        QCOMPARE(redactor.redact(q("{'text':'key sk-sec"), true), q("{'text':'key ") + marker());
        QCOMPARE(redactor.redact(q("{'text':'sk-"), true), q("{'text':'") + marker());
        QCOMPARE(redactor.redact(q("{'text':'sk"), true), q("{'text':'sk"));
        QCOMPARE(redactor.redact(QByteArrayView("ends with sk-"), false),
                 QByteArray("ends with sk-"));
    }

    void secretValues()
    {
        ServerConfig config;
        config.name = QStringLiteral("github");
        config.env = {{QStringLiteral("GITHUB_PERSONAL_ACCESS_TOKEN"), QStringLiteral("ghp_abc")},
                      {QStringLiteral("DB_PASS"), QStringLiteral("hunter22")},
                      {QStringLiteral("OPENAI_KEY"), QStringLiteral("sk-1234")},
                      {QStringLiteral("SHORT_TOKEN"), QStringLiteral("abc")}, // too short
                      {QStringLiteral("LOG_LEVEL"), QStringLiteral("debug")},
                      {QStringLiteral("HOME_DIR"), QStringLiteral("/home/someone")},
                      {QStringLiteral("MAX_TOKENS"), QStringLiteral("4096")},
                      {QStringLiteral("ANYTHING"), QStringLiteral("Zx81Qw93Lk20Pp7s")},
                      {QStringLiteral("DATABASE_URL"),
                       QStringLiteral("postgres://app:dbpass99@db.local/app")}};
        config.headers = {{QStringLiteral("Authorization"), QStringLiteral("Bearer tok-xyz-1")},
                          {QStringLiteral("Accept"), QStringLiteral("application/json")}};
        config.args = {QStringLiteral("--api-key"), QStringLiteral("key-from-arg"),
                       QStringLiteral("--token=tok-from-arg"), QStringLiteral("--verbose"),
                       QStringLiteral("/some/path")};
        config.url = QStringLiteral("https://mcp.example.com/mcp?apiKey=url-key-1&x=1");
        const QStringList values = Redactor::secretValues(config);
        for (const char *expected :
             {"ghp_abc", "hunter22", "sk-1234", "Zx81Qw93Lk20Pp7s", "dbpass99", "Bearer tok-xyz-1",
              "tok-xyz-1", "key-from-arg", "tok-from-arg", "url-key-1"})
            QVERIFY2(values.contains(QLatin1String(expected)), expected);
        for (const char *unexpected : {"abc", "debug", "/home/someone", "4096", "application/json",
                                       "--verbose", "/some/path"})
            QVERIFY2(!values.contains(QLatin1String(unexpected)), unexpected);

        const Redactor redactor = Redactor::forServer(config);
        QCOMPARE(redactor.redactText(QStringLiteral("auth with tok-xyz-1 to /home/someone")),
                 QStringLiteral("auth with %1 to /home/someone").arg(QString::fromUtf8(marker())));
    }

    // A value that came from a ${VAR} reference in env or headers is a secret whatever its name
    // or shape (only the variable's part, not the text around it); in args and the url, and a
    // ${VAR:-default}'s literal default, it is not.
    void secretValuesFromVariables()
    {
        QProcessEnvironment env;
        env.insert(QStringLiteral("MY_SETTING"), QStringLiteral("plain words"));
        env.insert(QStringLiteral("HOST_PART"), QStringLiteral("inner-host"));
        env.insert(QStringLiteral("DIR"), QStringLiteral("/srv/data"));
        const McpConfig config = ConfigLoader::parse(
                q("{'mcpServers': {'s': {'command': 'x', 'args': ['${DIR}'], 'env': "
                  "{'PLAIN': '${MY_SETTING}', 'WITH_DEFAULT': '${UNSET_ONE:-fallback-text}'}}, "
                  "'h': {'type': 'http', 'url': 'https://${HOST_PART}/mcp', "
                  "'headers': {'X-Shown': 'id ${MY_SETTING}'}}}}"),
                QStringLiteral("t.json"), env);
        for (const ConfigError &error : config.errors)
            qWarning() << error.toString();
        QVERIFY(config.errors.isEmpty());
        const ServerConfig *stdio = config.find(QStringLiteral("s"));
        const ServerConfig *http = config.find(QStringLiteral("h"));
        QVERIFY(stdio && http);
        QCOMPARE(stdio->expandedSecrets, QStringList{QStringLiteral("plain words")});
        QCOMPARE(http->expandedSecrets, QStringList{QStringLiteral("plain words")});
        QVERIFY(Redactor::secretValues(*stdio).contains(QStringLiteral("plain words")));
        QVERIFY(!Redactor::secretValues(*stdio).contains(QStringLiteral("/srv/data")));
        QVERIFY(!Redactor::secretValues(*stdio).contains(QStringLiteral("fallback-text")));
        QVERIFY(!Redactor::secretValues(*http).contains(QStringLiteral("inner-host")));
        // Known values only: a tool result keeps its JSON members, whatever their names.
        const Redactor redactor(Redactor::secretValues(*stdio));
        QCOMPARE(redactor.redactKnownText(QStringLiteral("{\"password\": \"x1y2\", \"v\": "
                                                         "\"plain words\"}")),
                 QStringLiteral("{\"password\": \"x1y2\", \"v\": \"%1\"}")
                         .arg(QString::fromUtf8(marker())));
        // The copy the Manager compares is the same whatever was substituted.
        ServerConfig other = *stdio;
        other.expandedSecrets.clear();
        QVERIFY(other == *stdio);
    }

    void secretNames()
    {
        for (const char *name : {"GITHUB_TOKEN", "GITHUB_PAT", "DB_PASS", "OPENAI_KEY",
                                 "SENTRY_DSN", "Authorization", "X-Api-Key", "--api-key"})
            QVERIFY2(Redactor::isSecretName(QString::fromLatin1(name)), name);
        for (const char *name :
             {"PATH", "PWD", "HOME", "MAX_TOKENS", "LOG_LEVEL", "Accept", "KEYBOARD", "--verbose"})
            QVERIFY2(!Redactor::isSecretName(QString::fromLatin1(name)), name);
    }

    void credentialShape()
    {
        QVERIFY(Redactor::looksLikeCredential(u"sk-proj-Ab12Cd34Ef56"));
        QVERIFY(Redactor::looksLikeCredential(u"ghp_16C7e42F292c6912E7710c838347Ae178B4a"));
        QVERIFY(!Redactor::looksLikeCredential(u"short1"));
        QVERIFY(!Redactor::looksLikeCredential(u"/usr/local/bin/node18"));
        QVERIFY(!Redactor::looksLikeCredential(u"only-letters-here-long"));
        QVERIFY(!Redactor::looksLikeCredential(u"has a space 1234567890"));
    }

    // A 1 MB hostile text (deep nesting, endless string, many '=') is handled in linear time.
    void hostileInput()
    {
        const Redactor redactor(QStringList{QStringLiteral("secret-value")});
        for (const QByteArray &text :
             {QByteArray(1 << 20, '['), QByteArray(1, '"') + QByteArray(1 << 20, '\\'),
              QByteArray(1 << 20, '='), QByteArray("{'token':[").repeated(1 << 16),
              QByteArray(1 << 20, 'x')}) {
            const QByteArray out = redactor.redact(text, true);
            QVERIFY(!out.isEmpty());
        }
    }
};

QTEST_APPLESS_MAIN(tst_Redaction)
#include "tst_redaction.moc"
