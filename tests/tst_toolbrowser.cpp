#include "postedevents.h"
#include <engine/approval/approval.h>
#include <engine/approval/toolrunner.h>
#include <engine/tools/toolregistry.h>
#include <ui/resultviewer.h>
#include <ui/schemaform.h>
#include <ui/serverbrowsers.h>
#include <ui/toolbrowser.h>

#include "jsontest.h"

#include <QBuffer>
#include <QCheckBox>
#include <QComboBox>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalSpy>
#include <QTest>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>

using namespace Engine;

class tst_ToolBrowser : public QObject
{
    Q_OBJECT

private slots:
    void schemaForm_values_data();
    void schemaForm_values();
    void schemaForm_editing();
    void schemaForm_invalidJsonNamesField();
    void schemaForm_requiredMissing();
    void schemaForm_rangeChecked();
    void schemaForm_noArguments();
    void schemaForm_fixtureServerSchemas();
    void browser_searchFilters();
    void browser_selectShowsForm();
    void browser_runShowsTextAndImage();
    void browser_readToolRunsWithoutAsking();
    void browser_bigResultIsPreviewed();
    void browser_manualRunIsTheApproval();
    void browser_cancel();
    void browser_escapeStepsOutBeforeClosing();
    void skills_emptyStateSaysWhy();
    void browser_followsRegistry();
    void browser_badArgumentsDoNotRun();
};

namespace {

Json parse(const char *text)
{
    return Json::parse(text);
}

// A 16×8 PNG, so the test can tell the decoded pixmap from an empty one by its size.
QString pngBase64()
{
    QImage image(16, 8, QImage::Format_RGB32);
    image.fill(Qt::red);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return QString::fromLatin1(bytes.toBase64());
}

// A tool with a given schema and risk that answers with a text block echoing its arguments
// and an image block, or (hang) waits until cancelled. Counts runs.
class FakeTool : public Tool
{
public:
    FakeTool(QString name, Risk risk, QString source, Json schema, QString description = {})
        : m_name(std::move(name))
        , m_risk(risk)
        , m_source(std::move(source))
        , m_schema(std::move(schema))
        , m_description(std::move(description))
    {
    }
    QString name() const override { return m_name; }
    QString description() const override { return m_description; }
    Json inputSchema() const override { return m_schema; }
    Risk risk() const override { return m_risk; }
    QString source() const override { return m_source; }
    bool isBuiltin() const override { return m_source == QLatin1String("builtin"); }
    QString originalName() const override { return m_name.section(QStringLiteral("__"), -1); }
    Json hints() const override { return isBuiltin() ? Json() : Json{{"readOnlyHint", true}}; }
    int runs = 0;
    bool hang = false;
    bool cancelled = false;
    Json lastArguments;
    std::optional<ToolOutput> output; // returned instead of the echo when set

protected:
    CancelHandle execute(const Json &arguments, const ToolContext &,
                         std::function<void(ToolOutput)> done) override
    {
        ++runs;
        lastArguments = arguments;
        if (hang)
            return [this] {
                cancelled = true;
            };
        if (this->output) {
            done(*this->output);
            return {};
        }
        ToolOutput output = ToolOutput::text(QStringLiteral("echo: ")
                                             + QString::fromStdString(arguments.dump()));
        output.content.push_back({{"type", "image"},
                                  {"mimeType", "image/png"},
                                  {"data", pngBase64().toStdString()}});
        output.structuredContent = {{"ok", true}};
        done(output);
        return {};
    }

private:
    QString m_name;
    Risk m_risk;
    QString m_source;
    Json m_schema;
    QString m_description;
};

// Counts the questions, answers with a fixed decision.
class CountingGate : public ApprovalGate
{
public:
    explicit CountingGate(ApprovalChoice choice)
        : m_gate(ApprovalDecision{choice, QStringLiteral("test says no")})
    {
    }
    void requestApproval(const ApprovalRequest &request,
                         std::function<void(ApprovalDecision)> decide) override
    {
        ++asked;
        m_gate.requestApproval(request, std::move(decide));
    }
    int asked = 0;

private:
    FixedApprovalGate m_gate;
};

// Everything the result view shows as text, in order.
QStringList resultTexts(const QWidget *browser)
{
    QStringList texts;
    const auto view = browser->findChild<QScrollArea *>(QStringLiteral("resultView"));
    for (QWidget *w : view->widget()->findChildren<QWidget *>()) {
        if (auto label = qobject_cast<QLabel *>(w); label && !label->text().isEmpty())
            texts << label->text();
        else if (auto edit = qobject_cast<QPlainTextEdit *>(w))
            texts << edit->toPlainText();
    }
    return texts;
}

const char *const EchoSchema = "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":"
                               "\"string\",\"description\":\"What to echo\"}},"
                               "\"required\":[\"text\"]}";

struct Fixture
{
    Fixture(ApprovalChoice choice = ApprovalChoice::AllowOnce)
        : gate(choice)
        , runner(&registry, &gate, QStringLiteral("/tmp"))
    {
        echo = std::make_shared<FakeTool>(QStringLiteral("mcp__fix__echo"), Risk::Mutating,
                                          QStringLiteral("fix"), parse(EchoSchema),
                                          QStringLiteral("Echoes the text back."));
        add = std::make_shared<FakeTool>(
                QStringLiteral("mcp__fix__add"), Risk::Read, QStringLiteral("fix"),
                parse("{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"number\"},"
                      "\"b\":{\"type\":\"number\"}},\"required\":[\"a\",\"b\"]}"),
                QStringLiteral("Adds two numbers."));
        readFile = std::make_shared<FakeTool>(
                QStringLiteral("read_file"), Risk::Read, QStringLiteral("builtin"),
                parse("{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}}}"),
                QStringLiteral("Reads a file in the workspace."));
        shell = std::make_shared<FakeTool>(QStringLiteral("run_command"), Risk::Dangerous,
                                           QStringLiteral("builtin"), Json{{"type", "object"}},
                                           QStringLiteral("Runs a shell command."));
        registry.add(readFile);
        registry.add(shell);
        registry.add(echo);
        registry.add(add);
    }
    CountingGate gate;
    ToolRegistry registry;
    ToolRunner runner;
    std::shared_ptr<FakeTool> echo, add, readFile, shell;
};

// The item of the tool with registry name `name` (MCP tools show their own name).
QTreeWidgetItem *findItem(QTreeWidget *tree, const QString &name)
{
    for (QTreeWidgetItemIterator it(tree); *it; ++it) {
        if ((*it)->data(0, Qt::UserRole).toString() == name)
            return *it;
    }
    return nullptr;
}

} // namespace

void tst_ToolBrowser::schemaForm_values_data()
{
    QTest::addColumn<QString>("schema");
    QTest::addColumn<QString>("expected");

    QTest::newRow("defaults pre-filled")
            << "{\"type\":\"object\",\"properties\":{"
               "\"s\":{\"type\":\"string\",\"default\":\"hi\"},"
               "\"n\":{\"type\":\"number\",\"default\":1.5},"
               "\"i\":{\"type\":\"integer\",\"default\":3,\"minimum\":0,\"maximum\":10},"
               "\"b\":{\"type\":\"boolean\",\"default\":false},"
               "\"e\":{\"type\":\"string\",\"enum\":[\"x\",\"y\"],\"default\":\"y\"},"
               "\"a\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"default\":[\"u\"]},"
               "\"o\":{\"type\":\"object\",\"default\":{\"k\":1}}}}"
            << "{\"a\":[\"u\"],\"b\":false,\"e\":\"y\",\"i\":3,\"n\":1.5,\"o\":{\"k\":1},"
               "\"s\":\"hi\"}";
    QTest::newRow("empty optionals omitted")
            << "{\"type\":\"object\",\"properties\":{"
               "\"s\":{\"type\":\"string\"},\"n\":{\"type\":\"number\"},"
               "\"i\":{\"type\":\"integer\"},\"b\":{\"type\":\"boolean\"},"
               "\"e\":{\"enum\":[1,2]},\"a\":{\"type\":\"array\"},\"o\":{}}}"
            << "{}";
    QTest::newRow("required enum takes its first value")
            << "{\"type\":\"object\",\"properties\":{\"level\":{\"type\":\"string\","
               "\"enum\":[\"debug\",\"info\"]}},\"required\":[\"level\"]}"
            << "{\"level\":\"debug\"}";
    QTest::newRow("required boolean is sent unchecked")
            << "{\"type\":\"object\",\"properties\":{\"force\":{\"type\":\"boolean\"}},"
               "\"required\":[\"force\"]}"
            << "{\"force\":false}";
    QTest::newRow("nullable string")
            << "{\"type\":\"object\",\"properties\":{\"s\":{\"type\":[\"string\",\"null\"],"
               "\"default\":\"v\"}}}"
            << "{\"s\":\"v\"}";
    // server-everything's annotatedMessage and longRunningOperation.
    QTest::newRow("everything annotatedMessage")
            << "{\"type\":\"object\",\"properties\":{\"messageType\":{\"type\":\"string\","
               "\"enum\":[\"error\",\"success\",\"debug\"]},\"includeImage\":{\"type\":"
               "\"boolean\",\"default\":false}},\"required\":[\"messageType\"]}"
            << "{\"includeImage\":false,\"messageType\":\"error\"}";
    QTest::newRow("everything longRunningOperation")
            << "{\"type\":\"object\",\"properties\":{\"duration\":{\"type\":\"number\","
               "\"default\":10},\"steps\":{\"type\":\"number\",\"default\":5}}}"
            << "{\"duration\":10,\"steps\":5}";
}

void tst_ToolBrowser::schemaForm_values()
{
    QFETCH(QString, schema);
    QFETCH(QString, expected);
    Gui::SchemaForm form(Json::parse(schema.toStdString()));
    QString error = QStringLiteral("unset");
    const Json values = form.values(&error);
    QCOMPARE(error, QString());
    QCOMPARE(QString::fromStdString(values.dump()),
             QString::fromStdString(Json::parse(expected.toStdString()).dump()));
}

void tst_ToolBrowser::schemaForm_editing()
{
    Gui::SchemaForm form(parse("{\"type\":\"object\",\"properties\":{"
                               "\"name\":{\"type\":\"string\",\"description\":\"Who\"},"
                               "\"content\":{\"type\":\"string\"},"
                               "\"ratio\":{\"type\":\"number\"},"
                               "\"count\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":100},"
                               "\"verbose\":{\"type\":\"boolean\"},"
                               "\"mode\":{\"type\":\"string\",\"enum\":[\"fast\",\"slow\"]},"
                               "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}},"
                               "\"required\":[\"name\"]}"));
    // Required first, then alphabetical.
    QCOMPARE(form.properties(),
             (QStringList{"name", "content", "count", "mode", "ratio", "tags", "verbose"}));
    QVERIFY(qobject_cast<QLineEdit *>(form.editor("name")));
    QCOMPARE(form.editor("name")->toolTip(), QStringLiteral("Who"));
    QVERIFY(qobject_cast<QPlainTextEdit *>(form.editor("content")));
    QVERIFY(qobject_cast<QCheckBox *>(form.editor("verbose")));
    QVERIFY(qobject_cast<QComboBox *>(form.editor("mode")));
    QVERIFY(qobject_cast<QPlainTextEdit *>(form.editor("tags")));
    // The required mark is on the label.
    bool marked = false;
    for (QLabel *label : form.findChildren<QLabel *>())
        marked = marked || label->text() == QLatin1String("name *");
    QVERIFY(marked);

    QSignalSpy edited(&form, &Gui::SchemaForm::edited);
    static_cast<QLineEdit *>(form.editor("name"))->setText("Ada");
    static_cast<QPlainTextEdit *>(form.editor("content"))->setPlainText("line 1\nline 2");
    static_cast<QLineEdit *>(form.editor("ratio"))->setText("0.25");
    static_cast<QLineEdit *>(form.editor("count"))->setText("42");
    static_cast<QCheckBox *>(form.editor("verbose"))->setChecked(true);
    static_cast<QComboBox *>(form.editor("mode"))->setCurrentIndex(2); // after "(not set)"
    static_cast<QPlainTextEdit *>(form.editor("tags"))->setPlainText("[\"a\", \"b\"]");
    QVERIFY(edited.count() >= 7);

    QString error;
    const Json values = form.values(&error);
    QCOMPARE(error, QString());
    QCOMPARE_JSON(values, parse("{\"name\":\"Ada\",\"content\":\"line 1\\nline 2\",\"ratio\":0.25,"
                                "\"count\":42,\"verbose\":true,\"mode\":\"slow\","
                                "\"tags\":[\"a\",\"b\"]}"));
    QVERIFY(values["count"].is_number_integer());
}

void tst_ToolBrowser::schemaForm_invalidJsonNamesField()
{
    Gui::SchemaForm form(parse("{\"type\":\"object\",\"properties\":{"
                               "\"a\":{\"type\":\"string\"},\"params\":{\"type\":\"object\"}}}"));
    auto edit = qobject_cast<QPlainTextEdit *>(form.editor("params"));
    QVERIFY(edit);
    edit->setPlainText("{\"x\": ");
    QString error;
    QVERIFY(form.values(&error).is_null());
    QVERIFY2(error.contains("'params'"), qPrintable(error));
    QVERIFY2(error.contains("JSON"), qPrintable(error));
    // Shown live under the field too.
    bool shown = false;
    for (QLabel *label : form.findChildren<QLabel *>())
        shown = shown || (label->isVisibleTo(&form) && label->text().contains("not valid JSON"));
    QVERIFY(shown);

    edit->setPlainText("[1]"); // valid JSON, wrong type
    QVERIFY(form.values(&error).is_null());
    QVERIFY2(error.contains("'params'") && error.contains("object"), qPrintable(error));

    edit->setPlainText("{\"x\": 1}");
    QCOMPARE_JSON(form.values(&error), parse("{\"params\":{\"x\":1}}"));
    QCOMPARE(error, QString());
}

void tst_ToolBrowser::schemaForm_requiredMissing()
{
    Gui::SchemaForm form(parse(EchoSchema));
    QString error;
    QVERIFY(form.values(&error).is_null());
    QVERIFY2(error.contains("'text'") && error.contains("required"), qPrintable(error));
}

void tst_ToolBrowser::schemaForm_rangeChecked()
{
    Gui::SchemaForm form(parse("{\"type\":\"object\",\"properties\":{\"ms\":{\"type\":\"integer\","
                               "\"minimum\":0,\"maximum\":1000}}}"));
    auto edit = static_cast<QLineEdit *>(form.editor("ms"));
    QString error;
    edit->setText("-1");
    QVERIFY(form.values(&error).is_null());
    QVERIFY2(error.contains("'ms'") && error.contains("at least 0"), qPrintable(error));
    edit->setText("1001");
    QVERIFY(form.values(&error).is_null());
    QVERIFY2(error.contains("at most 1000"), qPrintable(error));
    edit->setText("2.5");
    QVERIFY(form.values(&error).is_null());
    QVERIFY2(error.contains("whole number"), qPrintable(error));
    edit->setText("abc");
    QVERIFY(form.values(&error).is_null());
    edit->setText(" 250 ");
    QCOMPARE_JSON(form.values(&error), parse("{\"ms\":250}"));
}

void tst_ToolBrowser::schemaForm_noArguments()
{
    Gui::SchemaForm form(Json{{"type", "object"}});
    QVERIFY(form.properties().isEmpty());
    QCOMPARE_JSON(form.values(), Json::object());
    form.setSchema(nullptr); // garbage from a server must not crash the form
    QCOMPARE_JSON(form.values(), Json::object());
}

// Every schema the fixture server lists builds a form whose fields are the schema's
// properties; an empty form either passes or names a required field.
void tst_ToolBrowser::schemaForm_fixtureServerSchemas()
{
    QProcess server;
    server.start(QStringLiteral(SWITCHBOARD_FIXTURE_SERVER), {});
    QVERIFY(server.waitForStarted());
    server.write("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n");
    server.closeWriteChannel();
    QVERIFY(server.waitForFinished(10000));
    const Json reply = Json::parse(server.readAllStandardOutput().trimmed().toStdString());
    const Json &tools = reply["result"]["tools"];
    QVERIFY(tools.size() >= 10);
    for (const Json &tool : tools) {
        const QString name = QString::fromStdString(tool["name"].get<std::string>());
        const Json &schema = tool["inputSchema"];
        Gui::SchemaForm form(schema);
        QStringList expected;
        for (auto it = schema["properties"].begin(); it != schema["properties"].end(); ++it)
            expected << QString::fromStdString(it.key());
        QStringList shown = form.properties();
        shown.sort();
        QCOMPARE(shown, expected);
        QString error;
        const Json values = form.values(&error);
        if (schema.contains("required") && !schema["required"].empty()) {
            QVERIFY2(values.is_null(), qPrintable(name));
            bool named = false;
            for (const Json &field : schema["required"])
                named = named
                        || error.contains(QStringLiteral("'%1'").arg(
                                QString::fromStdString(field.get<std::string>())));
            QVERIFY2(named, qPrintable(name + ": " + error));
        } else {
            QVERIFY2(values.is_object() && values.empty(), qPrintable(name + ": " + error));
        }
    }
}

void tst_ToolBrowser::browser_searchFilters()
{
    Fixture f;
    Gui::ToolBrowser browser(&f.registry, &f.runner);
    auto tree = browser.findChild<QTreeWidget *>("toolTree");
    auto search = browser.findChild<QLineEdit *>("searchEdit");
    QVERIFY(tree && search);

    // Built-ins first, then the server.
    QCOMPARE(tree->topLevelItemCount(), 2);
    QCOMPARE(tree->topLevelItem(0)->childCount(), 2);
    QVERIFY(tree->topLevelItem(1)->text(0).contains("fix"));
    QCOMPARE(tree->topLevelItem(1)->childCount(), 2);
    QTreeWidgetItem *echo = findItem(tree, "mcp__fix__echo");
    QTreeWidgetItem *add = findItem(tree, "mcp__fix__add");
    QTreeWidgetItem *readFile = findItem(tree, "read_file");
    QTreeWidgetItem *shell = findItem(tree, "run_command");
    QVERIFY(echo && add && readFile && shell);
    // Risk colours: read green, mutating amber, dangerous red.
    const QColor green = add->foreground(1).color(), amber = echo->foreground(1).color(),
                 red = shell->foreground(1).color();
    QVERIFY(green.green() > green.red());
    QVERIFY(amber.red() > amber.blue() && amber.green() > amber.blue());
    QVERIFY(red.red() > red.green() && amber.green() > red.green());
    // Narrow, a name keeps its end ("everything-ht…" said nothing of which server), and each
    // row's tip has the whole of it.
    QCOMPARE(tree->textElideMode(), Qt::ElideMiddle);
    QCOMPARE(tree->topLevelItem(1)->toolTip(0), tree->topLevelItem(1)->text(0));
    QVERIFY2(echo->toolTip(0).startsWith(echo->text(0) + QLatin1Char('\n')),
             qPrintable(echo->toolTip(0)));

    search->setText("ECHO");
    QVERIFY(!echo->isHidden());
    QVERIFY(add->isHidden());
    QVERIFY(tree->topLevelItem(0)->isHidden()); // no built-in matches
    QVERIFY(!tree->topLevelItem(1)->isHidden());

    search->setText("workspace"); // matches a description
    QVERIFY(!readFile->isHidden());
    QVERIFY(shell->isHidden());
    QVERIFY(echo->isHidden());

    search->setText("no such tool");
    QVERIFY(tree->topLevelItem(0)->isHidden() && tree->topLevelItem(1)->isHidden());

    search->clear();
    QVERIFY(!echo->isHidden() && !add->isHidden() && !readFile->isHidden() && !shell->isHidden());
}

void tst_ToolBrowser::browser_selectShowsForm()
{
    Fixture f;
    Gui::ToolBrowser browser(&f.registry, &f.runner);
    auto tree = browser.findChild<QTreeWidget *>("toolTree");
    auto form = browser.findChild<Gui::SchemaForm *>("schemaForm");
    auto run = browser.findChild<QPushButton *>("runButton");
    QVERIFY(form && run);
    QVERIFY(!run->isEnabled());            // nothing selected
    QVERIFY(!form->isVisibleTo(&browser)); // no "takes no arguments" for no tool at all

    tree->setCurrentItem(findItem(tree, "mcp__fix__echo"));
    QCOMPARE(browser.selectedTool(), QStringLiteral("mcp__fix__echo"));
    QVERIFY(form->isVisibleTo(&browser));
    QCOMPARE(form->properties(), QStringList{"text"});
    QVERIFY(run->isEnabled());
    auto schemaView = browser.findChild<QPlainTextEdit *>("schemaView");
    QVERIFY(schemaView->isReadOnly());
    QVERIFY(schemaView->toPlainText().contains("\"required\""));
    QStringList labels;
    for (QLabel *label : browser.findChildren<QLabel *>())
        labels << label->text();
    const QString all = labels.join('\n');
    QVERIFY(all.contains("Echoes the text back."));
    QVERIFY(all.contains("untrusted"));
    QVERIFY(all.contains("readOnlyHint"));
    QVERIFY(all.contains("mutating"));
    QVERIFY(all.contains("Name at source: echo"));

    QVERIFY(browser.selectTool("mcp__fix__add"));
    QCOMPARE(form->properties(), (QStringList{"a", "b"}));
    QVERIFY(!browser.selectTool("nope"));
}

void tst_ToolBrowser::browser_runShowsTextAndImage()
{
    Fixture f;
    Gui::ToolBrowser browser(&f.registry, &f.runner);
    browser.resize(1000, 700);
    browser.show();
    QVERIFY(browser.selectTool("mcp__fix__echo"));
    auto form = browser.findChild<Gui::SchemaForm *>("schemaForm");
    static_cast<QLineEdit *>(form->editor("text"))->setText("hello");
    auto run = browser.findChild<QPushButton *>("runButton");
    QSignalSpy done(&browser, &Gui::ToolBrowser::runFinished);

    run->click();
    QVERIFY(!run->isEnabled()); // one run at a time
    QVERIFY(browser.isRunning());
    QTRY_COMPARE(done.count(), 1);
    QCOMPARE(done.at(0).at(0).toBool(), false);
    QVERIFY(run->isEnabled());
    QCOMPARE(f.gate.asked, 0); // mutating, but the person pressed Run: nobody asks again
    QCOMPARE(f.echo->runs, 1);
    QCOMPARE_JSON(f.echo->lastArguments, parse("{\"text\":\"hello\"}"));

    const QStringList texts = resultTexts(&browser);
    QVERIFY2(texts.contains("echo: {\"text\":\"hello\"}"), qPrintable(texts.join('|')));
    QVERIFY2(texts.join('\n').contains("\"ok\": true"), qPrintable(texts.join('|'))); // structured
    auto image = browser.findChild<QLabel *>("resultImage");
    QVERIFY(image);
    QVERIFY(image->isVisibleTo(&browser));
    QCOMPARE(image->pixmap().size(), QSize(16, 8));
    QCOMPARE(image->pixmap().toImage().pixelColor(3, 3), QColor(Qt::red));

    QVERIFY(browser.grab().save("/tmp/toolbrowser.png"));
}

// 20 MB of text and 2 MB of structured content: the result view holds previews only; the
// whole of each is one click away.
void tst_ToolBrowser::browser_bigResultIsPreviewed()
{
    Fixture f;
    std::string big;
    for (int i = 0; big.size() < 20 * 1024 * 1024; ++i)
        big += "line " + std::to_string(i) + " of the big result\n";
    ToolOutput output;
    output.content = Json::array({Json{{"type", "text"}, {"text", big}}});
    Json rows = Json::array();
    for (int i = 0; i < 100000; ++i)
        rows.push_back({{"row", i}, {"name", "structured row"}});
    output.structuredContent = {{"rows", rows}};
    f.echo->output = output;
    Gui::ToolBrowser browser(&f.registry, &f.runner);
    browser.resize(1000, 700);
    browser.show();
    QVERIFY(browser.selectTool("mcp__fix__echo"));
    auto form = browser.findChild<Gui::SchemaForm *>("schemaForm");
    static_cast<QLineEdit *>(form->editor("text"))->setText("big");
    QSignalSpy done(&browser, &Gui::ToolBrowser::runFinished);
    browser.findChild<QPushButton *>("runButton")->click();
    QTRY_COMPARE(done.count(), 1);

    const auto view = browser.findChild<QScrollArea *>(QStringLiteral("resultView"));
    for (auto *edit : view->widget()->findChildren<QPlainTextEdit *>())
        QVERIFY(edit->document()->characterCount() <= Gui::PreviewBytes + 1);
    const auto buttons = view->widget()->findChildren<QPushButton *>("openWholeResult");
    QCOMPARE(buttons.size(), 2);
    buttons.at(0)->click();
    auto *viewer = browser.findChild<Gui::ResultViewer *>();
    QVERIFY(viewer);
    QVERIFY(viewer->pageCount() >= 80);
    QVERIFY(viewer->pageText().startsWith("line 0 of the big result"));
    viewer->close();
}

void tst_ToolBrowser::browser_readToolRunsWithoutAsking()
{
    Fixture f(ApprovalChoice::Deny); // would refuse, if asked
    Gui::ToolBrowser browser(&f.registry, &f.runner);
    QVERIFY(browser.selectTool("mcp__fix__add"));
    auto form = browser.findChild<Gui::SchemaForm *>("schemaForm");
    static_cast<QLineEdit *>(form->editor("a"))->setText("2");
    static_cast<QLineEdit *>(form->editor("b"))->setText("3.5");
    QSignalSpy done(&browser, &Gui::ToolBrowser::runFinished);
    browser.findChild<QPushButton *>("runButton")->click();
    QTRY_COMPARE(done.count(), 1);
    QCOMPARE(f.gate.asked, 0);
    QCOMPARE(f.add->runs, 1);
    QCOMPARE_JSON(f.add->lastArguments, parse("{\"a\":2,\"b\":3.5}"));
}

// Running a tool by hand asks no approval for what the person just typed, whatever its risk:
// the gate here would refuse, and is never asked. An error the tool returns shows in red.
void tst_ToolBrowser::browser_manualRunIsTheApproval()
{
    Fixture f(ApprovalChoice::Deny);
    f.shell->output = ToolOutput::error(QStringLiteral("exit status 2"));
    Gui::ToolBrowser browser(&f.registry, &f.runner);
    QVERIFY(browser.selectTool("run_command"));
    QSignalSpy done(&browser, &Gui::ToolBrowser::runFinished);
    browser.findChild<QPushButton *>("runButton")->click();
    QTRY_COMPARE(done.count(), 1);
    QCOMPARE(f.gate.asked, 0);
    QCOMPARE(f.shell->runs, 1);
    QVERIFY(resultTexts(&browser).join('\n').contains("exit status 2"));
    bool red = false;
    for (QLabel *label : browser.findChild<QScrollArea *>("resultView")->findChildren<QLabel *>())
        red = red || label->styleSheet().contains("#c62828");
    QVERIFY(red);

    // Picking another tool leaves no result of the last one on screen.
    QVERIFY(browser.selectTool("mcp__fix__add"));
    QVERIFY(resultTexts(&browser).isEmpty());
    QVERIFY(browser.findChild<QLabel *>("statusLabel")->text().isEmpty());
}

// Esc stops a run (as in the chat), clears the filter, leaves a field being typed in (what was
// typed stays); only then does it close the browser.
void tst_ToolBrowser::browser_escapeStepsOutBeforeClosing()
{
    Fixture f;
    f.readFile->hang = true;
    Gui::ToolBrowser browser(&f.registry, &f.runner);
    browser.show();
    browser.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&browser));
    QVERIFY(browser.selectTool("mcp__fix__echo"));
    auto *text = qobject_cast<QLineEdit *>(
            browser.findChild<Gui::SchemaForm *>("schemaForm")->editor("text"));
    QVERIFY(text);
    text->setFocus();
    QTest::keyClicks(text, "half typed");
    QTest::keyClick(text, Qt::Key_Escape);
    QVERIFY(browser.isVisible());
    QCOMPARE(text->text(), QStringLiteral("half typed"));
    QVERIFY(!text->hasFocus());

    auto *search = browser.findChild<QLineEdit *>("searchEdit");
    search->setFocus();
    QTest::keyClicks(search, "ech");
    QTest::keyClick(search, Qt::Key_Escape);
    QVERIFY(browser.isVisible());
    QVERIFY(search->text().isEmpty());

    QVERIFY(browser.selectTool("read_file"));
    QSignalSpy done(&browser, &Gui::ToolBrowser::runFinished);
    browser.findChild<QPushButton *>("runButton")->click();
    QTRY_COMPARE(f.readFile->runs, 1);
    QTest::keyClick(browser.findChild<QTreeWidget *>("toolTree"), Qt::Key_Escape);
    QCOMPARE(done.count(), 1);
    QVERIFY(f.readFile->cancelled);
    QVERIFY(browser.isVisible());

    QTest::keyClick(browser.findChild<QTreeWidget *>("toolTree"), Qt::Key_Escape);
    QTRY_VERIFY(!browser.isVisible());
}

// The Skills page without a server that offers skills says so instead of an empty table.
void tst_ToolBrowser::skills_emptyStateSaysWhy()
{
    Gui::SkillList list(nullptr);
    list.show();
    QVERIFY(QTest::qWaitForWindowExposed(&list));
    auto *empty = list.findChild<QLabel *>("skillEmpty");
    QVERIFY(empty && empty->isVisible());
    QVERIFY(empty->text().contains("No connected server offers skills"));
    QVERIFY(!list.tree()->isVisible());
}

void tst_ToolBrowser::browser_cancel()
{
    Fixture f;
    f.readFile->hang = true;
    Gui::ToolBrowser browser(&f.registry, &f.runner);
    QVERIFY(browser.selectTool("read_file"));
    auto run = browser.findChild<QPushButton *>("runButton");
    auto cancel = browser.findChild<QPushButton *>("cancelButton");
    QVERIFY(!cancel->isEnabled());
    QSignalSpy done(&browser, &Gui::ToolBrowser::runFinished);
    run->click();
    QTRY_COMPARE(f.readFile->runs, 1);
    QVERIFY(cancel->isEnabled());
    QVERIFY(!run->isEnabled());
    cancel->click();
    QCOMPARE(done.count(), 1);
    QVERIFY(f.readFile->cancelled);
    QVERIFY(run->isEnabled());
    QVERIFY(!cancel->isEnabled());
    QVERIFY(resultTexts(&browser).join('\n').contains("cancelled"));
}

void tst_ToolBrowser::browser_followsRegistry()
{
    Fixture f;
    Gui::ToolBrowser browser(&f.registry, &f.runner);
    auto tree = browser.findChild<QTreeWidget *>("toolTree");
    auto form = browser.findChild<Gui::SchemaForm *>("schemaForm");
    QVERIFY(browser.selectTool("mcp__fix__echo"));
    static_cast<QLineEdit *>(form->editor("text"))->setText("typed");

    // Hidden, it does not rebuild for every change; shown, it catches up at once.
    f.registry.add(std::make_shared<FakeTool>("mcp__other__ping", Risk::Read, "other",
                                              Json{{"type", "object"}}));
    QVERIFY(!findItem(tree, "mcp__other__ping"));
    browser.show();
    QVERIFY(findItem(tree, "mcp__other__ping"));
    QCOMPARE(tree->topLevelItemCount(), 3);
    QCOMPARE(browser.selectedTool(), QStringLiteral("mcp__fix__echo"));
    QCOMPARE(static_cast<QLineEdit *>(form->editor("text"))->text(), QStringLiteral("typed"));

    // Shown: changes in a row are one rebuild, once they settle; the selection and the typed
    // text stay.
    f.registry.add(std::make_shared<FakeTool>("mcp__other__pong", Risk::Read, "other",
                                              Json{{"type", "object"}}));
    f.registry.add(std::make_shared<FakeTool>("mcp__other__pang", Risk::Read, "other",
                                              Json{{"type", "object"}}));
    QTRY_VERIFY(findItem(tree, "mcp__other__pang"));
    QVERIFY(findItem(tree, "mcp__other__pong"));
    QCOMPARE(tree->topLevelItemCount(), 3);
    QCOMPARE(browser.selectedTool(), QStringLiteral("mcp__fix__echo"));
    QCOMPARE(static_cast<QLineEdit *>(form->editor("text"))->text(), QStringLiteral("typed"));

    // The selected tool's server goes away.
    f.registry.removeSource("fix");
    QTRY_VERIFY(!findItem(tree, "mcp__fix__echo"));
    QCOMPARE(browser.selectedTool(), QString());
    QVERIFY(!browser.findChild<QPushButton *>("runButton")->isEnabled());
}

void tst_ToolBrowser::browser_badArgumentsDoNotRun()
{
    Fixture f;
    Gui::ToolBrowser browser(&f.registry, &f.runner);
    QVERIFY(browser.selectTool("mcp__fix__echo")); // "text" is required and empty
    browser.findChild<QPushButton *>("runButton")->click();
    QVERIFY(!browser.isRunning());
    QCOMPARE(f.gate.asked, 0);
    QVERIFY(resultTexts(&browser).join('\n').contains("'text'"));
    QVERIFY(deliverPostedEvents()); // a run it started would be on its way
    QCOMPARE(f.echo->runs, 0);
}

QTEST_MAIN(tst_ToolBrowser)
#include "tst_toolbrowser.moc"
