#include "language.h"

#include "appsettings.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QPointer>
#include <QTranslator>

namespace Gui {

namespace {

struct Installed
{
    QPointer<QTranslator> app;
    QPointer<QTranslator> qt;
    QString language;
};

Installed &installed()
{
    static Installed state;
    return state;
}

} // namespace

void installLanguage(const QString &language)
{
    QString wanted = language;
    if (wanted.isEmpty() || wanted == QLatin1String(AppSettings::SystemLanguage))
        wanted = QLocale::system().name();
    wanted = wanted.startsWith(QLatin1String("zh")) ? QStringLiteral("zh_CN")
                                                    : QStringLiteral("en");
    Installed &state = installed();
    if (state.language == wanted)
        return;
    // Both old catalogues go first: each install or removal is one LanguageChange event.
    for (QPointer<QTranslator> *old : {&state.app, &state.qt}) {
        if (*old) {
            QCoreApplication::removeTranslator(*old);
            delete old->data();
        }
    }
    // Owned by the application: they go with it.
    auto *app = new QTranslator(QCoreApplication::instance());
    if (app->load(QStringLiteral(":/i18n/switchboard_%1.qm").arg(wanted)))
        QCoreApplication::installTranslator(app);
    state.app = app;
    if (wanted != QLatin1String("en")) {
        auto *qt = new QTranslator(QCoreApplication::instance());
        if (qt->load(QStringLiteral("qtbase_%1").arg(wanted),
                     QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            QCoreApplication::installTranslator(qt);
        state.qt = qt;
    }
    state.language = wanted;
}

QString installedLanguage()
{
    return installed().language;
}

} // namespace Gui
