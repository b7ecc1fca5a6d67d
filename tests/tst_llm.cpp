#include "jsontest.h"

#include <engine/llm/llm.h>
#include <engine/llm/providerconfig.h>
#include <engine/tools/tool.h>

#include <QTest>

using namespace Engine;

// ChatMessage's conversation-file form (round trip, tolerance of malformed objects) and
// ProviderConfig::fromEnvironment.
class tst_Llm : public QObject
{
    Q_OBJECT

private slots:
    void roundTrip_data()
    {
        QTest::addColumn<int>("which");
        QTest::newRow("system") << 0;
        QTest::newRow("user unicode") << 1;
        QTest::newRow("assistant with tool calls") << 2;
        QTest::newRow("tool error") << 3;
        QTest::newRow("tool denied") << 4;
        QTest::newRow("user with attachments") << 5;
    }

    void roundTrip()
    {
        QFETCH(int, which);
        ChatMessage m;
        switch (which) {
        case 0:
            m.role = ChatMessage::Role::System;
            m.text = QStringLiteral("be brief");
            break;
        case 1:
            m.text = QStringLiteral("日本語 – ✓ 😀\nline two");
            break;
        case 2:
            m.role = ChatMessage::Role::Assistant;
            m.text = QStringLiteral("calling");
            m.toolCalls.push_back({QStringLiteral("call_1"), QStringLiteral("read_file"),
                                   Json{{"path", "a.txt"}},
                                   QStringLiteral("{\"path\":\"a.txt\"}")});
            m.toolCalls.push_back({QStringLiteral("call_2"), QStringLiteral("bash"), Json(),
                                   QStringLiteral("{not json")});
            break;
        case 3:
            m.role = ChatMessage::Role::Tool;
            m.text = QStringLiteral("no such file");
            m.toolCallId = QStringLiteral("call_1");
            m.toolName = QStringLiteral("read_file");
            m.isError = true;
            break;
        case 4:
            m.role = ChatMessage::Role::Tool;
            m.text = QStringLiteral("denied: not now");
            m.toolCallId = QStringLiteral("call_2");
            m.toolName = QStringLiteral("bash");
            m.isError = true;
            m.denied = true;
            break;
        case 5:
            m.text = QStringLiteral("see these");
            m.attachments.push_back({QStringLiteral("notes/今天.md"), QStringLiteral("text/plain"),
                                     QByteArray("# plan\n\xe2\x9c\x93 done\n")});
            m.attachments.push_back({QStringLiteral("pasted.png"), QStringLiteral("image/png"),
                                     QByteArray("\x89PNG\r\n\x1a\n\0\xff", 10)});
            break;
        }
        const Json json = m.toJson();
        // Through text, as a conversation file stores it.
        const auto back = ChatMessage::fromJson(Json::parse(json.dump()));
        QVERIFY(back);
        QCOMPARE(int(back->role), int(m.role));
        QCOMPARE(back->text, m.text);
        QCOMPARE(back->toolCallId, m.toolCallId);
        QCOMPARE(back->toolName, m.toolName);
        QCOMPARE(back->isError, m.isError);
        QCOMPARE(back->denied, m.denied);
        QCOMPARE(back->toolCalls.size(), m.toolCalls.size());
        for (size_t i = 0; i < m.toolCalls.size(); ++i) {
            QCOMPARE(back->toolCalls[i].id, m.toolCalls[i].id);
            QCOMPARE(back->toolCalls[i].name, m.toolCalls[i].name);
            QCOMPARE_JSON(back->toolCalls[i].arguments, m.toolCalls[i].arguments);
            QCOMPARE(back->toolCalls[i].argumentsText, m.toolCalls[i].argumentsText);
        }
        QCOMPARE(back->attachments.size(), m.attachments.size());
        for (size_t i = 0; i < m.attachments.size(); ++i) {
            QCOMPARE(back->attachments[i].name, m.attachments[i].name);
            QCOMPARE(back->attachments[i].mimeType, m.attachments[i].mimeType);
            QCOMPARE(back->attachments[i].data, m.attachments[i].data);
        }
        QCOMPARE_JSON(back->toJson(), json);
    }

    // A damaged attachment in a conversation file: the message is refused (and the store says
    // which line), never half read.
    // The images and audio of a tool result a model can be shown: decoded, named after the
    // tool, only the types providers take, within the size limit, at most four.
    void toolOutputAttachments()
    {
        const auto block = [](const char *type, const char *mime, const std::string &data) {
            return Json{{"type", type}, {"mimeType", mime}, {"data", data}};
        };
        ToolOutput output;
        output.content = Json::array(
                {Json{{"type", "text"}, {"text", "here"}}, block("image", "image/png", "UE5HIQ=="),
                 block("image", "image/svg+xml", "PHN2Zy8+"), // not an image type models take
                 block("image", "image/png", "not base64!"), block("image", "image/png", ""),
                 block("audio", "audio/wav", "UklGRg=="), Json{{"type", "image"}},
                 block("image", "IMAGE/JPEG", "SlBHIQ==")});
        const std::vector<Attachment> attachments = output.modelAttachments(QStringLiteral("shot"));
        QCOMPARE(attachments.size(), size_t(3));
        QCOMPARE(attachments[0].name, QStringLiteral("shot image 1"));
        QCOMPARE(attachments[0].mimeType, QStringLiteral("image/png"));
        QCOMPARE(attachments[0].data, QByteArray("PNG!"));
        QCOMPARE(attachments[1].name, QStringLiteral("shot audio 1"));
        QVERIFY(attachments[1].isAudio());
        QCOMPARE(attachments[1].data, QByteArray("RIFF"));
        QCOMPARE(attachments[2].name, QStringLiteral("shot image 2"));
        QCOMPARE(attachments[2].mimeType, QStringLiteral("image/jpeg"));
        // Audio never reaches a model as text.
        QCOMPARE(attachments[1].modelText(), QStringLiteral("[shot audio 1 audio/wav, 4 bytes]"));

        ToolOutput many;
        many.content = Json::array();
        for (int i = 0; i < 6; ++i)
            many.content.push_back(block("image", "image/gif", "R0lG"));
        QCOMPARE(int(many.modelAttachments(QStringLiteral("t")).size()),
                 Attachment::MaxPerToolResult);

        ToolOutput huge;
        const std::string big((Attachment::MaxImageBytes / 3 + 1) * 4, 'A');
        huge.content = Json::array({block("image", "image/png", big)});
        QVERIFY(huge.modelAttachments(QStringLiteral("t")).empty());
        QVERIFY(huge.modelText().contains(QLatin1String("image image/png")));
    }

    void badAttachmentIsRefused()
    {
        for (const char *text :
             {R"({"role":"user","text":"x","attachments":{}})",
              R"({"role":"user","text":"x","attachments":[{"name":"a","mimeType":"image/png"}]})",
              R"({"role":"user","text":"x","attachments":[{"name":"a","mimeType":"image/png","data":"%%%"}]})",
              R"({"role":"user","text":"x","attachments":[7]})"}) {
            QVERIFY2(!ChatMessage::fromJson(Json::parse(text)), text);
        }
    }

    void stableForm()
    {
        ChatMessage m;
        m.role = ChatMessage::Role::Tool;
        m.text = QStringLiteral("ok");
        m.toolCallId = QStringLiteral("c");
        m.toolName = QStringLiteral("t");
        QCOMPARE_JSON(m.toJson(), (Json{{"role", "tool"},
                                        {"text", "ok"},
                                        {"toolCallId", "c"},
                                        {"toolName", "t"},
                                        {"isError", false}}));
    }

    void malformed_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("not an object") << QByteArray("[1]");
        QTest::newRow("no role") << QByteArray(R"({"text":"x"})");
        QTest::newRow("unknown role") << QByteArray(R"({"role":"robot","text":"x"})");
        QTest::newRow("role not a string") << QByteArray(R"({"role":1})");
        QTest::newRow("text not a string") << QByteArray(R"({"role":"user","text":5})");
        QTest::newRow("toolCalls not an array")
                << QByteArray(R"({"role":"assistant","toolCalls":{}})");
        QTest::newRow("tool call not an object")
                << QByteArray(R"({"role":"assistant","toolCalls":[1]})");
        QTest::newRow("tool call id not a string")
                << QByteArray(R"({"role":"assistant","toolCalls":[{"id":3}]})");
        QTest::newRow("isError not a bool") << QByteArray(R"({"role":"tool","isError":"yes"})");
        QTest::newRow("denied not a bool") << QByteArray(R"({"role":"tool","denied":1})");
    }

    void malformed()
    {
        QFETCH(QByteArray, json);
        QVERIFY(!ChatMessage::fromJson(Json::parse(json.toStdString())));
    }

    void tolerantOfMissingFields()
    {
        const auto m = ChatMessage::fromJson(Json{{"role", "assistant"}, {"extra", 1}});
        QVERIFY(m);
        QVERIFY(m->text.isEmpty());
        QVERIFY(m->toolCalls.empty());
    }

    void environment_data()
    {
        QTest::addColumn<QStringList>("env");
        QTest::addColumn<bool>("configured");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("baseUrl");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("key");

        QTest::newRow("nothing") << QStringList{} << false << 0 << QString() << QString()
                                 << QString();
        QTest::newRow("openai key")
                << QStringList{"OPENAI_API_KEY=sk-1"} << true << int(ProviderConfig::OpenAi)
                << QStringLiteral("https://api.openai.com/v1") << QStringLiteral("gpt-4o-mini")
                << QStringLiteral("sk-1");
        QTest::newRow("ollama: url without key")
                << QStringList{"OPENAI_BASE_URL=http://localhost:11434/v1/", "OPENAI_MODEL=qwen3"}
                << true << int(ProviderConfig::OpenAi)
                << QStringLiteral("http://localhost:11434/v1") << QStringLiteral("qwen3")
                << QString();
        QTest::newRow("anthropic")
                << QStringList{"ANTHROPIC_API_KEY=ak"} << true << int(ProviderConfig::Anthropic)
                << QStringLiteral("https://api.anthropic.com")
                << QStringLiteral("claude-sonnet-4-5") << QStringLiteral("ak");
        QTest::newRow("openai wins")
                << QStringList{"ANTHROPIC_API_KEY=ak", "OPENAI_API_KEY=sk", "ANTHROPIC_MODEL=x"}
                << true << int(ProviderConfig::OpenAi)
                << QStringLiteral("https://api.openai.com/v1") << QStringLiteral("gpt-4o-mini")
                << QStringLiteral("sk");
    }

    void environment()
    {
        QFETCH(QStringList, env);
        QFETCH(bool, configured);
        QProcessEnvironment environment;
        for (const QString &entry : env)
            environment.insert(entry.section(QLatin1Char('='), 0, 0),
                               entry.section(QLatin1Char('='), 1));
        QString whyNot;
        const auto config = ProviderConfig::fromEnvironment(environment, &whyNot);
        QCOMPARE(bool(config), configured);
        if (!configured) {
            QVERIFY(whyNot.contains(QLatin1String("OPENAI_API_KEY")));
            QVERIFY(whyNot.contains(QLatin1String("ANTHROPIC_API_KEY")));
            return;
        }
        QFETCH(int, kind);
        QFETCH(QString, baseUrl);
        QFETCH(QString, model);
        QFETCH(QString, key);
        QCOMPARE(int(config->kind), kind);
        QCOMPARE(config->baseUrl, baseUrl);
        QCOMPARE(config->model, model);
        QCOMPARE(config->apiKey, key);
        const auto provider = createProvider(*config);
        QVERIFY(provider);
        QVERIFY(provider->describe().contains(model));
        QVERIFY(!provider->describe().contains(QLatin1String("sk")) || key.isEmpty()
                || !provider->describe().contains(key));
    }
};

QTEST_GUILESS_MAIN(tst_Llm)
#include "tst_llm.moc"
