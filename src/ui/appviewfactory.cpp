#include "appviewfactory.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QPluginLoader>

namespace Gui {

namespace {

#ifdef SWITCHBOARD_APPVIEW
// Where the plugin is: beside the installed program's libraries, or (a program run from the
// build tree) where the build put it. Never a path from the environment or the workspace.
QStringList pluginCandidates()
{
    const QString appDir = QCoreApplication::applicationDirPath();
    QStringList candidates{QDir(appDir).absoluteFilePath(
            QStringLiteral("../lib/switchboard/switchboard_appview"))};
#ifdef SWITCHBOARD_APPVIEW_BUILD_DIR
    const QString buildDir = QDir(QStringLiteral(SWITCHBOARD_APPVIEW_BUILD_DIR)).canonicalPath();
    const QString here = QDir(appDir).canonicalPath();
    if (!buildDir.isEmpty() && (here == buildDir || here.startsWith(buildDir + QLatin1Char('/'))))
        candidates.prepend(QDir(buildDir).absoluteFilePath(QStringLiteral("switchboard_appview")));
#endif
    return candidates;
}
#endif

} // namespace

bool appViewsInstalled()
{
#ifdef SWITCHBOARD_APPVIEW
    for (const QString &candidate : pluginCandidates()) {
        if (QFileInfo::exists(candidate + QStringLiteral(".so")))
            return true;
    }
#endif
    return false;
}

AppViewFactory *appViewFactory(QString *why)
{
    static AppViewFactory *factory = nullptr;
    // What went wrong, kept as Qt's words: the sentence around them is made in the language of
    // each call (the language may have changed since).
    static QStringList problems;
    static bool tried = false;
    if (!tried) {
        tried = true;
#ifdef SWITCHBOARD_APPVIEW
        for (const QString &candidate : pluginCandidates()) {
            QPluginLoader loader(candidate);
            if (!loader.load()) {
                problems << loader.errorString();
                continue;
            }
            factory = qobject_cast<AppViewFactory *>(loader.instance());
            if (factory)
                break;
            problems << QCoreApplication::translate("Gui::AppViews",
                                                    "%1 is not Switchboard's view plugin")
                                .arg(loader.fileName());
            loader.unload();
        }
#endif
    }
    if (why && factory)
        why->clear();
    else if (why) {
#ifdef SWITCHBOARD_APPVIEW
        *why = QCoreApplication::translate("Gui::AppViews",
                                           "Qt WebEngine could not be loaded (%1).")
                       .arg(problems.join(QStringLiteral("; ")));
#else
        *why = QCoreApplication::translate(
                "Gui::AppViews", "This build of Switchboard was made without Qt WebEngine.");
#endif
    }
    return factory;
}

} // namespace Gui
