#include "cli.h"

#include <QCoreApplication>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("switchboard"));
    // No organization name: data lives in <data dir>/switchboard, not switchboard/switchboard.
    QCoreApplication::setApplicationVersion(QStringLiteral(SWITCHBOARD_VERSION));

    Cli cli(app.arguments().mid(1));
    QMetaObject::invokeMethod(&cli, &Cli::run, Qt::QueuedConnection);
    return app.exec();
}
