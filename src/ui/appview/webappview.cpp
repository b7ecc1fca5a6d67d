// The MCP Apps view plugin: all of Qt WebEngine that Switchboard uses, loaded with the first
// view (Gui::appViewFactory). A view is a page of ours (the shell) holding the server's HTML
// in a sandboxed iframe of its own origin; a script of ours, in a world the view's scripts
// cannot see, carries postMessage traffic between the iframe and one QWebChannel object.
//
// What a view can reach is held here twice: by the CSP in its document, and by a request
// interceptor that refuses every request the view did not declare, so that a hole in one
// still leaks nothing. The profile is off the record (nothing on disk), navigation away, new
// windows, downloads and undeclared permissions are refused, and there are no DevTools.
#include "../appviewfactory.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDebug>
#include <QFile>
#include <QHash>
#include <QLoggingCategory>
#include <QPointer>
#include <QRegularExpression>
#include <QVBoxLayout>
#include <QWebChannel>
#include <QWebEngineDownloadRequest>
#include <QWebEnginePage>
#include <QWebEngineProfile>
#include <QWebEngineScript>
#include <QWebEngineScriptCollection>
#include <QWebEngineSettings>
#include <QWebEngineUrlRequestInfo>
#include <QWebEngineUrlRequestInterceptor>
#include <QWebEngineUrlRequestJob>
#include <QWebEngineUrlScheme>
#include <QWebEngineUrlSchemeHandler>
#include <QWebEngineView>

#include <unistd.h>

Q_LOGGING_CATEGORY(lcAppView, "switchboard.appview")

// Qt WebEngine's own set-up of the OpenGL context its pages share with the window (what
// QtWebEngineQuick::initialize() calls; exported, but private API). Asking for it with
// Qt::AA_ShareOpenGLContexts before the application exists would start OpenGL in every
// window, views or not (+58 MB resident here); this starts it with the first view. Qt prints
// once that WebEngine "seems to be initialized from a plugin": it is, on purpose.
namespace QtWebEngineCore {
Q_DECL_IMPORT void initialize();
}

namespace {

using Use = Mcp::Apps::ContentPolicy::Use;

const QByteArray ShellScheme = QByteArrayLiteral("sbshell");
const QByteArray ViewScheme = QByteArrayLiteral("sbview");

// A message bigger than the bridge reads (1 MiB) is dropped in the page already, so that a
// view cannot make the window parse 100 MB of JSON; a little headroom for escaping.
constexpr int MaxMessageChars = 2 * 1024 * 1024;
// Messages per call of the relay: more than a second's worth of what the bridge reads.
constexpr int MaxBatch = 256;

// The documents the scheme handler serves: the shell and the view of each live view, by
// host ("s7", "v7"). Removed when the view goes.
QHash<QString, QByteArray> &documents()
{
    static QHash<QString, QByteArray> served;
    return served;
}

class SchemeHandler : public QWebEngineUrlSchemeHandler
{
public:
    using QWebEngineUrlSchemeHandler::QWebEngineUrlSchemeHandler;

    void requestStarted(QWebEngineUrlRequestJob *job) override
    {
        const QUrl url = job->requestUrl();
        const auto document = documents().constFind(url.host());
        if (job->requestMethod() != "GET" || document == documents().constEnd()
            || (url.path() != QLatin1String("/") && !url.path().isEmpty())) {
            job->fail(QWebEngineUrlRequestJob::UrlNotFound);
            return;
        }
        auto *buffer = new QBuffer(job);
        buffer->setData(*document);
        buffer->open(QIODevice::ReadOnly);
        job->reply(QByteArrayLiteral("text/html;charset=utf-8"), buffer);
    }
};

// The profile-wide last line: requests of our views' pages only (their shell is the first
// party), and only over the schemes a view may ever use; each page's own ViewInterceptor then
// holds it to what it declared.
class ProfileInterceptor : public QWebEngineUrlRequestInterceptor
{
public:
    using QWebEngineUrlRequestInterceptor::QWebEngineUrlRequestInterceptor;
    void interceptRequest(QWebEngineUrlRequestInfo &info) override
    {
        static const QStringList schemes{QString::fromLatin1(ShellScheme),
                                         QString::fromLatin1(ViewScheme),
                                         QStringLiteral("https"),
                                         QStringLiteral("http"),
                                         QStringLiteral("wss"),
                                         QStringLiteral("ws")};
        if (info.firstPartyUrl().scheme().toLatin1() != ShellScheme
            || !schemes.contains(info.requestUrl().scheme()))
            info.block(true);
    }
};

Use useOf(QWebEngineUrlRequestInfo::ResourceType type)
{
    switch (type) {
    case QWebEngineUrlRequestInfo::ResourceTypeMainFrame:
    case QWebEngineUrlRequestInfo::ResourceTypeNavigationPreloadMainFrame:
        return Use::Navigate;
    case QWebEngineUrlRequestInfo::ResourceTypeSubFrame:
    case QWebEngineUrlRequestInfo::ResourceTypeNavigationPreloadSubFrame:
        return Use::Frame;
    case QWebEngineUrlRequestInfo::ResourceTypeXhr:
    case QWebEngineUrlRequestInfo::ResourceTypePing:
    case QWebEngineUrlRequestInfo::ResourceTypeCspReport:
    case QWebEngineUrlRequestInfo::ResourceTypeWebSocket:
    case QWebEngineUrlRequestInfo::ResourceTypePrefetch:
    case QWebEngineUrlRequestInfo::ResourceTypeUnknown:
        return Use::Connect;
    default:
        return Use::Resource;
    }
}

QString describeUse(Use use)
{
    switch (use) {
    case Use::Connect:
        return QStringLiteral("connect");
    case Use::Resource:
        return QStringLiteral("resource");
    case Use::Frame:
        return QStringLiteral("frame");
    case Use::Navigate:
        return QStringLiteral("navigation");
    }
    return {};
}

// The relay, in the shell's ApplicationWorld: what the iframe posts goes to `bridge.receive`,
// and what the host posts goes to the iframe. One call is in flight at a time (each is a
// round trip between processes); what the view posts meanwhile waits and goes in the next
// call, so that a burst of 10,000 messages takes a handful of calls, not 10,000, and nothing
// waits on a timer (which Chromium slows down in pages it thinks are hidden). The view's own
// scripts run in the iframe's main world and never see `qt` or this script.
const char RelayScript[] = R"JS(
(function () {
    'use strict';
    var bridge = null;
    var batch = [];
    var batchChars = 0;
    var inFlight = false;
    function frame() {
        var element = document.getElementById('view');
        return element ? element.contentWindow : null;
    }
    function flush() {
        if (!bridge || inFlight || batch.length === 0)
            return;
        var texts = batch.length > %2 ? batch.splice(0, %2) : batch.splice(0);
        batchChars = 0;
        batch.forEach(function (text) { batchChars += text.length; });
        inFlight = true;
        bridge.receive(texts, function () {
            inFlight = false;
            flush();
        });
    }
    window.addEventListener('message', function (event) {
        if (!event.source || event.source !== frame())
            return;
        var text;
        try { text = JSON.stringify(event.data); } catch (e) { return; }
        if (typeof text !== 'string' || text.length > %1)
            return;
        if (batchChars + text.length > 4 * %1)
            return; // the host is far behind: dropped, as the bridge would
        batch.push(text);
        batchChars += text.length;
        flush();
    });
    new QWebChannel(qt.webChannelTransport, function (channel) {
        bridge = channel.objects.bridge;
        bridge.posted.connect(function (text) {
            var target = frame();
            if (target) target.postMessage(JSON.parse(text), '*');
        });
        flush();
    });
})();
)JS";

// The one object the shell's relay sees.
class Relay : public QObject
{
    Q_OBJECT
public:
    std::function<void(const QByteArray &)> received;

    // The messages the view posted since the last call, oldest first.
    Q_INVOKABLE void receive(const QStringList &texts)
    {
        for (qsizetype i = 0; i < texts.size() && i < MaxBatch && received; ++i) {
            if (texts[i].size() <= MaxMessageChars)
                received(texts[i].toUtf8());
        }
    }

signals:
    void posted(const QString &text);
};

// The view's document with its CSP as the first thing the parser sees (after a doctype, so
// that standards mode stays): a policy given in a <meta> cannot be taken back by the page.
QByteArray withPolicy(const QByteArray &html, const QString &csp)
{
    const QByteArray meta = "<meta http-equiv=\"Content-Security-Policy\" content=\""
                            + csp.toHtmlEscaped().toUtf8() + "\">";
    static const QRegularExpression doctype(QStringLiteral("^\\s*<!doctype[^>]*>"),
                                            QRegularExpression::CaseInsensitiveOption);
    const QString head = QString::fromUtf8(html.left(256));
    const QRegularExpressionMatch match = doctype.match(head);
    if (match.hasMatch()) {
        const qsizetype end = match.captured(0).toUtf8().size();
        return html.left(end) + meta + html.mid(end);
    }
    return meta + html;
}

QByteArray shellDocument(const QString &viewUrl, const QStringList &permissions)
{
    // The iframe's `allow` lists only what was declared; the person is still asked.
    QStringList allow;
    for (const QString &permission : permissions)
        allow << permission + QStringLiteral(" ") + viewUrl;
    return QStringLiteral(
                   "<!DOCTYPE html><html><head><meta charset=\"utf-8\">"
                   "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                   "frame-src %1; style-src 'unsafe-inline'\">"
                   "<style>html,body{margin:0;padding:0;height:100%;overflow:hidden;"
                   "background:transparent}iframe{border:0;display:block;width:100%;"
                   "height:100%}</style></head><body>"
                   "<iframe id=\"view\" sandbox=\"allow-scripts allow-same-origin allow-forms\" "
                   "allow=\"%2\" src=\"%1\"></iframe></body></html>")
            .arg(viewUrl, allow.join(QStringLiteral("; ")))
            .toUtf8();
}

// A view's own interceptor: its shell, its document, and what it declared; nothing else.
class ViewInterceptor : public QWebEngineUrlRequestInterceptor
{
public:
    ViewInterceptor(QUrl shell, QUrl view, std::function<bool(const QUrl &, Use)> allows,
                    QObject *parent)
        : QWebEngineUrlRequestInterceptor(parent)
        , m_shell(std::move(shell))
        , m_view(std::move(view))
        , m_allows(std::move(allows))
    {
    }
    std::function<void(const QUrl &, const QString &)> blocked;

    void interceptRequest(QWebEngineUrlRequestInfo &info) override
    {
        const QUrl url = info.requestUrl();
        const Use use = useOf(info.resourceType());
        bool ok = false;
        if (url.scheme().toLatin1() == ShellScheme)
            ok = use == Use::Navigate && url.host() == m_shell.host();
        else if (url.scheme().toLatin1() == ViewScheme)
            ok = use == Use::Frame && url.host() == m_view.host();
        else if (use != Use::Navigate)
            ok = m_allows && m_allows(url, use);
        if (!ok) {
            info.block(true);
            if (blocked)
                blocked(url, describeUse(use));
        }
    }

private:
    QUrl m_shell, m_view;
    std::function<bool(const QUrl &, Use)> m_allows;
};

class ViewPage : public QWebEnginePage
{
public:
    ViewPage(QWebEngineProfile *profile, QUrl shell, QUrl view, QObject *parent)
        : QWebEnginePage(profile, parent)
        , m_shell(std::move(shell))
        , m_view(std::move(view))
    {
    }
    std::function<void(const QUrl &, const QString &)> blocked;

protected:
    bool acceptNavigationRequest(const QUrl &url, NavigationType type, bool isMainFrame) override
    {
        // The shell once, its iframe on the view's document once; never anywhere else, and
        // never again (a reload starts a view that has lost its host's state).
        bool ok = false;
        if (isMainFrame && url == m_shell && !m_shellLoaded) {
            m_shellLoaded = true;
            ok = true;
        } else if (!isMainFrame && url.scheme().toLatin1() == ViewScheme
                   && url.host() == m_view.host() && type != NavigationTypeBackForward) {
            ok = true; // the view reloading itself: its host's bridge starts again
        }
        if (!ok && blocked)
            blocked(url, QStringLiteral("navigation"));
        return ok;
    }
    QWebEnginePage *createWindow(WebWindowType) override
    {
        if (blocked)
            blocked(QUrl(), QStringLiteral("window"));
        return nullptr;
    }
    void javaScriptConsoleMessage(JavaScriptConsoleMessageLevel, const QString &, int,
                                  const QString &) override
    {
        // A view's console is its own business; its log goes through notifications/message.
    }

private:
    QUrl m_shell, m_view;
    bool m_shellLoaded = false;
};

QString permissionName(QWebEnginePage::Feature feature)
{
    switch (feature) {
    case QWebEnginePage::Geolocation:
        return QStringLiteral("geolocation");
    case QWebEnginePage::MediaAudioCapture:
        return QStringLiteral("microphone");
    case QWebEnginePage::MediaVideoCapture:
        return QStringLiteral("camera");
    case QWebEnginePage::MediaAudioVideoCapture:
        return QStringLiteral("camera+microphone");
    default:
        return {};
    }
}

class WebAppView : public Gui::AppView
{
public:
    WebAppView(QWebEngineProfile *profile, int serial, const Gui::AppViewSpec &spec,
               QWidget *parent)
        : Gui::AppView(parent)
        , m_shellHost(QStringLiteral("s%1").arg(serial))
        , m_viewHost(QStringLiteral("v%1").arg(serial))
    {
        const QUrl shell(QStringLiteral("sbshell://%1/").arg(m_shellHost));
        const QUrl view(QStringLiteral("sbview://%1/").arg(m_viewHost));
        documents().insert(m_shellHost, shellDocument(view.toString(), spec.permissions));
        documents().insert(m_viewHost, withPolicy(spec.html, spec.csp));

        m_web = new QWebEngineView(this);
        m_web->setContextMenuPolicy(Qt::NoContextMenu);
        auto *page = new ViewPage(profile, shell, view, m_web);
        auto *interceptor = new ViewInterceptor(shell, view, spec.allows, page);
        const auto report = [this](const QUrl &url, const QString &what) {
            if (onBlocked)
                onBlocked(url, what);
        };
        interceptor->blocked = report;
        page->blocked = report;
        page->setUrlRequestInterceptor(interceptor);
        page->setBackgroundColor(Qt::transparent);
        QWebEngineSettings *settings = page->settings();
        settings->setAttribute(QWebEngineSettings::JavascriptCanOpenWindows, false);
        settings->setAttribute(QWebEngineSettings::JavascriptCanAccessClipboard, false);
        settings->setAttribute(QWebEngineSettings::JavascriptCanPaste, false);
        settings->setAttribute(QWebEngineSettings::LocalContentCanAccessRemoteUrls, false);
        settings->setAttribute(QWebEngineSettings::LocalContentCanAccessFileUrls, false);
        settings->setAttribute(QWebEngineSettings::PluginsEnabled, false);
        settings->setAttribute(QWebEngineSettings::FullScreenSupportEnabled, false);
        settings->setAttribute(QWebEngineSettings::ScreenCaptureEnabled, false);
        settings->setAttribute(QWebEngineSettings::HyperlinkAuditingEnabled, false);
        settings->setAttribute(QWebEngineSettings::ErrorPageEnabled, false);
        settings->setAttribute(QWebEngineSettings::PdfViewerEnabled, false);
        settings->setAttribute(QWebEngineSettings::NavigateOnDropEnabled, false);
        settings->setAttribute(QWebEngineSettings::AutoLoadIconsForPage, false);

        auto *channel = new QWebChannel(page);
        m_relay = new Relay;
        m_relay->setParent(channel);
        m_relay->received = [this](const QByteArray &json) {
            if (onPosted)
                onPosted(json);
        };
        channel->registerObject(QStringLiteral("bridge"), m_relay);
        page->setWebChannel(channel, QWebEngineScript::ApplicationWorld);

        QWebEngineScript relay;
        relay.setName(QStringLiteral("switchboard-relay"));
        relay.setWorldId(QWebEngineScript::ApplicationWorld);
        relay.setInjectionPoint(QWebEngineScript::DocumentCreation);
        relay.setRunsOnSubFrames(false);
        relay.setSourceCode(channelScript()
                            + QString::fromLatin1(RelayScript).arg(MaxMessageChars).arg(MaxBatch));
        page->scripts().insert(relay);

        connect(page, &QWebEnginePage::featurePermissionRequested, this,
                [this, page, view](const QUrl &origin, QWebEnginePage::Feature feature) {
                    const QString name = permissionName(feature);
                    const bool own
                            = origin.scheme() == view.scheme() && origin.host() == view.host();
                    QStringList wanted = name.split(QLatin1Char('+'), Qt::SkipEmptyParts);
                    bool declared = own && !wanted.isEmpty();
                    for (const QString &one : std::as_const(wanted))
                        declared = declared && m_permissions.contains(one);
                    if (!declared || !onPermission) {
                        page->setFeaturePermission(origin, feature,
                                                   QWebEnginePage::PermissionDeniedByUser);
                        if (onBlocked)
                            onBlocked(origin, QStringLiteral("permission %1").arg(name));
                        return;
                    }
                    QPointer<QWebEnginePage> guard(page);
                    onPermission(name, [guard, origin, feature](bool yes) {
                        if (guard)
                            guard->setFeaturePermission(
                                    origin, feature,
                                    yes ? QWebEnginePage::PermissionGrantedByUser
                                        : QWebEnginePage::PermissionDeniedByUser);
                    });
                });
        connect(page, &QWebEnginePage::loadFinished, this, [this](bool ok) {
            if (!ok && onFailed)
                onFailed(QCoreApplication::translate("Gui::AppViews",
                                                     "The view's page could not be loaded."));
        });
        connect(page, &QWebEnginePage::renderProcessTerminated, this,
                [this](QWebEnginePage::RenderProcessTerminationStatus status, int) {
                    if (status != QWebEnginePage::NormalTerminationStatus && onFailed)
                        onFailed(QCoreApplication::translate(
                                "Gui::AppViews", "The view's page stopped unexpectedly."));
                });
        m_permissions = spec.permissions;
        m_web->setPage(page);

        auto *layout = new QVBoxLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(m_web);
        page->load(shell);
    }

    ~WebAppView() override
    {
        documents().remove(m_shellHost);
        documents().remove(m_viewHost);
    }

    void post(const QByteArray &json) override { emit m_relay->posted(QString::fromUtf8(json)); }

    QImage still() override { return m_web->grab().toImage(); }

private:
    static QString channelScript()
    {
        static const QString source = [] {
            QFile file(QStringLiteral(":/qtwebchannel/qwebchannel.js"));
            return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) + '\n'
                                                  : QString();
        }();
        return source;
    }

    QString m_shellHost, m_viewHost;
    QWebEngineView *m_web = nullptr;
    Relay *m_relay = nullptr;
    QStringList m_permissions;
};

class WebAppViewFactory : public QObject, public Gui::AppViewFactory
{
    Q_OBJECT
    Q_PLUGIN_METADATA(IID SwitchboardAppViewFactory_iid)
    Q_INTERFACES(Gui::AppViewFactory)
public:
    Gui::AppView *create(const Gui::AppViewSpec &spec, QWidget *parent) override
    {
        return new WebAppView(profile(), ++m_serial, spec, parent);
    }
    QString note() const override { return m_note; }

private:
    QWebEngineProfile *profile()
    {
        if (m_profile)
            return m_profile;
        prepareEnvironment();
        QtWebEngineCore::initialize();
        for (const QByteArray &name : {ShellScheme, ViewScheme}) {
            QWebEngineUrlScheme scheme(name);
            scheme.setSyntax(QWebEngineUrlScheme::Syntax::Host);
            scheme.setFlags(QWebEngineUrlScheme::SecureScheme);
            QWebEngineUrlScheme::registerScheme(scheme);
        }
        // No storage name: off the record (no disk cache, cookies or storage on disk).
        m_profile = new QWebEngineProfile(this);
        m_profile->setHttpCacheType(QWebEngineProfile::MemoryHttpCache);
        m_profile->setPersistentCookiesPolicy(QWebEngineProfile::NoPersistentCookies);
        m_profile->setSpellCheckEnabled(false);
        m_profile->setUrlRequestInterceptor(new ProfileInterceptor(m_profile));
        auto *handler = new SchemeHandler(m_profile);
        m_profile->installUrlSchemeHandler(ShellScheme, handler);
        m_profile->installUrlSchemeHandler(ViewScheme, handler);
        connect(m_profile, &QWebEngineProfile::downloadRequested, m_profile,
                [](QWebEngineDownloadRequest *download) { download->cancel(); });
        return m_profile;
    }

    // Before the engine starts: no DevTools however the environment asks for them, and
    // Chromium's own sandbox off only where it cannot work (as root).
    void prepareEnvironment()
    {
        qunsetenv("QTWEBENGINE_REMOTE_DEBUGGING");
        if (qEnvironmentVariable("QTWEBENGINE_CHROMIUM_FLAGS")
                    .contains(QLatin1String("remote-debugging")))
            qunsetenv("QTWEBENGINE_CHROMIUM_FLAGS");
        if (::geteuid() == 0) {
            qputenv("QTWEBENGINE_DISABLE_SANDBOX", "1");
            m_note = QCoreApplication::translate(
                    "Gui::AppViews",
                    "Views run without Chromium's own sandbox: Switchboard runs as root.");
            qCInfo(lcAppView).noquote() << m_note;
        } else {
            qunsetenv("QTWEBENGINE_DISABLE_SANDBOX");
        }
    }

    QWebEngineProfile *m_profile = nullptr;
    int m_serial = 0;
    QString m_note;
};

} // namespace

#include "webappview.moc"
