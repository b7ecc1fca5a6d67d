// An exported HTML conversation opened in Chromium (Qt WebEngine, which is Chromium): the page
// loads with no request and no script of its own, shows the messages, a tool call as a
// collapsible section and the user's image, and nothing said runs as markup. A screenshot of
// it is written next to the test (exportpage.png) and checked for the image's red.

#include <engine/storage/conversationexport.h>

#include <QApplication>
#include <QBuffer>
#include <QDir>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QWebEnginePage>
#include <QWebEngineView>

#include <unistd.h>

using namespace Engine;

class tst_ExportPage : public QObject
{
    Q_OBJECT

    static QVariant run(QWebEnginePage *page, const QString &script)
    {
        QVariant result;
        bool done = false;
        page->runJavaScript(script, [&](const QVariant &value) {
            result = value;
            done = true;
        });
        if (!QTest::qWaitFor([&] { return done; }, 10000))
            return QStringLiteral("(no answer)");
        return result;
    }

private slots:
    void opensInChromium()
    {
        Conversation conversation;
        conversation.id = QStringLiteral("c");
        conversation.title = QStringLiteral("Red square");
        conversation.workspace = QStringLiteral("/tmp/ws");
        conversation.created = QDateTime::currentDateTimeUtc();
        ChatMessage asked;
        asked.text = QStringLiteral(
                "What colour is this? <img src=x onerror=\"document.title='owned'\">");
        QImage image(120, 80, QImage::Format_RGB32);
        image.fill(QColor(220, 0, 0));
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        QVERIFY(image.save(&buffer, "PNG"));
        asked.attachments.push_back({QStringLiteral("red.png"), QStringLiteral("image/png"), png});
        ChatMessage answer;
        answer.role = ChatMessage::Role::Assistant;
        answer.text = QStringLiteral("Let me look.\n```\ncode block\n```");
        ToolCallRequest call;
        call.id = QStringLiteral("1");
        call.name = QStringLiteral("vision_describe");
        call.arguments = {{"image", "red.png"}};
        answer.toolCalls.push_back(call);
        ChatMessage result;
        result.role = ChatMessage::Role::Tool;
        result.toolName = QStringLiteral("vision_describe");
        result.text = QStringLiteral("a red rectangle");
        ChatMessage last;
        last.role = ChatMessage::Role::Assistant;
        last.text = QStringLiteral("It is red.");
        conversation.messages = {asked, answer, result, last};

        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("page.html"));
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(ConversationExport::exported(conversation, ConversationExport::Format::Html));
        out.close();

        QWebEngineView view;
        view.resize(900, 700);
        QSignalSpy loaded(&view, &QWebEngineView::loadFinished);
        view.load(QUrl::fromLocalFile(file));
        view.show();
        QVERIFY(loaded.wait(30000) || loaded.count() > 0);
        QCOMPARE(loaded.first().first().toBool(), true);
        QWebEnginePage *page = view.page();
        QCOMPARE(run(page, QStringLiteral("document.title")).toString(),
                 QStringLiteral("Red square"));
        QCOMPARE(run(page, QStringLiteral("document.querySelectorAll('section').length")).toInt(),
                 3);
        QCOMPARE(run(page, QStringLiteral("document.querySelectorAll('details').length")).toInt(),
                 2);
        QCOMPARE(run(page, QStringLiteral("document.querySelector('details summary').textContent"))
                         .toString(),
                 QStringLiteral("Tool call vision_describe"));
        // The image decoded from its data: URL; what the user typed stayed text.
        QTRY_COMPARE_WITH_TIMEOUT(
                run(page, QStringLiteral("document.querySelector('img').naturalWidth")).toInt(),
                120, 10000);
        QCOMPARE(run(page, QStringLiteral("document.images.length")).toInt(), 1);
        QVERIFY(run(page, QStringLiteral("document.body.innerText"))
                        .toString()
                        .contains(QStringLiteral("<img src=x onerror=")));
        QVERIFY(run(page, QStringLiteral("document.body.innerText"))
                        .toString()
                        .contains(QStringLiteral("It is red.")));

        // What Chromium drew: the red image is on screen.
        QImage shot;
        QTRY_VERIFY_WITH_TIMEOUT(
                [&] {
                    shot = view.grab().toImage();
                    for (int y = 0; y < shot.height(); y += 2)
                        for (int x = 0; x < shot.width(); x += 2) {
                            const QColor c = shot.pixelColor(x, y);
                            if (c.red() > 200 && c.green() < 30 && c.blue() < 30)
                                return true;
                        }
                    return false;
                }(),
                15000);
        QVERIFY(shot.save(QDir(QStringLiteral(SWITCHBOARD_SCREENSHOT_DIR))
                                  .filePath(QStringLiteral("exportpage.png"))));
    }
};

int main(int argc, char **argv)
{
    // As the window's views do: Chromium's own sandbox cannot start as root (CI runs as root).
    if (::geteuid() == 0)
        qputenv("QTWEBENGINE_DISABLE_SANDBOX", "1");
    QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    QApplication app(argc, argv);
    tst_ExportPage test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_exportpage.moc"
