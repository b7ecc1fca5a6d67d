#include "postedevents.h"
#include "processtest.h"
#include "sandboxtest.h"

#include <engine/tools/builtintools.h>
#include <engine/tools/workspace.h>

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#ifdef Q_OS_UNIX
#include <sys/stat.h>
#endif

class TestBuiltinTools : public QObject
{
    Q_OBJECT

private slots:
    void init();

    void resolve_data();
    void resolve();
    void resolveWithoutRoot();
    void definitions();

    void modelText_data();
    void modelText();

    void readFile();
    void readFileWindow();
    void readFileBudget();
    void readFileErrors_data();
    void readFileErrors();
    void readFileUnicode();

    void listDir();
    void listDirErrors();
    void listDirCap();

    void searchFiles_data();
    void searchFiles();
    void searchFilesErrors_data();
    void searchFilesErrors();
    void searchFilesCancel();
    void sensitiveFiles_data();
    void sensitiveFiles();
    void searchSkipsSensitiveFiles();

    void writeFile();
    void writeFileAtomic();
    void writeFileErrors_data();
    void writeFileErrors();

    void editFile();
    void editFileErrors_data();
    void editFileErrors();
    void editFileLineEndingsAndBom();

    void bashOutput();
    void bashExitCode();
    void bashErrors_data();
    void bashErrors();
    void bashTimeoutKillsGroup();
    void bashCancel();
    void bashBackgroundChildEnds();
    void bashHugeOutput();
    void bashEnvironment();
    void bashSandboxed();
    void bashSandboxEndsEverything();
    void bashSandboxAuto();
    void bashSandboxWithoutBubblewrap();

private:
    struct Call
    {
        std::shared_ptr<int> calls = std::make_shared<int>(0);
        std::shared_ptr<Engine::ToolOutput> output = std::make_shared<Engine::ToolOutput>();
        Engine::CancelHandle cancel;
        bool finished() const { return *calls > 0; }
    };

    Engine::Tool *tool(const QString &name) const;
    Call start(const QString &name, const Engine::Json &arguments, int timeoutMs = 60000);
    // Runs a tool to its end; std::nullopt when it did not finish within 20 s.
    std::optional<Engine::ToolOutput> run(const QString &name, const Engine::Json &arguments);
    QString path(const QString &relative) const { return m_ws + QLatin1Char('/') + relative; }
    void writeBytes(const QString &relative, const QByteArray &data);
    QByteArray readBytes(const QString &relative) const;

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_ws;      // the workspace (canonical)
    QString m_outside; // a sibling folder the tools must not reach
    std::shared_ptr<Engine::Workspace> m_workspace;
    std::vector<std::shared_ptr<Engine::Tool>> m_tools;
    // bash's sandbox, read at each call; Off unless a test says otherwise (in the sandbox,
    // the PIDs the process tests read are another namespace's).
    Mcp::Sandbox::Mode m_bashSandbox = Mcp::Sandbox::Mode::Off;
    QString m_sandboxProgram = QStringLiteral("bwrap");
};

namespace Engine {
struct ToolTestAccess
{
    static CancelHandle execute(Tool &tool, const Json &arguments, const ToolContext &context,
                                std::function<void(ToolOutput)> done)
    {
        return tool.execute(arguments, context, std::move(done));
    }
};
} // namespace Engine

using Engine::Json;
using Engine::ToolOutput;

namespace {

std::string utf8(const QString &text)
{
    return text.toStdString();
}

QString structuredString(const ToolOutput &output, const char *key)
{
    if (!output.structuredContent.is_object())
        return {};
    const Json value = output.structuredContent.value(key, Json());
    return value.is_string() ? QString::fromStdString(value.get<std::string>()) : QString();
}

#ifdef Q_OS_UNIX
qint64 inode(const QString &path)
{
    struct stat info
    {
    };
    if (::stat(QFile::encodeName(path).constData(), &info) != 0)
        return -1;
    return qint64(info.st_ino);
}
#endif

} // namespace

// ---------------------------------------------------------------------------------------
// Fixture: <tmp>/ws is the workspace, <tmp>/outside is beyond it.
//   ws/inside.txt, ws/sub/a.txt, ws/数据/文件.txt
//   ws/link_out_file -> outside/secret.txt      ws/link_out_dir -> outside
//   ws/link_in -> ws/inside.txt                 ws/link_in_dir -> ws/sub
//   ws/dangling_out -> outside/missing.txt

void TestBuiltinTools::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    const QString base = QFileInfo(m_dir->path()).canonicalFilePath();
    m_ws = base + QStringLiteral("/ws");
    m_outside = base + QStringLiteral("/outside");
    QVERIFY(QDir().mkpath(m_ws + QStringLiteral("/sub")));
    QVERIFY(QDir().mkpath(m_ws + QStringLiteral("/数据")));
    QVERIFY(QDir().mkpath(m_outside));
    writeBytes(QStringLiteral("inside.txt"), "inside\n");
    writeBytes(QStringLiteral("sub/a.txt"), "a\n");
    writeBytes(QStringLiteral("数据/文件.txt"), "数据\n");
    QFile secret(m_outside + QStringLiteral("/secret.txt"));
    QVERIFY(secret.open(QIODevice::WriteOnly));
    secret.write("secret\n");
    secret.close();
#ifdef Q_OS_UNIX
    QVERIFY(QFile::link(m_outside + QStringLiteral("/secret.txt"), path("link_out_file")));
    QVERIFY(QFile::link(m_outside, path("link_out_dir")));
    QVERIFY(QFile::link(path("inside.txt"), path("link_in")));
    QVERIFY(QFile::link(path("sub"), path("link_in_dir")));
    QVERIFY(QFile::link(m_outside + QStringLiteral("/missing.txt"), path("dangling_out")));
#endif
    m_workspace = std::make_shared<Engine::Workspace>(m_ws);
    QVERIFY(m_workspace->isValid());
    QCOMPARE(m_workspace->root(), m_ws);
    m_bashSandbox = Mcp::Sandbox::Mode::Off;
    m_sandboxProgram = QStringLiteral("bwrap");
    Engine::BuiltinToolsOptions options;
    options.bashSandbox = [this] {
        return m_bashSandbox;
    };
    m_tools = Engine::createBuiltinTools(m_workspace, options);
}

Engine::Tool *TestBuiltinTools::tool(const QString &name) const
{
    for (const auto &tool : m_tools) {
        if (tool->name() == name)
            return tool.get();
    }
    return nullptr;
}

TestBuiltinTools::Call TestBuiltinTools::start(const QString &name, const Json &arguments,
                                               int timeoutMs)
{
    Call call;
    Engine::Tool *target = tool(name);
    if (!target)
        return call; // never finishes: the caller's wait fails and names the test
    Engine::ToolContext context;
    context.workspace = m_ws;
    context.timeoutMs = timeoutMs;
    call.cancel = Engine::ToolTestAccess::execute(
            *target, arguments, context,
            [calls = call.calls, output = call.output](ToolOutput result) {
                ++*calls;
                *output = std::move(result);
            });
    return call;
}

std::optional<ToolOutput> TestBuiltinTools::run(const QString &name, const Json &arguments)
{
    const Call call = start(name, arguments);
    if (!QTest::qWaitFor([&] { return call.finished(); }, 20000))
        return std::nullopt;
    if (*call.calls != 1)
        return std::nullopt;
    return *call.output;
}

void TestBuiltinTools::writeBytes(const QString &relative, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path(relative)).absolutePath());
    QFile file(path(relative));
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(file.write(data), data.size());
}

QByteArray TestBuiltinTools::readBytes(const QString &relative) const
{
    QFile file(path(relative));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
}

// ---------------------------------------------------------------------------------------

void TestBuiltinTools::resolve_data()
{
    QTest::addColumn<QString>("input"); // $WS and $OUT stand for the fixture's folders
    QTest::addColumn<bool>("mustExist");
    QTest::addColumn<QString>("expected"); // relative to the workspace; empty: an error
    QTest::addColumn<QString>("errorPart");

    const QString outsideError = QStringLiteral("is outside the workspace");
    QTest::newRow("relative file") << "inside.txt" << true << "inside.txt"
                                   << "";
    QTest::newRow("root") << "." << true << "."
                          << "";
    QTest::newRow("dot slash") << "./sub/a.txt" << true << "sub/a.txt"
                               << "";
    QTest::newRow("dotdot inside") << "sub/../inside.txt" << true << "inside.txt"
                                   << "";
    QTest::newRow("dotdot out and back") << "../ws/inside.txt" << true << "inside.txt"
                                         << "";
    QTest::newRow("dotdot escape") << "../outside/secret.txt" << true << "" << outsideError;
    QTest::newRow("dotdot escape new") << "../new.txt" << false << "" << outsideError;
    QTest::newRow("deep dotdot escape") << "sub/../../../etc/passwd" << true << "" << outsideError;
    QTest::newRow("absolute inside") << "$WS/sub/a.txt" << true << "sub/a.txt"
                                     << "";
    QTest::newRow("absolute root") << "$WS" << true << "."
                                   << "";
    QTest::newRow("absolute outside") << "$OUT/secret.txt" << true << "" << outsideError;
    QTest::newRow("absolute system") << "/etc/passwd" << true << "" << outsideError;
    QTest::newRow("sibling prefix") << "$WS2/x" << false << "" << outsideError;
#ifdef Q_OS_UNIX
    QTest::newRow("symlink file out") << "link_out_file" << true << "" << outsideError;
    QTest::newRow("symlink dir out") << "link_out_dir" << true << "" << outsideError;
    QTest::newRow("through symlink dir out")
            << "link_out_dir/secret.txt" << true << "" << outsideError;
    QTest::newRow("new file in symlink dir out")
            << "link_out_dir/new.txt" << false << "" << outsideError;
    QTest::newRow("dangling symlink out") << "dangling_out" << false << ""
                                          << "symbolic link";
    QTest::newRow("symlink in") << "link_in" << true << "inside.txt"
                                << "";
    QTest::newRow("symlink dir in") << "link_in_dir/a.txt" << true << "sub/a.txt"
                                    << "";
    QTest::newRow("new file in symlink dir in") << "link_in_dir/new.txt" << false << "sub/new.txt"
                                                << "";
#endif
    QTest::newRow("nested new") << "new/deeper/file.txt" << false << "new/deeper/file.txt"
                                << "";
    QTest::newRow("nested new must exist") << "new/deeper/file.txt" << true << ""
                                           << "does not exist";
    QTest::newRow("below a file") << "inside.txt/x" << false << ""
                                  << "not a directory";
    QTest::newRow("NUL") << QString(QStringLiteral("inside.txt") + QChar(0) + QStringLiteral("x"))
                         << true << ""
                         << "NUL";
    QTest::newRow("empty") << "" << true << ""
                           << "empty";
    QTest::newRow("unicode") << QStringLiteral("数据/文件.txt") << true
                             << QStringLiteral("数据/文件.txt") << "";
    QTest::newRow("unicode new") << QStringLiteral("数据/新.txt") << false
                                 << QStringLiteral("数据/新.txt") << "";
}

void TestBuiltinTools::resolve()
{
    QFETCH(QString, input);
    QFETCH(bool, mustExist);
    QFETCH(QString, expected);
    QFETCH(QString, errorPart);
    input.replace(QLatin1String("$WS2"), m_ws + QLatin1Char('2'));
    input.replace(QLatin1String("$WS"), m_ws);
    input.replace(QLatin1String("$OUT"), m_outside);

    QString error;
    const auto resolved = m_workspace->resolve(input, &error, mustExist);
    if (expected.isEmpty()) {
        QVERIFY2(!resolved, qPrintable(resolved.value_or(QString())));
        QVERIFY2(error.contains(errorPart), qPrintable(error));
        if (errorPart.contains(QLatin1String("outside"))) // names the path and the workspace
            QCOMPARE(error,
                     QStringLiteral("path '%1' is outside the workspace %2").arg(input, m_ws));
    } else {
        QVERIFY2(resolved, qPrintable(error));
        QCOMPARE(m_workspace->displayPath(*resolved), expected);
        QVERIFY(m_workspace->contains(*resolved));
    }
}

void TestBuiltinTools::resolveWithoutRoot()
{
    const Engine::Workspace missing(m_ws + QStringLiteral("/no/such/folder"));
    QVERIFY(!missing.isValid());
    QString error;
    QVERIFY(!missing.resolve(QStringLiteral("x"), &error, false));
    QVERIFY2(error.contains(QLatin1String("does not exist")), qPrintable(error));
}

void TestBuiltinTools::definitions()
{
    const QMap<QString, Engine::Risk> expected{
            {QStringLiteral("read_file"), Engine::Risk::Read},
            {QStringLiteral("list_dir"), Engine::Risk::Read},
            {QStringLiteral("search_files"), Engine::Risk::Read},
            {QStringLiteral("write_file"), Engine::Risk::Mutating},
            {QStringLiteral("edit_file"), Engine::Risk::Mutating},
            {QStringLiteral("bash"), Engine::Risk::Dangerous}};
    QCOMPARE(int(m_tools.size()), expected.size());
    for (const auto &tool : m_tools) {
        QVERIFY2(expected.contains(tool->name()), qPrintable(tool->name()));
        QCOMPARE(tool->risk(), expected.value(tool->name()));
        QCOMPARE(tool->source(), QStringLiteral("builtin"));
        QVERIFY(tool->description().size() > 80);
        const Json schema = tool->inputSchema();
        QCOMPARE(schema.value("type", ""), std::string("object"));
        QVERIFY(schema.at("properties").is_object());
        for (const Json &required : schema.value("required", Json::array()))
            QVERIFY(schema.at("properties").contains(required.get<std::string>()));
    }
}

// ---------------------------------------------------------------------------------------

void TestBuiltinTools::modelText_data()
{
    QTest::addColumn<QString>("content"); // JSON array of content blocks
    QTest::addColumn<int>("maxChars");
    QTest::addColumn<QString>("expected");

    QTest::newRow("texts joined")
            << "[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"text\",\"text\":\"b\"}]" << 100
            << "a\nb";
    QTest::newRow("image") << "[{\"type\":\"image\",\"mimeType\":\"image/png\",\"data\":\"QUJD\"}]"
                           << 100 << "[image image/png, 4 bytes base64]";
    QTest::newRow("audio") << "[{\"type\":\"audio\",\"mimeType\":\"audio/wav\",\"data\":\"QQ==\"}]"
                           << 100 << "[audio audio/wav, 4 bytes base64]";
    QTest::newRow("resource link")
            << "[{\"type\":\"resource_link\",\"name\":\"readme\",\"uri\":\"file:///r.md\"}]" << 100
            << "[resource_link readme file:///r.md]";
    QTest::newRow("embedded text resource")
            << "[{\"type\":\"resource\",\"resource\":{\"uri\":\"file:///a\",\"text\":\"hi\"}}]"
            << 100 << "[resource file:///a]\nhi";
    QTest::newRow("embedded blob resource")
            << "[{\"type\":\"resource\",\"resource\":{\"uri\":\"file:///b\",\"mimeType\":"
               "\"application/zip\",\"blob\":\"QUJD\"}}]"
            << 100 << "[resource file:///b application/zip, 4 bytes base64]";
    QTest::newRow("unknown block")
            << "[{\"type\":\"hologram\"}, 5]" << 100 << "[hologram]\n[unknown content]";
    QTest::newRow("cut") << "[{\"type\":\"text\",\"text\":\"0123456789\"}]" << 4
                         << "0123\n… [cut: 6 more characters; the full output is in the UI]";
    QTest::newRow("cut keeps surrogate pairs whole")
            << QStringLiteral("[{\"type\":\"text\",\"text\":\"ab🎉cd\"}]") << 3
            << "ab\n… [cut: 4 more characters; the full output is in the UI]";
    QTest::newRow("exactly at the cap") << "[{\"type\":\"text\",\"text\":\"0123\"}]" << 4 << "0123";
    // Only the head of a long text is decoded; the count of what was cut is still exact.
    QTest::newRow("long two-byte text")
            << QStringLiteral("[{\"type\":\"text\",\"text\":\"%1\"}]").arg(QString(1000, u'é'))
            << 10
            << QString(10, u'é') + "\n… [cut: 990 more characters; the full output is in the UI]";
    QTest::newRow("long text of four-byte characters")
            << QStringLiteral("[{\"type\":\"text\",\"text\":\"%1\"}]")
                       .arg(QStringLiteral("🎉").repeated(100))
            << 5
            << QStringLiteral("🎉🎉\n… [cut: 196 more characters; the full output is in the UI]");
    QTest::newRow("blocks after the cut still count")
            << "[{\"type\":\"text\",\"text\":\"0123456789\"},{\"type\":\"text\",\"text\":\"abc\"}]"
            << 4 << "0123\n… [cut: 10 more characters; the full output is in the UI]";
    QTest::newRow("an empty first block keeps its line")
            << "[{\"type\":\"text\",\"text\":\"\"},{\"type\":\"text\",\"text\":\"b\"}]" << 100
            << "\nb";
}

void TestBuiltinTools::modelText()
{
    QFETCH(QString, content);
    QFETCH(int, maxChars);
    QFETCH(QString, expected);
    ToolOutput output;
    output.content = Json::parse(content.toStdString());
    QCOMPARE(output.modelText(maxChars), expected);

    const ToolOutput plain = ToolOutput::text(QStringLiteral("x"));
    QCOMPARE(plain.modelText(), QStringLiteral("x"));
    QVERIFY(!plain.isError);
    QVERIFY(ToolOutput::error(QStringLiteral("bad")).isError);
}

// ---------------------------------------------------------------------------------------

void TestBuiltinTools::readFile()
{
    writeBytes(QStringLiteral("three.txt"), "alpha\n\tbeta\r\ngamma");
    const auto output = run(QStringLiteral("read_file"), {{"path", "three.txt"}});
    QVERIFY(output);
    QVERIFY(!output->isError);
    QCOMPARE(output->modelText(), QStringLiteral("     1\talpha\n     2\t\tbeta\n     3\tgamma"));
    QCOMPARE(output->structuredContent.value("totalLines", 0), 3);

    writeBytes(QStringLiteral("empty.txt"), "");
    const auto empty = run(QStringLiteral("read_file"), {{"path", "empty.txt"}});
    QVERIFY(empty);
    QVERIFY(!empty->isError);
    QVERIFY2(empty->modelText().contains(QLatin1String("empty")), qPrintable(empty->modelText()));

    // A symlink inside the workspace to a file inside it is fine.
#ifdef Q_OS_UNIX
    const auto linked = run(QStringLiteral("read_file"), {{"path", "link_in"}});
    QVERIFY(linked);
    QCOMPARE(linked->modelText(), QStringLiteral("     1\tinside"));
#endif
}

void TestBuiltinTools::readFileWindow()
{
    QByteArray data;
    for (int i = 1; i <= 10; ++i)
        data += "line " + QByteArray::number(i) + '\n';
    writeBytes(QStringLiteral("ten.txt"), data);

    // Lenient with numbers as models send them: "3" and 2.0.
    const auto output = run(QStringLiteral("read_file"),
                            {{"path", "ten.txt"}, {"offset", "3"}, {"limit", 2.0}});
    QVERIFY(output);
    QVERIFY(!output->isError);
    QCOMPARE(output->modelText(),
             QStringLiteral("     3\tline 3\n     4\tline 4\n"
                            "[lines 3-4 of 10; call read_file with offset=5 to read more]"));

    const auto tail = run(QStringLiteral("read_file"), {{"path", "ten.txt"}, {"offset", 9}});
    QVERIFY(tail);
    QCOMPARE(tail->modelText(), QStringLiteral("     9\tline 9\n    10\tline 10"));
}

void TestBuiltinTools::readFileBudget()
{
    // 5000 lines of 100 characters: far more than the model should get at once.
    QByteArray data;
    for (int i = 0; i < 5000; ++i)
        data += QByteArray(99, 'x') + '\n';
    writeBytes(QStringLiteral("big.txt"), data);
    const auto output = run(QStringLiteral("read_file"), {{"path", "big.txt"}});
    QVERIFY(output);
    QVERIFY(!output->isError);
    const QString text = output->modelText();
    QVERIFY(text.size() <= ToolOutput::DefaultModelTextChars);
    QVERIFY2(!text.contains(QLatin1String("[cut:")), "read_file must stay under the model cap");
    QVERIFY2(text.contains(QLatin1String("of 5000; call read_file with offset=")),
             qPrintable(text.right(200)));

    // A very long line is cut, and says so.
    writeBytes(QStringLiteral("long.txt"), QByteArray(50000, 'y'));
    const auto longLine = run(QStringLiteral("read_file"), {{"path", "long.txt"}});
    QVERIFY(longLine);
    QVERIFY(longLine->modelText().contains(QLatin1String("[line cut: 48000 more characters]")));
}

void TestBuiltinTools::readFileErrors_data()
{
    QTest::addColumn<QString>("arguments");
    QTest::addColumn<QString>("errorPart");

    QTest::newRow("no path") << "{}"
                             << "'path' is required";
    QTest::newRow("path not a string") << "{\"path\": 5}"
                                       << "'path' must be a string";
    QTest::newRow("missing file") << "{\"path\": \"nope.txt\"}"
                                  << "does not exist";
    QTest::newRow("directory") << "{\"path\": \"sub\"}"
                               << "is a directory; use list_dir";
    QTest::newRow("binary") << "{\"path\": \"bin.dat\"}"
                            << "binary";
    QTest::newRow("too large") << "{\"path\": \"huge.txt\"}"
                               << "larger than the 10.0 MiB";
    QTest::newRow("offset past end") << "{\"path\": \"inside.txt\", \"offset\": 5}"
                                     << "offset 5 is past the end of 'inside.txt' (1 lines)";
    QTest::newRow("offset zero") << "{\"path\": \"inside.txt\", \"offset\": 0}"
                                 << "'offset' must be an integer";
    QTest::newRow("limit not a number") << "{\"path\": \"inside.txt\", \"limit\": \"many\"}"
                                        << "'limit' must be an integer";
    QTest::newRow("outside") << "{\"path\": \"../outside/secret.txt\"}"
                             << "outside the workspace";
#ifdef Q_OS_UNIX
    QTest::newRow("symlink out") << "{\"path\": \"link_out_file\"}"
                                 << "outside the workspace";
#endif
}

void TestBuiltinTools::readFileErrors()
{
    QFETCH(QString, arguments);
    QFETCH(QString, errorPart);
    writeBytes(QStringLiteral("bin.dat"), QByteArray("text\0more", 9));
    {
        // Sparse: the size check must refuse it before reading.
        QFile huge(path(QStringLiteral("huge.txt")));
        QVERIFY(huge.open(QIODevice::WriteOnly));
        QVERIFY(huge.resize(Engine::BuiltinLimits::MaxFileBytes + 1));
    }
    const auto output = run(QStringLiteral("read_file"), Json::parse(arguments.toStdString()));
    QVERIFY(output);
    QVERIFY(output->isError);
    QVERIFY2(output->modelText().contains(errorPart), qPrintable(output->modelText()));
    QVERIFY(!output->modelText().contains(QLatin1String("secret\n")));
}

void TestBuiltinTools::readFileUnicode()
{
    const QString name = QStringLiteral("ünïcødé/日本語 ファイル.txt");
    const QString content = QStringLiteral("héllo 世界 🎉\nzweite Zeile ß\n");
    writeBytes(name, content.toUtf8());
    const auto output = run(QStringLiteral("read_file"), {{"path", utf8(name)}});
    QVERIFY(output);
    QVERIFY(!output->isError);
    QCOMPARE(output->modelText(), QStringLiteral("     1\théllo 世界 🎉\n     2\tzweite Zeile ß"));
    QCOMPARE(structuredString(*output, "path"), name);
}

// ---------------------------------------------------------------------------------------

void TestBuiltinTools::listDir()
{
    writeBytes(QStringLiteral("Zeta.md"), "12345");
    writeBytes(QStringLiteral(".hidden"), "");
    QVERIFY(QDir().mkpath(path(QStringLiteral("Alpha"))));
    const auto output = run(QStringLiteral("list_dir"), Json::object());
    QVERIFY(output);
    QVERIFY(!output->isError);
    QStringList expected{QStringLiteral(". (11 entries)"), QStringLiteral("Alpha/"),
                         QStringLiteral("sub/"), QStringLiteral("数据/")};
    expected << QStringLiteral(".hidden  (0 bytes)");
#ifdef Q_OS_UNIX
    expected << QStringLiteral("dangling_out -> ") + m_outside + QStringLiteral("/missing.txt");
#endif
    expected << QStringLiteral("inside.txt  (7 bytes)");
#ifdef Q_OS_UNIX
    expected << QStringLiteral("link_in -> inside.txt") << QStringLiteral("link_in_dir -> sub")
             << QStringLiteral("link_out_dir -> ") + m_outside
             << QStringLiteral("link_out_file -> ") + m_outside + QStringLiteral("/secret.txt");
#endif
    expected << QStringLiteral("Zeta.md  (5 bytes)");
    QCOMPARE(output->modelText().split(QLatin1Char('\n')), expected);
    QCOMPARE(output->structuredContent.at("entries").size(), 11u);

    const auto sub = run(QStringLiteral("list_dir"), {{"path", "数据"}});
    QVERIFY(sub);
    QCOMPARE(sub->modelText(), QStringLiteral("数据 (1 entries)\n文件.txt  (7 bytes)"));
}

void TestBuiltinTools::listDirErrors()
{
    const auto file = run(QStringLiteral("list_dir"), {{"path", "inside.txt"}});
    QVERIFY(file);
    QVERIFY(file->isError);
    QVERIFY(file->modelText().contains(QLatin1String("use read_file")));

    const auto outside = run(QStringLiteral("list_dir"), {{"path", utf8(m_outside)}});
    QVERIFY(outside);
    QVERIFY(outside->isError);
    QVERIFY(outside->modelText().contains(QLatin1String("outside the workspace")));

#ifdef Q_OS_UNIX
    const auto link = run(QStringLiteral("list_dir"), {{"path", "link_out_dir"}});
    QVERIFY(link);
    QVERIFY(link->isError);
    QVERIFY(!link->modelText().contains(QLatin1String("secret")));
#endif
}

void TestBuiltinTools::listDirCap()
{
    const int extra = 5;
    for (int i = 0; i < Engine::BuiltinLimits::MaxListEntries + extra; ++i)
        writeBytes(QStringLiteral("many/f%1").arg(i, 5, 10, QLatin1Char('0')), "");
    const auto output = run(QStringLiteral("list_dir"), {{"path", "many"}});
    QVERIFY(output);
    QVERIFY(!output->isError);
    const QStringList lines = output->modelText().split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), Engine::BuiltinLimits::MaxListEntries + 2);
    QCOMPARE(lines.constLast(), QStringLiteral("[… 5 more entries not shown]"));
}

// ---------------------------------------------------------------------------------------

void TestBuiltinTools::searchFiles_data()
{
    QTest::addColumn<QString>("arguments");
    QTest::addColumn<QString>("expected");

    QTest::newRow("glob with **") << "{\"pattern\": \"src/**/*.cpp\"}"
                                  << "src/a.cpp\nsrc/deep/b.cpp";
    QTest::newRow("**/ matches zero directories") << "{\"pattern\": \"src/**/a.cpp\"}"
                                                  << "src/a.cpp";
    QTest::newRow("name at any depth skips generated dirs") << "{\"pattern\": \"*.cpp\"}"
                                                            << "bin.cpp\nsrc/a.cpp\nsrc/deep/b.cpp";
    QTest::newRow("braces") << "{\"pattern\": \"src/*.{h,cpp}\"}"
                            << "src/a.cpp\nsrc/c.h";
    QTest::newRow("question mark and class") << "{\"pattern\": \"src/?.[ch]*\"}"
                                             << "src/a.cpp\nsrc/c.h";
    QTest::newRow("explicit skipped dir") << "{\"pattern\": \"node_modules/**/*.cpp\"}"
                                          << "node_modules/x.cpp";
    QTest::newRow("no match") << "{\"pattern\": \"*.rs\"}"
                              << "No files match '*.rs'.";
    QTest::newRow("grep") << "{\"pattern\": \"**/*.cpp\", \"query\": \"TODO\"}"
                          << "src/a.cpp:2: // TODO fix\n[1 binary files skipped]";
    QTest::newRow("grep ignoring case")
            << "{\"pattern\": \"src/**\", \"query\": \"todo\", \"ignore_case\": true}"
            << "src/a.cpp:2: // TODO fix\nsrc/deep/b.cpp:1: // todo later";
    QTest::newRow("grep regex")
            << "{\"pattern\": \"src/**\", \"query\": \"^int\\\\s+main\", \"regex\": true}"
            << "src/a.cpp:1: int main() {}";
    QTest::newRow("grep no hit") << "{\"pattern\": \"src/*.h\", \"query\": \"zebra\"}"
                                 << "No lines match 'zebra' in the 1 files matching 'src/*.h'.";
    QTest::newRow("max results")
            << "{\"pattern\": \"src/**\", \"query\": \"o\", \"ignore_case\": true, "
               "\"max_results\": 1}"
            << "src/a.cpp:2: // TODO fix\n[stopped at 1 results; narrow the pattern or the "
               "query to see the rest]";
    QTest::newRow("unicode") << QStringLiteral("{\"pattern\": \"数据/*\", \"query\": \"数\"}")
                             << QStringLiteral("数据/文件.txt:1: 数据");
    // Paths are data, never format strings.
    QTest::newRow("percent in a name") << "{\"pattern\": \"src/*.txt\", \"query\": \"hit\"}"
                                       << "src/p%2%1.txt:1: hit";
    QTest::newRow("absolute pattern inside") << "{\"pattern\": \"$WS/src/*.h\"}"
                                             << "src/c.h";
#ifdef Q_OS_UNIX
    // Symlinks: a symlinked file inside counts, the ones leading outside do not, and
    // symlinked directories are not followed.
    QTest::newRow("symlinks")
            << "{\"pattern\": \"**/*\", \"query\": \"inside\"}"
            << "inside.txt:1: inside\nlink_in:1: inside\n[1 binary files skipped]";
#endif
}

void TestBuiltinTools::searchFiles()
{
    QFETCH(QString, arguments);
    QFETCH(QString, expected);
    arguments.replace(QLatin1String("$WS"), m_ws);
    writeBytes(QStringLiteral("src/a.cpp"), "int main() {}\n// TODO fix\n");
    writeBytes(QStringLiteral("src/deep/b.cpp"), "// todo later\n");
    writeBytes(QStringLiteral("src/c.h"), "#pragma once\n");
    writeBytes(QStringLiteral("src/p%2%1.txt"), "hit\n");
    writeBytes(QStringLiteral("node_modules/x.cpp"), "// TODO vendored\n");
    writeBytes(QStringLiteral("build/gen.cpp"), "// TODO generated\n");
    writeBytes(QStringLiteral("out/CMakeCache.txt"), "");
    writeBytes(QStringLiteral("out/gen2.cpp"), "// TODO generated\n");
    writeBytes(QStringLiteral(".git/hook.cpp"), "// TODO git\n");
    writeBytes(QStringLiteral("bin.cpp"), QByteArray("TODO\0binary", 11));

    const auto output = run(QStringLiteral("search_files"), Json::parse(arguments.toStdString()));
    QVERIFY(output);
    QVERIFY2(!output->isError, qPrintable(output->modelText()));
    QCOMPARE(output->modelText(), expected);
}

void TestBuiltinTools::searchFilesErrors_data()
{
    QTest::addColumn<QString>("arguments");
    QTest::addColumn<QString>("errorPart");

    QTest::newRow("no pattern") << "{}"
                                << "'pattern' is required";
    QTest::newRow("empty pattern") << "{\"pattern\": \"./\"}"
                                   << "'pattern' is empty";
    QTest::newRow("bad regex") << "{\"pattern\": \"*\", \"query\": \"(\", \"regex\": true}"
                               << "not a valid regular expression";
    QTest::newRow("outside") << "{\"pattern\": \"../outside/*.txt\"}"
                             << "outside the workspace";
    QTest::newRow("absolute outside") << "{\"pattern\": \"/etc/*\"}"
                                      << "outside the workspace";
    QTest::newRow("too many results") << "{\"pattern\": \"*\", \"max_results\": 100000}"
                                      << "'max_results' must be an integer from 1 to 1000";
    QTest::newRow("missing base") << "{\"pattern\": \"nope/*.cpp\"}"
                                  << "does not exist";
}

void TestBuiltinTools::searchFilesErrors()
{
    QFETCH(QString, arguments);
    QFETCH(QString, errorPart);
    const auto output = run(QStringLiteral("search_files"), Json::parse(arguments.toStdString()));
    QVERIFY(output);
    QVERIFY(output->isError);
    QVERIFY2(output->modelText().contains(errorPart), qPrintable(output->modelText()));
}

void TestBuiltinTools::sensitiveFiles_data()
{
    QTest::addColumn<QString>("relative");
    QTest::addColumn<QString>("match"); // empty: not sensitive
    QTest::newRow(".env") << ".env"
                          << ".env*";
    QTest::newRow(".env.local") << "config/.env.local"
                                << ".env*";
    QTest::newRow("in .ssh") << "home/.ssh/config"
                             << ".ssh/";
    QTest::newRow("gnupg") << ".gnupg/pubring.kbx"
                           << ".gnupg/";
    QTest::newRow("aws") << ".aws/credentials"
                         << ".aws/";
    QTest::newRow("netrc") << ".netrc"
                           << ".netrc";
    QTest::newRow("pem") << "certs/server.pem"
                         << "*.pem";
    QTest::newRow("key") << "tls.key"
                         << "*.key";
    QTest::newRow("id_rsa") << "keys/id_rsa"
                            << "id_*";
    // Credentials the first list missed (an inbound A2A task's read-only tools read them).
    QTest::newRow("git remote token") << ".git/config"
                                      << ".git/config";
    QTest::newRow("nested git config") << "vendor/lib/.git/config"
                                       << ".git/config";
    QTest::newRow("git-credentials") << ".git-credentials"
                                     << ".git-credentials";
    QTest::newRow("npmrc") << ".npmrc"
                           << ".npmrc";
    QTest::newRow("pypirc") << ".pypirc"
                            << ".pypirc";
    QTest::newRow("docker") << ".docker/config.json"
                            << ".docker/";
    QTest::newRow("kube") << ".kube/config"
                          << ".kube/";
    QTest::newRow("p12") << "certs/client.p12"
                         << "*.p12";
    QTest::newRow("pfx") << "client.pfx"
                         << "*.pfx";
    QTest::newRow("credentials") << "gcloud/credentials.db"
                                 << "credentials*";
    QTest::newRow("tfstate") << "infra/terraform.tfstate"
                             << "*.tfstate*";
    QTest::newRow("tfstate backup") << "terraform.tfstate.backup"
                                    << "*.tfstate*";
    QTest::newRow("git objects") << ".git/HEAD"
                                 << "";
    QTest::newRow("a config elsewhere") << "src/config"
                                        << "";
    QTest::newRow("source") << "src/main.cpp"
                            << "";
    QTest::newRow("readme") << "README.md"
                            << "";
    QTest::newRow("environment.md") << "docs/environment.md"
                                    << "";
}

void TestBuiltinTools::sensitiveFiles()
{
    QFETCH(QString, relative);
    QFETCH(QString, match);
    writeBytes(relative, "x");
    QVERIFY(QDir(m_ws).mkpath(QStringLiteral("sub")));
    QCOMPARE(m_workspace->sensitiveMatch(path(relative)).value_or(QString()), match);
    QVERIFY(!m_workspace->sensitiveMatch(m_ws));
    // Outside the workspace (an attachment dropped from elsewhere) every component counts;
    // inside, the same answer as above.
    QCOMPARE(m_workspace->sensitiveMatchAnywhere(QStringLiteral("/elsewhere/") + relative)
                     .value_or(QString()),
             match);
    QCOMPARE(m_workspace->sensitiveMatchAnywhere(path(relative)).value_or(QString()), match);
    // read_file asks about exactly those, also through a path with "..".
    const Json arguments{{"path", utf8(QStringLiteral("sub/../") + relative)}};
    const auto reason
            = tool(QStringLiteral("read_file"))->approvalReason(arguments, Engine::ToolContext());
    QCOMPARE(reason.has_value(), !match.isEmpty());
    if (reason)
        QVERIFY2(reason->contains(match), qPrintable(*reason));
    // list_dir asks about a sensitive folder, not about the one holding it.
    const QString folder = QFileInfo(relative).path();
    const auto listReason
            = tool(QStringLiteral("list_dir"))
                      ->approvalReason(Json{{"path", utf8(folder)}}, Engine::ToolContext());
    QCOMPARE(listReason.has_value(), m_workspace->sensitiveMatch(path(folder)).has_value());
    // A user list replaces the defaults.
    m_workspace->setSensitivePatterns({QStringLiteral("*.md")});
    QVERIFY(m_workspace->sensitiveMatch(path(QStringLiteral("README.md"))));
    QVERIFY(!m_workspace->sensitiveMatch(path(QStringLiteral(".env"))));
    m_workspace->setSensitivePatterns(Engine::Workspace::defaultSensitivePatterns());
}

// search_files does not look inside a sensitive file unless the call says include_sensitive
// (which makes the call ask for approval first); it says how many it skipped.
void TestBuiltinTools::searchSkipsSensitiveFiles()
{
    writeBytes(QStringLiteral(".env"), "TOKEN=needle-secret\n");
    writeBytes(QStringLiteral("keys/id_ed25519"), "needle-key\n");
    writeBytes(QStringLiteral(".npmrc"), "//registry.example/:_authToken=needle-npm-token\n");
    writeBytes(QStringLiteral("src/a.txt"), "needle-plain\n");
    const Json plain{{"pattern", "**/*"}, {"query", "needle"}};
    Engine::Tool *search = tool(QStringLiteral("search_files"));
    QVERIFY(!search->approvalReason(plain, Engine::ToolContext()));
    const auto skipped = run(QStringLiteral("search_files"), plain);
    QVERIFY(skipped);
    const QString text = skipped->modelText();
    QVERIFY2(text.contains(QStringLiteral("needle-plain")), qPrintable(text));
    QVERIFY2(!text.contains(QStringLiteral("needle-secret")), qPrintable(text));
    QVERIFY2(!text.contains(QStringLiteral("needle-key")), qPrintable(text));
    QVERIFY2(!text.contains(QStringLiteral("needle-npm-token")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("[3 files that may hold secrets")), qPrintable(text));
    Json asked = plain;
    asked["include_sensitive"] = true;
    QVERIFY(search->approvalReason(asked, Engine::ToolContext()));
    const auto all = run(QStringLiteral("search_files"), asked);
    QVERIFY(all);
    QVERIFY2(all->modelText().contains(QStringLiteral("needle-secret")),
             qPrintable(all->modelText()));
    QVERIFY(all->modelText().contains(QStringLiteral("needle-key")));
}

void TestBuiltinTools::searchFilesCancel()
{
    for (int i = 0; i < 200; ++i)
        writeBytes(QStringLiteral("tree/d%1/f.txt").arg(i), "needle\n");
    Call call
            = start(QStringLiteral("search_files"), {{"pattern", "**/*.txt"}, {"query", "needle"}});
    QVERIFY(!call.finished()); // a search never answers inside execute()
    call.cancel();
    QTRY_VERIFY(call.finished());
    QVERIFY(call.output->isError);
    QVERIFY(call.output->modelText().contains(QLatin1String("cancelled")));
    // The same search, not cancelled, walks the same tree in slices taking turns with any the
    // cancelled one still had queued: by its end, that one would have ended (again) too.
    const auto whole
            = run(QStringLiteral("search_files"), {{"pattern", "**/*.txt"}, {"query", "needle"}});
    QVERIFY(whole && !whole->isError);
    QCOMPARE(*call.calls, 1);
}

// ---------------------------------------------------------------------------------------

void TestBuiltinTools::writeFile()
{
    const QString content = QStringLiteral("первая строка\nzweite 🎉\n");
    const auto created = run(QStringLiteral("write_file"),
                             {{"path", "new/deeper/файл.txt"}, {"content", utf8(content)}});
    QVERIFY(created);
    QVERIFY2(!created->isError, qPrintable(created->modelText()));
    QCOMPARE(created->modelText(),
             QStringLiteral("Created new/deeper/файл.txt (%1 bytes, 2 lines).")
                     .arg(content.toUtf8().size()));
    QCOMPARE(readBytes(QStringLiteral("new/deeper/файл.txt")), content.toUtf8());

    // Through a symlink inside the workspace: the target is written.
#ifdef Q_OS_UNIX
    const auto linked = run(QStringLiteral("write_file"), {{"path", "link_in"}, {"content", "x"}});
    QVERIFY(linked);
    QVERIFY(!linked->isError);
    QCOMPARE(readBytes(QStringLiteral("inside.txt")), QByteArray("x"));
    QVERIFY(QFileInfo(path(QStringLiteral("link_in"))).isSymLink());
#endif
    const auto empty = run(QStringLiteral("write_file"), {{"path", "empty.txt"}, {"content", ""}});
    QVERIFY(empty);
    QVERIFY(!empty->isError);
    QCOMPARE(QFileInfo(path(QStringLiteral("empty.txt"))).size(), 0);
}

void TestBuiltinTools::writeFileAtomic()
{
    writeBytes(QStringLiteral("dir/target.sh"), "old content\n");
#ifdef Q_OS_UNIX
    QVERIFY(QFile::setPermissions(path(QStringLiteral("dir/target.sh")),
                                  QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    const qint64 before = inode(path(QStringLiteral("dir/target.sh")));
#endif
    const auto output = run(QStringLiteral("write_file"),
                            {{"path", "dir/target.sh"}, {"content", "new content\n"}});
    QVERIFY(output);
    QVERIFY(!output->isError);
    QVERIFY(output->modelText().startsWith(QLatin1String("Replaced dir/target.sh")));
    QCOMPARE(readBytes(QStringLiteral("dir/target.sh")), QByteArray("new content\n"));
    // Nothing left beside it (no temporary file).
    QCOMPARE(QDir(path(QStringLiteral("dir")))
                     .entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
             QStringList{QStringLiteral("target.sh")});
#ifdef Q_OS_UNIX
    // A new inode: the content was renamed into place, never written over the old file, so
    // no reader ever sees half of it. Permissions carry over.
    QVERIFY(inode(path(QStringLiteral("dir/target.sh"))) != before);
    QVERIFY(QFileInfo(path(QStringLiteral("dir/target.sh"))).permission(QFile::ExeOwner));
#endif

    // A write that fails leaves nothing behind.
    const auto failed = run(QStringLiteral("write_file"),
                            {{"path", "inside.txt/child.txt"}, {"content", "x"}});
    QVERIFY(failed);
    QVERIFY(failed->isError);
    QCOMPARE(readBytes(QStringLiteral("inside.txt")), QByteArray("inside\n"));
}

void TestBuiltinTools::writeFileErrors_data()
{
    QTest::addColumn<QString>("arguments");
    QTest::addColumn<QString>("errorPart");
    QTest::addColumn<QString>("mustNotExist"); // absolute, $OUT for the outside folder

    QTest::newRow("no content") << "{\"path\": \"x.txt\"}"
                                << "'content' is required"
                                << "";
    QTest::newRow("directory") << "{\"path\": \"sub\", \"content\": \"x\"}"
                               << "is a directory"
                               << "";
    QTest::newRow("dotdot") << "{\"path\": \"../outside/new.txt\", \"content\": \"x\"}"
                            << "outside the workspace"
                            << "$OUT/new.txt";
    QTest::newRow("absolute outside") << "{\"path\": \"$OUT/new2.txt\", \"content\": \"x\"}"
                                      << "outside the workspace"
                                      << "$OUT/new2.txt";
#ifdef Q_OS_UNIX
    QTest::newRow("symlink dir out") << "{\"path\": \"link_out_dir/new.txt\", \"content\": \"x\"}"
                                     << "outside the workspace"
                                     << "$OUT/new.txt";
    QTest::newRow("symlink file out") << "{\"path\": \"link_out_file\", \"content\": \"x\"}"
                                      << "outside the workspace"
                                      << "";
    QTest::newRow("dangling symlink out") << "{\"path\": \"dangling_out\", \"content\": \"x\"}"
                                          << "symbolic link"
                                          << "$OUT/missing.txt";
#endif
}

void TestBuiltinTools::writeFileErrors()
{
    QFETCH(QString, arguments);
    QFETCH(QString, errorPart);
    QFETCH(QString, mustNotExist);
    arguments.replace(QLatin1String("$OUT"), m_outside);
    mustNotExist.replace(QLatin1String("$OUT"), m_outside);
    const auto output = run(QStringLiteral("write_file"), Json::parse(arguments.toStdString()));
    QVERIFY(output);
    QVERIFY(output->isError);
    QVERIFY2(output->modelText().contains(errorPart), qPrintable(output->modelText()));
    if (!mustNotExist.isEmpty())
        QVERIFY(!QFileInfo::exists(mustNotExist));
    QFile secret(m_outside + QStringLiteral("/secret.txt"));
    QVERIFY(secret.open(QIODevice::ReadOnly));
    QCOMPARE(secret.readAll(), QByteArray("secret\n"));
}

// ---------------------------------------------------------------------------------------

void TestBuiltinTools::editFile()
{
    writeBytes(QStringLiteral("code%1.cpp"), "x\n");
    const auto percent = run(QStringLiteral("edit_file"),
                             {{"path", "code%1.cpp"}, {"old_string", "x"}, {"new_string", "y"}});
    QVERIFY(percent);
    QCOMPARE(percent->modelText(),
             QStringLiteral("Edited code%1.cpp: replaced 1 occurrence(s), the first at line 1."));

    writeBytes(QStringLiteral("code.cpp"), "int a = 1;\nint b = 2;\nint a2 = 1;\n");
    const auto unique = run(QStringLiteral("edit_file"), {{"path", "code.cpp"},
                                                          {"old_string", "int b = 2;"},
                                                          {"new_string", "int b = 3; // ß"}});
    QVERIFY(unique);
    QVERIFY2(!unique->isError, qPrintable(unique->modelText()));
    QCOMPARE(unique->modelText(),
             QStringLiteral("Edited code.cpp: replaced 1 occurrence(s), the first at line 2."));
    QCOMPARE(readBytes(QStringLiteral("code.cpp")),
             QString(QStringLiteral("int a = 1;\nint b = 3; // ß\nint a2 = 1;\n")).toUtf8());

    const auto all = run(QStringLiteral("edit_file"), {{"path", "code.cpp"},
                                                       {"old_string", " = 1;"},
                                                       {"new_string", " = 0;"},
                                                       {"replace_all", true}});
    QVERIFY(all);
    QVERIFY(!all->isError);
    QVERIFY(all->modelText().contains(QLatin1String("replaced 2 occurrence(s)")));
    QCOMPARE(readBytes(QStringLiteral("code.cpp")),
             QString(QStringLiteral("int a = 0;\nint b = 3; // ß\nint a2 = 0;\n")).toUtf8());
}

void TestBuiltinTools::editFileErrors_data()
{
    QTest::addColumn<QString>("arguments");
    QTest::addColumn<QString>("errorPart");

    QTest::newRow("not found")
            << "{\"path\": \"e.txt\", \"old_string\": \"zebra\", \"new_string\": \"x\"}"
            << "'old_string' was not found in 'e.txt'";
    QTest::newRow("not unique")
            << "{\"path\": \"e.txt\", \"old_string\": \"same\", \"new_string\": \"x\"}"
            << "'old_string' occurs 2 times in 'e.txt'";
    QTest::newRow("not unique, replace_all false")
            << "{\"path\": \"e.txt\", \"old_string\": \"same\", \"new_string\": \"x\", "
               "\"replace_all\": false}"
            << "occurs 2 times";
    QTest::newRow("empty old")
            << "{\"path\": \"e.txt\", \"old_string\": \"\", \"new_string\": \"x\"}"
            << "'old_string' is empty";
    QTest::newRow("no change")
            << "{\"path\": \"e.txt\", \"old_string\": \"same\", \"new_string\": \"same\"}"
            << "are the same";
    QTest::newRow("no new_string") << "{\"path\": \"e.txt\", \"old_string\": \"same\"}"
                                   << "'new_string' is required";
    QTest::newRow("missing file")
            << "{\"path\": \"nope.txt\", \"old_string\": \"a\", \"new_string\": \"b\"}"
            << "does not exist";
    QTest::newRow("binary")
            << "{\"path\": \"bin.dat\", \"old_string\": \"a\", \"new_string\": \"b\"}"
            << "binary";
    QTest::newRow("invalid utf-8")
            << "{\"path\": \"latin1.txt\", \"old_string\": \"caf\", \"new_string\": \"b\"}"
            << "not valid UTF-8";
    QTest::newRow("outside") << "{\"path\": \"../outside/secret.txt\", \"old_string\": \"secret\", "
                                "\"new_string\": \"b\"}"
                             << "outside the workspace";
#ifdef Q_OS_UNIX
    QTest::newRow("symlink out")
            << "{\"path\": \"link_out_file\", \"old_string\": \"secret\", \"new_string\": \"b\"}"
            << "outside the workspace";
#endif
}

void TestBuiltinTools::editFileErrors()
{
    QFETCH(QString, arguments);
    QFETCH(QString, errorPart);
    const QByteArray original = "same\nsame\n";
    writeBytes(QStringLiteral("e.txt"), original);
    writeBytes(QStringLiteral("bin.dat"), QByteArray("a\0b", 3));
    writeBytes(QStringLiteral("latin1.txt"), "caf\xe9\n");
    const auto output = run(QStringLiteral("edit_file"), Json::parse(arguments.toStdString()));
    QVERIFY(output);
    QVERIFY(output->isError);
    QVERIFY2(output->modelText().contains(errorPart), qPrintable(output->modelText()));
    QCOMPARE(readBytes(QStringLiteral("e.txt")), original);
    QCOMPARE(readBytes(QStringLiteral("latin1.txt")), QByteArray("caf\xe9\n"));
    QFile secret(m_outside + QStringLiteral("/secret.txt"));
    QVERIFY(secret.open(QIODevice::ReadOnly));
    QCOMPARE(secret.readAll(), QByteArray("secret\n"));
}

void TestBuiltinTools::editFileLineEndingsAndBom()
{
    // A model writes "\n"; the file has "\r\n" and a BOM: both survive the edit.
    writeBytes(QStringLiteral("win.txt"), "\xEF\xBB\xBFone\r\ntwo\r\nthree\r\n");
    const auto output
            = run(QStringLiteral("edit_file"),
                  {{"path", "win.txt"}, {"old_string", "one\ntwo"}, {"new_string", "one\n2\n2b"}});
    QVERIFY(output);
    QVERIFY2(!output->isError, qPrintable(output->modelText()));
    QCOMPARE(readBytes(QStringLiteral("win.txt")),
             QByteArray("\xEF\xBB\xBFone\r\n2\r\n2b\r\nthree\r\n"));
}

// ---------------------------------------------------------------------------------------

void TestBuiltinTools::bashOutput()
{
    const auto output
            = run(QStringLiteral("bash"),
                  {{"command", "echo out; echo err >&2; pwd; printf 'héllo 世界\\n'; cat"}});
    QVERIFY(output);
    QVERIFY2(!output->isError, qPrintable(output->modelText()));
    QCOMPARE(output->modelText(),
             QStringLiteral("out\nerr\n%1\nhéllo 世界\n[exit code 0]").arg(m_ws));
    QCOMPARE(structuredString(*output, "output"),
             QStringLiteral("out\nerr\n%1\nhéllo 世界\n").arg(m_ws));
    QCOMPARE(output->structuredContent.value("exitCode", -1), 0);

    const auto silent = run(QStringLiteral("bash"), {{"command", "true"}});
    QVERIFY(silent);
    QCOMPARE(silent->modelText(), QStringLiteral("(no output)\n[exit code 0]"));
}

void TestBuiltinTools::bashExitCode()
{
    const auto output = run(QStringLiteral("bash"), {{"command", "echo failing; exit 3"}});
    QVERIFY(output);
    QVERIFY(output->isError);
    QCOMPARE(output->modelText(), QStringLiteral("failing\n[exit code 3]"));
    QCOMPARE(output->structuredContent.value("exitCode", -1), 3);
}

void TestBuiltinTools::bashErrors_data()
{
    QTest::addColumn<QString>("arguments");
    QTest::addColumn<QString>("errorPart");
    QTest::newRow("no command") << "{}"
                                << "'command' is required";
    QTest::newRow("blank command") << "{\"command\": \"  \"}"
                                   << "'command' is empty";
    QTest::newRow("timeout zero") << "{\"command\": \"true\", \"timeout_ms\": 0}"
                                  << "'timeout_ms' must be an integer from 1 to 600000";
    QTest::newRow("timeout too long") << "{\"command\": \"true\", \"timeout_ms\": 600001}"
                                      << "'timeout_ms' must be an integer";
}

void TestBuiltinTools::bashErrors()
{
    QFETCH(QString, arguments);
    QFETCH(QString, errorPart);
    const auto output = run(QStringLiteral("bash"), Json::parse(arguments.toStdString()));
    QVERIFY(output);
    QVERIFY(output->isError);
    QVERIFY2(output->modelText().contains(errorPart), qPrintable(output->modelText()));
}

void TestBuiltinTools::bashTimeoutKillsGroup()
{
#ifndef Q_OS_UNIX
    QSKIP("process groups are POSIX");
#endif
    QElapsedTimer clock;
    clock.start();
    // The tool's default timeout comes from the context; here the argument overrides it.
    const Call call = start(
            QStringLiteral("bash"),
            {{"command", "sh -c 'sleep 100 & echo $! > child.pid; wait'"}, {"timeout_ms", 700}});
    QTRY_VERIFY_WITH_TIMEOUT(call.finished(), 10000);
    QVERIFY(clock.elapsed() < 10000);
    QCOMPARE(*call.calls, 1);
    QVERIFY(call.output->isError);
    QVERIFY2(call.output->modelText().contains(QLatin1String("[timed out after 700 ms")),
             qPrintable(call.output->modelText()));
    QCOMPARE(call.output->structuredContent.value("timedOut", false), true);
    const qint64 child = readBytes(QStringLiteral("child.pid")).trimmed().toLongLong();
    QVERIFY(child > 0);
    QTRY_VERIFY(!processAlive(child));

    // Without the argument, the context's timeout applies.
    const Call byContext = start(QStringLiteral("bash"), {{"command", "sleep 100"}}, 300);
    QTRY_VERIFY_WITH_TIMEOUT(byContext.finished(), 10000);
    QVERIFY(byContext.output->modelText().contains(QLatin1String("[timed out after 300 ms")));
}

void TestBuiltinTools::bashCancel()
{
#ifndef Q_OS_UNIX
    QSKIP("process groups are POSIX");
#endif
    Call call = start(QStringLiteral("bash"),
                      {{"command", "sleep 100 & echo $! > cancel.pid; wait"}});
    QTRY_VERIFY(!readBytes(QStringLiteral("cancel.pid")).trimmed().isEmpty()
                && readBytes(QStringLiteral("cancel.pid")) != "<missing>");
    const qint64 child = readBytes(QStringLiteral("cancel.pid")).trimmed().toLongLong();
    QVERIFY(processAlive(child));
    QVERIFY(!call.finished());
    call.cancel();
    QTRY_VERIFY_WITH_TIMEOUT(call.finished(), 10000);
    QVERIFY(call.output->isError);
    QVERIFY(call.output->modelText().contains(QLatin1String("[cancelled")));
    QTRY_VERIFY(!processAlive(child));
    call.cancel();                  // after the end: harmless
    QVERIFY(deliverPostedEvents()); // a second answer would be posted
    QCOMPARE(*call.calls, 1);
}

void TestBuiltinTools::bashBackgroundChildEnds()
{
#ifndef Q_OS_UNIX
    QSKIP("process groups are POSIX");
#endif
    // The command returns at once, leaving a background sleep that holds the output pipe.
    const auto output = run(QStringLiteral("bash"),
                            {{"command", "sleep 100 & echo $! > bg.pid; echo started"}});
    QVERIFY(output);
    QVERIFY(!output->isError);
    QVERIFY(output->modelText().startsWith(QLatin1String("started\n")));
    const qint64 child = readBytes(QStringLiteral("bg.pid")).trimmed().toLongLong();
    QVERIFY(child > 0);
    QTRY_VERIFY(!processAlive(child));
}

void TestBuiltinTools::bashHugeOutput()
{
    // 200,000 numbered lines (~1.3 MB): far over the model's share, all of it for the UI.
    const auto output = run(QStringLiteral("bash"), {{"command", "seq 1 200000; echo END"}});
    QVERIFY(output);
    QVERIFY(!output->isError);
    const QString text = output->modelText();
    QVERIFY(text.size() <= ToolOutput::DefaultModelTextChars);
    QVERIFY(text.startsWith(QLatin1String("1\n2\n3\n")));
    QVERIFY(text.endsWith(QLatin1String("199999\n200000\nEND\n[exit code 0]")));
    QVERIFY(text.contains(QLatin1String("characters in the middle; the full output is in the UI")));
    const QString whole = structuredString(*output, "output");
    QCOMPARE(whole.count(QLatin1Char('\n')), 200001);
    QVERIFY(whole.startsWith(QLatin1String("1\n2\n")));
    QVERIFY(whole.endsWith(QLatin1String("200000\nEND\n")));
}

void TestBuiltinTools::bashEnvironment()
{
    qputenv("OPENAI_API_KEY", "sk-bash-secret-for-test");
    qputenv("ANTHROPIC_API_KEY", "sk-ant-bash-secret-for-test");
    qputenv("SB_TEST_UNLISTED", "unlisted");
    const auto output = run(QStringLiteral("bash"), {{"command", "env"}});
    qunsetenv("OPENAI_API_KEY");
    qunsetenv("ANTHROPIC_API_KEY");
    qunsetenv("SB_TEST_UNLISTED");
    QVERIFY(output);
    QVERIFY(!output->isError);
    const QString env = QLatin1Char('\n') + structuredString(*output, "output");
    QVERIFY2(env.contains(QLatin1String("\nPATH=")), qPrintable(env));
    QVERIFY(env.contains(QLatin1String("\nHOME=")));
    QVERIFY(env.contains(QLatin1String("\nPAGER=cat\n")));
    QVERIFY(!env.contains(QLatin1String("API_KEY")));
    QVERIFY(!env.contains(QLatin1String("bash-secret")));
    QVERIFY(!env.contains(QLatin1String("SB_TEST_UNLISTED")));
}

namespace {
// Whether any process runs `sleep <marker>` (a PID from inside a PID namespace means nothing
// outside it, so the sandboxed tests look for the command line instead).
bool sleepRunning(const QString &marker)
{
    const QByteArray wanted = QByteArray("sleep\0", 6) + marker.toLatin1() + QByteArray(1, 0);
    const QStringList pids = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
    for (const QString &pid : pids) {
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (cmdline.open(QIODevice::ReadOnly) && cmdline.readAll() == wanted)
            return true;
    }
    return false;
}
} // namespace

void TestBuiltinTools::bashSandboxed()
{
#ifndef Q_OS_LINUX
    QSKIP("bubblewrap is Linux-only");
#endif
    SKIP_UNLESS_SANDBOX();
    // Outside the workspace and not under /tmp (private in the sandbox, so a write there would
    // vanish rather than fail).
    QTemporaryDir outside(QDir::currentPath() + QStringLiteral("/bash-outside-XXXXXX"));
    QVERIFY(outside.isValid());
    const QString outsideFile = outside.filePath(QStringLiteral("OUTSIDE"));
    const QString homeFile = QDir::home().filePath(
            QStringLiteral("switchboard-bash-sandbox-%1").arg(QCoreApplication::applicationPid()));

    m_bashSandbox = Mcp::Sandbox::Mode::On;
    auto output = run(QStringLiteral("bash"), {{"command", "touch inside && echo made"}});
    QVERIFY(output);
    QVERIFY2(!output->isError, qPrintable(output->modelText()));
    QVERIFY(QFileInfo::exists(path(QStringLiteral("inside"))));
    for (const QString &target : {outsideFile, homeFile}) {
        output = run(QStringLiteral("bash"), {{"command", utf8("touch '" + target + "'")}});
        QVERIFY(output);
        QVERIFY2(output->isError, qPrintable(output->modelText()));
        // (A $HOME under /tmp would be missing in there rather than read-only.)
        QVERIFY2(target == homeFile
                         || output->modelText().contains(QLatin1String("Read-only file system")),
                 qPrintable(output->modelText()));
        QVERIFY(!QFileInfo::exists(target));
    }
    // The same command without the sandbox: the check above can fail.
    m_bashSandbox = Mcp::Sandbox::Mode::Off;
    output = run(QStringLiteral("bash"), {{"command", utf8("touch '" + outsideFile + "'")}});
    QVERIFY(output && !output->isError);
    QVERIFY(QFileInfo::exists(outsideFile));
}

void TestBuiltinTools::bashSandboxEndsEverything()
{
#ifndef Q_OS_LINUX
    QSKIP("bubblewrap is Linux-only");
#endif
    SKIP_UNLESS_SANDBOX();
    m_bashSandbox = Mcp::Sandbox::Mode::On;
    const QString marker = QString::number(4000 + QCoreApplication::applicationPid() % 1000);
    // A background child left behind, then one killed by the timeout.
    auto output = run(QStringLiteral("bash"),
                      {{"command", utf8("sleep " + marker + " & echo started")}});
    QVERIFY(output && !output->isError);
    QTRY_VERIFY(!sleepRunning(marker));
    const Call call = start(
            QStringLiteral("bash"),
            {{"command", utf8("sh -c 'sleep " + marker + " & wait'")}, {"timeout_ms", 1000}});
    QTRY_VERIFY(sleepRunning(marker));
    QTRY_VERIFY_WITH_TIMEOUT(call.finished(), 10000);
    QVERIFY(call.output->modelText().contains(QLatin1String("[timed out after 1000 ms")));
    QTRY_VERIFY(!sleepRunning(marker));
}

void TestBuiltinTools::bashSandboxAuto()
{
#ifndef Q_OS_LINUX
    QSKIP("bubblewrap is Linux-only");
#endif
    SKIP_UNLESS_SANDBOX();
    QTemporaryDir outside(QDir::currentPath() + QStringLiteral("/bash-auto-XXXXXX"));
    QVERIFY(outside.isValid());
    const QString target = outside.filePath(QStringLiteral("OUTSIDE"));
    const Json touch = {{"command", utf8("touch '" + target + "'")}};

    // Where bwrap works, auto is on.
    m_bashSandbox = Mcp::Sandbox::Mode::Auto;
    auto output = run(QStringLiteral("bash"), touch);
    QVERIFY(output && output->isError);
    QVERIFY(!QFileInfo::exists(target));

    // Where it does not, auto runs the command as it is.
    Engine::BuiltinToolsOptions options;
    options.bashSandbox = [] {
        return Mcp::Sandbox::Mode::Auto;
    };
    options.sandboxProgram = QStringLiteral("/nonexistent/bwrap");
    m_tools = Engine::createBuiltinTools(m_workspace, options);
    output = run(QStringLiteral("bash"), touch);
    QVERIFY(output);
    QVERIFY2(!output->isError, qPrintable(output->modelText()));
    QVERIFY(QFileInfo::exists(target));
}

void TestBuiltinTools::bashSandboxWithoutBubblewrap()
{
    Engine::BuiltinToolsOptions options;
    options.bashSandbox = [] {
        return Mcp::Sandbox::Mode::On;
    };
    options.sandboxProgram = QStringLiteral("/nonexistent/bwrap");
    m_tools = Engine::createBuiltinTools(m_workspace, options);
    const auto output = run(QStringLiteral("bash"), {{"command", "touch never-made"}});
    QVERIFY(output);
    QVERIFY(output->isError);
    QVERIFY2(output->modelText().contains(QLatin1String("bubblewrap")),
             qPrintable(output->modelText()));
    QVERIFY(!QFileInfo::exists(path(QStringLiteral("never-made"))));

    // A bwrap that cannot make namespaces (what it says where user namespaces are disabled).
    const QString fake = m_outside + QStringLiteral("/fake-bwrap");
    QFile script(fake);
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write("#!/bin/sh\necho 'bwrap: No permissions to creating new namespace'\nexit 1\n");
    script.close();
    QVERIFY(script.setPermissions(QFileDevice::ReadOwner | QFileDevice::ExeOwner));
    options.sandboxProgram = fake;
    m_tools = Engine::createBuiltinTools(m_workspace, options);
    const auto failed = run(QStringLiteral("bash"), {{"command", "touch never-made"}});
    QVERIFY(failed);
    QVERIFY(failed->isError);
    QVERIFY2(failed->modelText().contains(QLatin1String("bubblewrap (bwrap) could not set up")),
             qPrintable(failed->modelText()));
    QVERIFY(!QFileInfo::exists(path(QStringLiteral("never-made"))));
}

QTEST_GUILESS_MAIN(TestBuiltinTools)
#include "tst_builtintools.moc"
