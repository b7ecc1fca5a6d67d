#include "appsettings.h"
#include "icons.h"
#include "language.h"
#include "linkreceiver.h"
#include "mainwindow.h"
#include "toolbrowser.h"

#include <engine/install/installlink.h>
#include <engine/secrets/processenvironment.h>
#include <engine/storage/privatefiles.h>
#include <mcp/manager.h>
#include <mcp/wire/inboundparser.h>

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>
#include <QTimer>
#include <QUrl>

#include <QSocketNotifier>

#include <cstdio>
#include <functional>
#include <memory>

#ifdef Q_OS_UNIX
#include <csignal>
#include <sys/socket.h>
#include <unistd.h>
#endif

namespace {
// The process's peak resident memory (VmHWM), for --report-startup; -1 where unknown.
long long peakRssKb()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong();
    }
    return -1;
}

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
                std::printf("shown %lld ms after main(), peak RSS %lld kB\n",
                            static_cast<long long>(m_sinceMain.elapsed()), peakRssKb());
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

// --report-tools: when the servers have settled (their tools are in the dock and the
// registry), how long that took and how many tools there are; then the tool browser is opened
// and timed to its first paint. The tool benchmark (bench/tools) reads these lines.
class ShownProbe : public QObject
{
public:
    explicit ShownProbe(std::function<void()> shown)
        : m_shown(std::move(shown))
    {
    }
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint && m_shown) {
            auto shown = std::exchange(m_shown, nullptr);
            QTimer::singleShot(0, watched, shown); // after this paint reached the screen
        }
        return false;
    }

private:
    std::function<void()> m_shown;
};

void reportTools(Gui::MainWindow *window, QElapsedTimer sinceMain)
{
    QObject::connect(
            window->manager(), &Mcp::Manager::settled, window,
            [window, sinceMain] {
                // After the registry's own update of this turn of the event loop.
                QTimer::singleShot(0, window, [window, sinceMain] {
                    std::printf("settled %lld ms after main(), %zu tools\n",
                                static_cast<long long>(sinceMain.elapsed()),
                                window->registry()->tools().size());
                    std::fflush(stdout);
                    QElapsedTimer opening;
                    opening.start();
                    window->openToolBrowser();
                    auto *browser = window->findChild<Gui::ToolBrowser *>();
                    auto *probe = new ShownProbe([opening] {
                        std::printf("tool browser shown %lld ms after opening, peak RSS %lld kB\n",
                                    static_cast<long long>(opening.elapsed()), peakRssKb());
                        std::fflush(stdout);
                        QApplication::exit(0);
                    });
                    probe->setParent(browser);
                    browser->installEventFilter(probe);
                });
            },
            Qt::SingleShotConnection);
}

// --screenshot waits for every server to settle, but never longer than this: a server's own
// startup timeout (30 s by default) plus a margin.
constexpr int MaxScreenshotWaitMs = 40000;

// The folders the window opened most recently, newest first: offered when it asks for one.
constexpr int MaxRecentWorkspaces = 10;

QStringList recentWorkspaces()
{
    const QSettings settings(Gui::AppSettings::defaultFile(), QSettings::IniFormat);
    QStringList folders;
    for (const QString &folder :
         settings.value(QStringLiteral("workspaces/recent")).toStringList()) {
        if (QFileInfo(folder).isDir())
            folders << folder;
    }
    return folders;
}

void rememberWorkspace(const QString &folder)
{
    QStringList folders = recentWorkspaces();
    folders.removeAll(folder);
    folders.prepend(folder);
    const QString file = Gui::AppSettings::defaultFile();
    Engine::PrivateFiles::ensureDir(QFileInfo(file).absolutePath());
    {
        QSettings settings(file, QSettings::IniFormat);
        settings.setValue(QStringLiteral("workspaces/recent"), folders.mid(0, MaxRecentWorkspaces));
    }
    Engine::PrivateFiles::restrict(file); // the settings file is the user's alone
}

#ifdef Q_OS_UNIX
// SIGTERM, SIGINT and SIGHUP (a logout, Ctrl+C in the terminal that started Switchboard) close
// the window as Quit does, so the servers stop in order. The handler only writes a byte to a
// socket the event loop watches; a second signal of the same kind ends the process at once
// (SA_RESETHAND restores the default action).
int gSignalSocket[2] = {-1, -1};

void onTerminationSignal(int signal)
{
    const char byte = char(signal);
    [[maybe_unused]] const ssize_t written = ::write(gSignalSocket[1], &byte, 1);
}

void closeOnTerminationSignals(QObject *context, std::function<void()> close)
{
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, gSignalSocket) != 0)
        return;
    auto *notifier = new QSocketNotifier(gSignalSocket[0], QSocketNotifier::Read, context);
    QObject::connect(notifier, &QSocketNotifier::activated, context, [close = std::move(close)] {
        char byte = 0;
        [[maybe_unused]] const ssize_t read = ::read(gSignalSocket[0], &byte, 1);
        close();
    });
    struct sigaction action = {};
    action.sa_handler = onTerminationSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART | SA_RESETHAND;
    for (const int signal : {SIGTERM, SIGINT, SIGHUP})
        sigaction(signal, &action, nullptr);
}
#endif

} // namespace

int main(int argc, char *argv[])
{
    QElapsedTimer sinceMain;
    sinceMain.start();
    // The provider keys leave our environment before anything runs (a child must not read
    // them from /proc/<our pid>/environ); the faces read them from the snapshot.
    Engine::ProcessEnvironment::hideSecrets();
    Mcp::InboundParser::shareOneHeap(); // before Qt starts threads
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("switchboard"));
    QApplication::setApplicationDisplayName(QStringLiteral("Switchboard"));
    QApplication::setApplicationVersion(QStringLiteral(SWITCHBOARD_VERSION));
    QApplication::setWindowIcon(Gui::icon(QStringLiteral("switchboard")));

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
    const QCommandLineOption reportToolsOption(
            QStringLiteral("report-tools"),
            QApplication::translate("main", "Print when every server has settled and how many "
                                            "tools the window lists, then open the tool browser, "
                                            "print when it is shown, and exit (for benchmarks)."));
    const QCommandLineOption conversationOption(
            QStringLiteral("conversation"),
            QApplication::translate("main", "Open the saved conversation ID."),
            QStringLiteral("ID"));
    const QCommandLineOption installOption(
            QStringLiteral("install"),
            QApplication::translate("main", "Open the install dialog for LINK: an .mcpb file, or "
                                            "switchboard://install?name=ENTRY (the MCP Registry) "
                                            "or ?bundle=URL&sha256=HEX. Nothing is installed "
                                            "without your Install."),
            QStringLiteral("LINK"));
    parser.addOptions({workspaceOption, configOption, langOption, screenshotOption,
                       reportStartupOption, reportToolsOption, conversationOption, installOption});
    parser.addPositionalArgument(
            QStringLiteral("link"),
            QApplication::translate("main", "As --install (what a browser or file manager "
                                            "hands over)."),
            QStringLiteral("[link]"));
    parser.process(app);

    // An install link goes to the Switchboard already running, if there is one.
    QString link = parser.value(installOption);
    for (const QString &argument : parser.positionalArguments()) {
        if (link.isEmpty() && Engine::InstallLink::looksLikeOne(argument))
            link = argument;
    }
    if (!link.isEmpty() && Gui::LinkReceiver::forward(link)) {
        std::printf("%s\n", qPrintable(QApplication::translate(
                                    "main", "The link was handed to the Switchboard already "
                                            "running.")));
        return 0;
    }

    // --lang wins; else the language chosen in Settings; else the system's.
    QString lang;
    if (parser.isSet(langOption)) {
        lang = parser.value(langOption);
    } else {
        lang = Gui::AppSettings::load(Gui::AppSettings::defaultFile()).language;
    }
    Gui::installLanguage(lang);

    std::unique_ptr<Gui::MainWindow> window;
#ifdef Q_OS_UNIX
    closeOnTerminationSignals(&app, [&window] {
        if (window)
            window->close();
        else
            QApplication::quit();
    });
#endif
    FirstPaintProbe probe(sinceMain);
    const auto openWindow = [&](const QString &workspace) {
        if (!QFileInfo(workspace).isDir()) {
            std::fprintf(stderr, "switchboard: workspace '%s' is not a folder\n",
                         qPrintable(workspace));
            return false;
        }
        Gui::MainWindowOptions options;
        options.workspace = QFileInfo(workspace).canonicalFilePath();
        options.configFile = parser.value(configOption);
        options.conversationId = parser.value(conversationOption);
        rememberWorkspace(options.workspace);
        window = std::make_unique<Gui::MainWindow>(options);
        // Quit, Ctrl+Q and the close button end the process once the servers are stopped.
        QObject::connect(window.get(), &Gui::MainWindow::closed, &app, &QApplication::quit,
                         Qt::QueuedConnection);
        if (parser.isSet(reportStartupOption))
            window->installEventFilter(&probe);
        if (parser.isSet(reportToolsOption))
            reportTools(window.get(), sinceMain);
        window->show();
        if (!link.isEmpty()) {
            Gui::MainWindow *shown = window.get();
            QTimer::singleShot(0, shown, [shown, link] { shown->openInstallLink(link); });
        }
        if (parser.isSet(screenshotOption)) {
            Gui::MainWindow *shown = window.get();
            const QString file = parser.value(screenshotOption);
            auto shoot = [shown, file] {
                // One more turn of the loop so the dock has painted the last state.
                QTimer::singleShot(200, shown, [shown, file] {
                    const bool saved = shown->grab().save(file, "PNG");
                    if (!saved)
                        std::fprintf(stderr, "switchboard: could not save %s\n", qPrintable(file));
                    QApplication::exit(saved ? 0 : 1);
                });
            };
            QObject::connect(shown->manager(), &Mcp::Manager::settled, shown, shoot,
                             Qt::SingleShotConnection);
            QTimer::singleShot(MaxScreenshotWaitMs, shown, shoot);
        }
        return true;
    };

    // Links handed over later by `switchboard --install …` open in this window.
    Gui::LinkReceiver links;
    QObject::connect(&links, &Gui::LinkReceiver::received, &app, [&window](const QString &given) {
        if (window)
            window->openInstallLink(given);
    });

    const QString current = QDir::currentPath();
    const bool broad = current == QDir::rootPath()
                       || QFileInfo(current).canonicalFilePath()
                                  == QFileInfo(QDir::homePath()).canonicalFilePath();
    if (parser.isSet(workspaceOption) || !broad) {
        if (!openWindow(parser.isSet(workspaceOption) ? parser.value(workspaceOption) : current))
            return 1;
        return app.exec();
    }
    // Started from a menu (the current folder is the home folder) or from "/": the tools would
    // reach every project and private file there, so ask which folder to work in.
    auto *chooser = new QFileDialog(nullptr,
                                    QApplication::translate("main", "Choose a workspace folder"));
    chooser->setFileMode(QFileDialog::Directory);
    chooser->setOption(QFileDialog::ShowDirsOnly);
    chooser->setAttribute(Qt::WA_DeleteOnClose);
    QList<QUrl> places;
    for (const QString &recent : recentWorkspaces())
        places << QUrl::fromLocalFile(recent);
    if (!places.isEmpty()) {
        chooser->setSidebarUrls(places + chooser->sidebarUrls());
        chooser->setDirectory(places.first().toLocalFile());
    }
    QObject::connect(chooser, &QFileDialog::fileSelected, chooser, [&](const QString &folder) {
        if (!openWindow(folder))
            QApplication::exit(1);
    });
    QObject::connect(chooser, &QFileDialog::rejected, chooser, [] { QApplication::exit(0); });
    chooser->open();
    return app.exec();
}
