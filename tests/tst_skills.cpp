#include "jsontest.h"

#include <engine/session.h>
#include <engine/tools/skilltool.h>
#include <mcp/client/skills.h>

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

using namespace Mcp;
using Json = nlohmann::json;

namespace {

std::string digestOf(const QByteArray &bytes)
{
    return "sha256:"
           + QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex().toStdString();
}

const QByteArray Skill = "---\nname: pdf\ndescription: \"Fill: PDF forms\"\nlicense: 'MIT'\n"
                         "version: 2\nmetadata:\n  author: ana\n  beta: true\n"
                         "tags:\n  - forms\n  - pdf\n---\n\nThe body.\n";
const QByteArray Forms = "Supporting.\n";

Json entryFor(const QByteArray &skill, Json frontmatter)
{
    return {{"uri", "skill://pdf/SKILL.md"},
            {"frontmatter", std::move(frontmatter)},
            {"resources", Json::array({{{"uri", "skill://pdf/SKILL.md"},
                                        {"digest", digestOf(skill)},
                                        {"size", skill.size()}},
                                       {{"uri", "skill://pdf/FORMS.md"},
                                        {"digest", digestOf(Forms)},
                                        {"size", Forms.size()}}})}};
}

Json honestFrontmatter()
{
    return {{"name", "pdf"},
            {"description", "Fill: PDF forms"},
            {"license", "MIT"},
            {"version", 2},
            {"metadata", {{"author", "ana"}, {"beta", true}}},
            {"tags", Json::array({"forms", "pdf"})}};
}

} // namespace

class tst_Skills : public QObject
{
    Q_OBJECT
private slots:
    void frontmatterSubset()
    {
        QString error;
        const auto parsed = Skills::parseFrontmatter(Skill, &error);
        QVERIFY2(parsed, qPrintable(error));
        QCOMPARE_JSON(*parsed, honestFrontmatter());
        // A BOM and CRLF line ends are fine.
        const auto crlf
                = Skills::parseFrontmatter("\xEF\xBB\xBF---\r\nname: x\r\n---\r\nbody", &error);
        QVERIFY2(crlf, qPrintable(error));
        QCOMPARE_JSON(*crlf, (Json{{"name", "x"}}));
    }

    void frontmatterRefused_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("none") << QByteArray("name: x\n");
        QTest::newRow("unterminated") << QByteArray("---\nname: x\n");
        QTest::newRow("block scalar") << QByteArray("---\ndescription: |\n  two\n---\n");
        QTest::newRow("flow list") << QByteArray("---\ntags: [a, b]\n---\n");
        QTest::newRow("anchor") << QByteArray("---\nname: &a x\n---\n");
        QTest::newRow("twice") << QByteArray("---\nname: x\nname: y\n---\n");
        QTest::newRow("deep") << QByteArray("---\nmetadata:\n  inner:\n    x: 1\n---\n");
        QTest::newRow("tab") << QByteArray("---\nmetadata:\n\tx: 1\n---\n");
        QTest::newRow("orphan indent") << QByteArray("---\n  x: 1\n---\n");
        QTest::newRow("not key value") << QByteArray("---\njust text\n---\n");
    }

    void frontmatterRefused()
    {
        QFETCH(QByteArray, text);
        QString error;
        QVERIFY(!Skills::parseFrontmatter(text, &error));
        QVERIFY(!error.isEmpty());
    }

    void readList()
    {
        QStringList problems;
        const Json bad = {{"uri", "file:///etc/passwd"},
                          {"frontmatter", {{"name", "x"}}},
                          {"resources", Json::array()}};
        const Json noDigest = {{"uri", "skill://b/SKILL.md"},
                               {"frontmatter", {{"name", "b"}}},
                               {"resources", Json::array({{{"uri", "skill://b/SKILL.md"},
                                                           {"digest", "md5:abc"},
                                                           {"size", 3}}})}};
        const Json dynamic = {{"uri", "skill://d/SKILL.md"},
                              {"frontmatter", {{"name", "d"}}},
                              {"resources", "dynamic"}};
        const auto entries = Skills::readList(
                {{"skills",
                  Json::array({entryFor(Skill, honestFrontmatter()), bad, noDigest, dynamic, 42})}},
                &problems);
        QCOMPARE(entries.size(), std::size_t(2));
        QCOMPARE(entries[0].name(), QStringLiteral("pdf"));
        QCOMPARE(entries[0].description(), QStringLiteral("Fill: PDF forms"));
        QCOMPARE(entries[0].files.size(), std::size_t(2));
        QVERIFY(entries[1].dynamic);
        QCOMPARE(problems.size(), 3);
        QVERIFY(problems.join(QLatin1Char('\n')).contains(QLatin1String("skill://")));
        QVERIFY(Skills::readList({{"skill", dynamic}}).size() == 1); // skills/get's shape
        QVERIFY(Skills::offered(
                {{"extensions", {{"io.modelcontextprotocol/skills", Json::object()}}}}));
        QVERIFY(!Skills::offered({{"resources", Json::object()}}));
    }

    void verify()
    {
        const auto entry = Skills::readList(
                {{"skills", Json::array({entryFor(Skill, honestFrontmatter())})}});
        QCOMPARE(entry.size(), std::size_t(1));
        const Skills::Entry &skill = entry[0];
        QCOMPARE(Skills::verify(skill, skill.uri, Skill), QString());
        QCOMPARE(Skills::verify(skill, QStringLiteral("skill://pdf/FORMS.md"), Forms), QString());
        // Unlisted, resized, altered, and a frontmatter that differs from the listing.
        QVERIFY(Skills::verify(skill, QStringLiteral("skill://pdf/run.sh"), Forms)
                        .contains(QLatin1String("not one of")));
        QVERIFY(Skills::verify(skill, skill.uri, Skill + "x").contains(QLatin1String("bytes")));
        QByteArray altered = Skill;
        altered.replace("The body.", "Evil body");
        QVERIFY(Skills::verify(skill, skill.uri, altered).contains(QLatin1String("digest")));
        Json listed = honestFrontmatter();
        listed["metadata"]["beta"] = false;
        const auto other = Skills::readList({{"skills", Json::array({entryFor(Skill, listed)})}});
        QVERIFY(Skills::verify(other[0], other[0].uri, Skill).contains(QLatin1String("metadata")));
        Json extra = honestFrontmatter();
        extra["allowed-tools"] = "bash";
        const auto more = Skills::readList({{"skills", Json::array({entryFor(Skill, extra)})}});
        QVERIFY(Skills::verify(more[0], more[0].uri, Skill)
                        .contains(QLatin1String("allowed-tools")));

        QString error;
        const auto bytes = Skills::contentBytes(
                {{"contents", Json::array({{{"uri", "skill://pdf/FORMS.md"},
                                            {"blob", Forms.toBase64().toStdString()}}})}},
                QStringLiteral("skill://pdf/FORMS.md"), &error);
        QVERIFY2(bytes, qPrintable(error));
        QCOMPARE(*bytes, Forms);
        QVERIFY(!Skills::contentBytes({{"contents", Json::array()}},
                                      QStringLiteral("skill://pdf/FORMS.md"), &error));
    }

    // The fixture server lists a skill: use_skill is offered with its name and description,
    // nothing is read on connection; the SKILL.md is read when the skill is used, and only
    // once it verified may its listed files be read. A SKILL.md changed after listing is
    // refused, and closes the skill again.
    void useSkillLoadsOnlyVerified()
    {
        QTemporaryDir dir;
        const QDir skills(dir.path());
        QVERIFY(skills.mkpath(QStringLiteral("pdf")));
        const auto write = [&](const QString &name, const QByteArray &bytes) {
            QFile file(skills.filePath(name));
            return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
        };
        QVERIFY(write(QStringLiteral("pdf/SKILL.md"), Skill));
        QVERIFY(write(QStringLiteral("pdf/FORMS.md"), Forms));
        QVERIFY(write(QStringLiteral("skills.json"),
                      QByteArray::fromStdString(
                              Json{{"skills", Json::array({entryFor(Skill, honestFrontmatter())})}}
                                      .dump())));
        const QString log = skills.filePath(QStringLiteral("requests.log"));
        QVERIFY(write(QStringLiteral("config.json"),
                      QStringLiteral("{\"mcpServers\": {\"sk\": {\"command\": \"%1\", "
                                     "\"args\": [\"--skills\", \"%2\", \"--log-file\", \"%3\"]}}}")
                              .arg(QStringLiteral(SWITCHBOARD_FIXTURE_SERVER), dir.path(), log)
                              .toUtf8()));
        Engine::SessionOptions options;
        options.workspace = dir.path();
        options.configFile = skills.filePath(QStringLiteral("config.json"));
        options.trustFile = skills.filePath(QStringLiteral("trust.json"));
        options.approvalsFile = skills.filePath(QStringLiteral("approvals.json"));
        options.auditLogFile = skills.filePath(QStringLiteral("audit.jsonl"));
        Engine::Session session(options);
        session.load();
        session.start();
        QTRY_VERIFY_WITH_TIMEOUT(session.registry()->find(QStringLiteral("use_skill")), 10000);
        const auto tool = session.registry()->find(QStringLiteral("use_skill"));
        QVERIFY2(tool->description().contains(QLatin1String("sk:pdf: Fill: PDF forms")),
                 qPrintable(tool->description()));
        const auto requests = [&] {
            QFile file(log);
            return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
        };
        QVERIFY(requests().contains("skills/list"));
        QVERIFY(!requests().contains("resources/read")); // never ahead of use

        const auto use = [&](Json arguments) {
            std::optional<Engine::ToolRunResult> result;
            Engine::ToolRunner::Callbacks callbacks;
            callbacks.onDone = [&](Engine::ToolRunResult r) {
                result = std::move(r);
            };
            session.runner()->run({QStringLiteral("c"), QStringLiteral("use_skill"),
                                   std::move(arguments), QString()},
                                  QStringLiteral("conversation"), this, std::move(callbacks));
            (void)QTest::qWaitFor([&] { return result.has_value(); }, 10000);
            return result ? result->output : Engine::ToolOutput::error(QStringLiteral("no answer"));
        };
        Engine::ToolOutput early = use({{"skill", "pdf"}, {"file", "FORMS.md"}});
        QVERIFY(early.isError);
        QVERIFY(!requests().contains("resources/read"));

        Engine::ToolOutput loaded = use({{"skill", "pdf"}});
        QVERIFY2(!loaded.isError, qPrintable(loaded.modelText()));
        QVERIFY(loaded.modelText().contains(QLatin1String("The body.")));
        QVERIFY(loaded.modelText().contains(QLatin1String("skill://pdf/FORMS.md")));
        Engine::ToolOutput forms = use({{"skill", "sk:pdf"}, {"file", "FORMS.md"}});
        QVERIFY2(!forms.isError, qPrintable(forms.modelText()));
        QVERIFY(forms.modelText().contains(QLatin1String("Supporting.")));
        Engine::ToolOutput unlisted = use({{"skill", "pdf"}, {"file", "../../secret"}});
        QVERIFY(unlisted.isError);
        QVERIFY(!requests().contains("secret")); // refused without asking the server
        QVERIFY(use({{"skill", "nope"}}).modelText().contains(QLatin1String("sk:pdf")));

        QByteArray altered = Skill;
        altered.replace("The body.", "Evil body");
        QVERIFY(write(QStringLiteral("pdf/SKILL.md"), altered));
        Engine::ToolOutput tampered = use({{"skill", "pdf"}});
        QVERIFY(tampered.isError);
        QVERIFY(!tampered.modelText().contains(QLatin1String("Evil")));
        QVERIFY(tampered.modelText().contains(QLatin1String("digest")));
        QVERIFY(use({{"skill", "pdf"}, {"file", "FORMS.md"}}).isError);
    }
};

QTEST_GUILESS_MAIN(tst_Skills)
#include "tst_skills.moc"
