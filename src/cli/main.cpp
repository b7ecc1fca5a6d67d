#include "cli.h"

#include <engine/secrets/processenvironment.h>
#include <mcp/wire/inboundparser.h>

#include <QLocale>
#include <QTranslator>

#include <QCoreApplication>

int main(int argc, char *argv[])
{
    // The provider keys leave our environment before anything runs (a child must not read
    // them from /proc/<our pid>/environ); the faces read them from the snapshot.
    Engine::ProcessEnvironment::hideSecrets();
    Mcp::InboundParser::shareOneHeap(); // before Qt starts threads
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("switchboard"));
    // No organization name: data lives in <data dir>/switchboard, not switchboard/switchboard.
    QCoreApplication::setApplicationVersion(QStringLiteral(SWITCHBOARD_VERSION));

    // Messages in the system's language (LANG, LC_MESSAGES): Chinese, or English with its
    // plural forms. The commands' own output (states, counts, JSON) stays as it is for scripts.
    QTranslator translator;
    if (translator.load(QLocale::system().name().startsWith(QLatin1String("zh"))
                                ? QStringLiteral(":/i18n/switchboard_zh_CN.qm")
                                : QStringLiteral(":/i18n/switchboard_en.qm")))
        QCoreApplication::installTranslator(&translator);

    Cli::Application cli(app.arguments().mid(1));
    QMetaObject::invokeMethod(&cli, &Cli::Application::run, Qt::QueuedConnection);
    return app.exec();
}
