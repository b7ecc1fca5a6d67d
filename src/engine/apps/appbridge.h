#pragma once

#include <engine/approval/toolrunner.h>

#include <mcp/apps/bridgemessage.h>

#include <QByteArray>
#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QStringList>
#include <QUrl>

#include <functional>
#include <map>
#include <optional>

namespace Mcp {
class Manager;
}

namespace Engine {

class ToolRegistry;

// The host's side of one live view's bridge (MCP Apps): what the view posts is read and
// checked (Mcp::Apps::BridgeMessage), answered, and recorded; what the host must tell the view
// goes out in the spec's order, and nothing before the view said it is initialized. The view's
// tools/call is an ordinary call of its own server's tool through the ToolRunner (the same
// gate, timeout and audit log, origin App), refused for another server's tools and for tools
// whose visibility lacks "app"; its resources/read reaches only its own server. A view that
// floods is throttled and told so.
//
// Knows no widget and no web engine: the face that shows the view gives it a Face (how to post
// to the view, ask the person, resize the card) and calls receive() with each message the view
// posts. Owned by that face, one per live view; a view that reloads its page starts a new
// handshake on the same bridge, and the tool's input and result are sent again.
class AppBridge : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QString server;         // the view's server: the only one it reaches
        QString conversationId; // where its calls' grants and audit records belong
        QString hostVersion = QStringLiteral("0.1.0");
        // hostContext of ui/initialize (theme, styles, displayMode, containerDimensions,
        // locale, userAgent, toolInfo, ...): the face's.
        Mcp::Json hostContext = Mcp::Json::object();
        // hostCapabilities.sandbox: the CSP origins and permissions the face applied.
        Mcp::Json sandbox = Mcp::Json::object();
    };

    struct Face
    {
        // Delivers one JSON-RPC message (a JSON text) to the view.
        std::function<void(const QByteArray &json)> post;
        // ui/open-link of an http(s) URL: asks the person; `decide` once, true to open (the
        // face opens it).
        std::function<void(const QUrl &url, std::function<void(bool)> decide)> openLink;
        // ui/message: the text goes into the composer for the person to send (never sent).
        std::function<void(const QString &text)> suggestMessage;
        // ui/update-model-context: what rides on the next model request (empty: nothing).
        std::function<void(const QString &context)> setModelContext;
        // ui/request-display-mode: the mode in effect afterwards ("inline", "fullscreen",
        // "pip"); empty function: inline only.
        std::function<QString(const QString &mode)> requestDisplayMode;
        // ui/notifications/size-changed, in CSS pixels, each within MaxViewSize.
        std::function<void(int width, int height)> sizeChanged;
        // Every message each way and every refusal, for the protocol log under the server.
        std::function<void(bool fromView, const QString &text)> log;
    };

    AppBridge(Mcp::Manager *manager, ToolRegistry *registry, ToolRunner *runner, Options options,
              Face face, QObject *parent = nullptr);
    ~AppBridge() override;

    // One message the view posted.
    void receive(QByteArrayView text);

    // What the host tells the view about the call whose result it shows. Each is sent once the
    // view is initialized (queued until then), in this order; partial input stops once the
    // whole input was given.
    void toolInputPartial(const Mcp::Json &arguments);
    void toolInput(const Mcp::Json &arguments);
    void toolResult(const Mcp::Json &result);
    void toolCancelled(const QString &reason);
    // Changed members of hostContext (theme, locale, containerDimensions, displayMode).
    void hostContextChanged(const Mcp::Json &changes);

    // Before the view goes away: ui/resource-teardown, then `done` when the view answered or
    // after TeardownTimeoutMs (at once, never inside this call, when the view never
    // initialized). Calls the view has running are cancelled.
    void teardown(const QString &reason, std::function<void()> done);

    bool isInitialized() const { return m_initialized; }
    // The modes the view said it supports (empty: it did not say).
    const QStringList &viewDisplayModes() const { return m_viewModes; }

    // The spec gives no bound; a view that does not answer in this long is torn down anyway.
    static constexpr int TeardownTimeoutMs = 3000;
    // A message a second on average is what a busy widget sends (size changes, a log line, a
    // call); this many in any one second is a view gone wrong or hostile.
    static constexpr int MaxMessagesPerSecond = 200;
    // Calls of tools a view may have running at once, and start per minute: a person clicking
    // buttons stays far below; a loop does not.
    static constexpr int MaxRunningCalls = 4;
    static constexpr int MaxCallsPerMinute = 60;
    // Sizes a view may ask for, in CSS pixels (the card scrolls beyond its own cap).
    static constexpr int MaxViewSize = 100000;
    // What a view may put in the composer or before the model.
    static constexpr int MaxSuggestedChars = 20000;
    static constexpr int MaxModelContextChars = 8000;
    // Of each message, what the protocol log keeps.
    static constexpr int MaxLoggedChars = 4000;

private:
    void handleRequest(const Mcp::Apps::BridgeMessage &message);
    void handleNotification(const Mcp::Apps::BridgeMessage &message);
    void answerInitialize(const Mcp::Json &id, const Mcp::Json &params);
    void callTool(const Mcp::Json &id, const Mcp::Json &params);
    void readResource(const Mcp::Json &id, const Mcp::Json &params);
    void openLink(const Mcp::Json &id, const Mcp::Json &params);
    void suggestMessage(const Mcp::Json &id, const Mcp::Json &params);
    void updateModelContext(const Mcp::Json &id, const Mcp::Json &params);
    void requestDisplayMode(const Mcp::Json &id, const Mcp::Json &params);

    void respond(const Mcp::Json &id, Mcp::Json result);
    void respondError(const Mcp::Json &id, int code, const QString &message);
    void notify(const char *method, Mcp::Json params);
    void send(const Mcp::Json &message);
    void flush();
    void cancelCalls();
    bool withinRate();
    void log(bool fromView, const QString &text);

    Mcp::Manager *m_manager;
    ToolRegistry *m_registry;
    ToolRunner *m_runner;
    Options m_options;
    Face m_face;

    bool m_answeredInitialize = false;
    bool m_initialized = false;
    QStringList m_viewModes;
    QString m_displayMode = QStringLiteral("inline");

    // What the view is owed, kept so that a reloaded view gets it again.
    std::optional<Mcp::Json> m_partialInput; // latest, until the whole input
    std::optional<Mcp::Json> m_input;
    std::optional<Mcp::Json> m_result;
    std::optional<QString> m_cancelled;
    bool m_inputSent = false;
    bool m_outcomeSent = false;
    bool m_partialPending = false;

    // The view's tool calls running: its request id (as JSON text) → the runner's id.
    std::map<std::string, ToolRunner::RunId> m_calls;
    QList<qint64> m_callStarts; // ms since m_clock started, last minute's
    // The host's own requests to the view (teardown): id → what the answer does.
    std::map<qint64, std::function<void()>> m_pending;
    qint64 m_nextId = 1;
    bool m_linkAsked = false;

    QElapsedTimer m_clock;
    qint64 m_windowStart = 0;
    int m_windowCount = 0;
    int m_dropped = 0;
    bool m_tornDown = false;
};

} // namespace Engine
