#include "appsettings.h"
#include "icons.h"
#include "mainwindow.h"

#include <mcp/manager.h>

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QLocale>
#include <QTimer>
#include <QTranslator>

#include <cstdio>

namespace {
// --report-startup: prints how long the window took to its first paint, then exits. The
// launch benchmark (bench/launch) times the whole process from outside; this line is its cue.
class FirstPaintProbe : public QObject
{
public:
    explicit FirstPaintProbe(QElapsedTimer sinceMain)
        : m_sinceMain(sinceMain)
    {
    }

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint && !m_seen) {
            m_seen = true;
            // After this paint reaches the screen: the next turn of the event loop.
            QTimer::singleShot(0, watched, [this] {
                std::printf("shown %lld ms after main()\n",
                            static_cast<long long>(m_sinceMain.elapsed()));
                std::fflush(stdout);
                QApplication::exit(0);
            });
        }
        return false;
    }

private:
    QElapsedTimer m_sinceMain;
    bool m_seen = false;
};

// --screenshot waits for every server to settle, but never longer than this: a server's own
// startup timeout (30 s by default) plus a margin.
constexpr int MaxScreenshotWaitMs = 40000;
} // namespace

int main(int argc, char *argv[])
{
    QElapsedTimer sinceMain;
    sinceMain.start();
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("switchboard"));
    QApplication::setApplicationDisplayName(QStringLiteral("Switchboard"));
    QApplication::setApplicationVersion(QStringLiteral(SWITCHBOARD_VERSION));
    QApplication::setWindowIcon(Ui::icon(QStringLiteral("switchboard")));

    QCommandLineParser parser;
    parser.setApplicationDescription(
            QApplication::translate("main", "Switchboard: a desktop AI agent and MCP client."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption workspaceOption(
            QStringLiteral("workspace"),
            QApplication::translate("main", "The workspace folder (default: the current folder)."),
            QStringLiteral("DIR"));
    const QCommandLineOption configOption(
            QStringLiteral("config"),
            QApplication::translate("main", "Use FILE instead of the workspace's .mcp.json."),
            QStringLiteral("FILE"));
    const QCommandLineOption langOption(
            QStringLiteral("lang"),
            QApplication::translate(
                    "main", "The interface language: en or zh_CN (default: the one chosen in "
                            "Settings, else the system's)."),
            QStringLiteral("LANG"));
    const QCommandLineOption screenshotOption(
            QStringLiteral("screenshot"),
            QApplication::translate(
                    "main",
                    "Save the main window as PNG once every server has settled, then exit."),
            QStringLiteral("FILE"));
    const QCommandLineOption reportStartupOption(
            QStringLiteral("report-startup"),
            QApplication::translate("main", "Print the time to the window's first paint, then exit "
                                            "(for benchmarks)."));
    parser.addOptions(
            {workspaceOption, configOption, langOption, screenshotOption, reportStartupOption});
    parser.process(app);

    // --lang wins; else the language chosen in Settings; else the system's.
    QString lang;
    if (parser.isSet(langOption)) {
        lang = parser.value(langOption);
    } else {
        lang = Ui::AppSettings::load(Ui::AppSettings::defaultFile()).language;
        if (lang == QLatin1String(Ui::AppSettings::SystemLanguage))
            lang = QLocale::system().name();
    }
    QTranslator translator;
    QTranslator qtTranslator; // Qt's own strings (standard buttons, dialogs)
    if (!lang.startsWith(QLatin1String("zh"))) {
        // English: the source text, with the catalogue of its plural forms ("1 tool").
        if (translator.load(QStringLiteral(":/i18n/switchboard_en.qm")))
            QApplication::installTranslator(&translator);
    } else if (translator.load(QStringLiteral(":/i18n/switchboard_zh_CN.qm"))) {
        QApplication::installTranslator(&translator);
        if (qtTranslator.load(QStringLiteral("qtbase_zh_CN"),
                              QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            QApplication::installTranslator(&qtTranslator);
    }

    QString workspace
            = parser.isSet(workspaceOption) ? parser.value(workspaceOption) : QDir::currentPath();
    if (!QFileInfo(workspace).isDir()) {
        std::fprintf(stderr, "switchboard: workspace '%s' is not a folder\n",
                     qPrintable(workspace));
        return 1;
    }
    Ui::MainWindowOptions options;
    options.workspace = QFileInfo(workspace).canonicalFilePath();
    options.configFile = parser.value(configOption);
    Ui::MainWindow window(options);
    FirstPaintProbe probe(sinceMain);
    if (parser.isSet(reportStartupOption))
        window.installEventFilter(&probe);
    window.show();

    if (parser.isSet(screenshotOption)) {
        const QString file = parser.value(screenshotOption);
        auto shoot = [&window, file] {
            // One more turn of the loop so the dock has painted the last state.
            QTimer::singleShot(200, &window, [&window, file] {
                const bool saved = window.grab().save(file, "PNG");
                if (!saved)
                    std::fprintf(stderr, "switchboard: could not save %s\n", qPrintable(file));
                QApplication::exit(saved ? 0 : 1);
            });
        };
        QObject::connect(window.manager(), &Mcp::Manager::settled, &window, shoot,
                         Qt::SingleShotConnection);
        QTimer::singleShot(MaxScreenshotWaitMs, &window, shoot);
    }
    return app.exec();
}
