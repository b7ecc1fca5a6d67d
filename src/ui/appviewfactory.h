#pragma once

#include <mcp/apps/contentpolicy.h>

#include <QByteArray>
#include <QImage>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <QWidget>
#include <QtPlugin>

#include <functional>

// How the window shows an MCP Apps view: through a plugin (src/ui/appview) that holds all of
// Qt WebEngine, loaded with the first view, so that a window that never shows one never maps
// or starts a web engine (and a build without WebEngine still runs; its cards say why they
// show text only).
namespace Gui {

// What one view is made of, all decided by the window before the plugin sees it.
struct AppViewSpec
{
    QByteArray html; // the view's document (UTF-8), as its server sent it
    QString csp;     // the Content-Security-Policy its page gets (ContentPolicy::csp())
    // Whether a request the page makes to `url` may go out; the plugin asks for every request
    // but the view's own document.
    std::function<bool(const QUrl &url, Mcp::Apps::ContentPolicy::Use use)> allows;
    // Declared permissions ("camera", "microphone", "geolocation"): only these may be asked
    // for, and each only after the person says yes.
    QStringList permissions;
};

// One live view: a widget that shows the page and carries the bridge's messages both ways.
// The callbacks are set by the window right after create() and called on the GUI thread.
class AppView : public QWidget
{
public:
    using QWidget::QWidget;

    // One JSON-RPC message (a JSON text) to the view, as a postMessage from its host.
    virtual void post(const QByteArray &json) = 0;
    // What the view shows now, for the still image of a view that was torn down.
    virtual QImage still() = 0;

    // A message the view posted to its host (not yet checked: the bridge reads it).
    std::function<void(const QByteArray &json)> onPosted;
    // The page could not be shown (it failed to load, or its renderer died).
    std::function<void(const QString &why)> onFailed;
    // A request or navigation of the view that was refused, and what it was for.
    std::function<void(const QUrl &url, const QString &what)> onBlocked;
    // The view asks for a declared permission ("camera", ...): `decide` once, true to grant.
    std::function<void(const QString &permission, std::function<void(bool)> decide)> onPermission;
};

class AppViewFactory
{
public:
    virtual ~AppViewFactory() = default;
    // A new view of `spec` (its own origin, never shared with another view).
    virtual AppView *create(const AppViewSpec &spec, QWidget *parent) = 0;
    // What a person should know about how views run here, once ("Chromium's sandbox is off:
    // running as root"); empty when nothing.
    virtual QString note() const = 0;
};

// The plugin, loaded on the first call; nullptr when this build or this machine cannot show
// views, and `why` then says why (for the card).
AppViewFactory *appViewFactory(QString *why = nullptr);
// Whether this build has the plugin where appViewFactory() looks (without loading it: the
// window asks at start, when loading Qt WebEngine would cost).
bool appViewsInstalled();

} // namespace Gui

#define SwitchboardAppViewFactory_iid "org.switchboard.AppViewFactory/1"
Q_DECLARE_INTERFACE(Gui::AppViewFactory, SwitchboardAppViewFactory_iid)
