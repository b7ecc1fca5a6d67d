#pragma once

#include "wire.h"

#include <QHash>
#include <QMap>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QUrl>

#include <functional>
#include <memory>

class QNetworkAccessManager;

namespace Engine::A2A {

// Where a task goes: a peer from the configuration, or a URL the model or the user named.
struct Endpoint
{
    QString name; // the peer's name; empty for a bare URL
    // The agent's base URL (its card is at /.well-known/agent-card.json below it), the card's
    // own URL (ending in ".json"), or a Switchboard envelope URL (ending in /a2a/message).
    QUrl url;
    // Sent with every request to the URL's origin, and to no other (`${VAR}` already
    // expanded): credentials, so never logged or shown.
    QMap<QString, QString> headers;
    int timeoutMs = 300 * 1000;
    // How people read it: the peer's name, else the URL without user info or query.
    QString displayName() const;
};

// How a task ended, as the caller reports it.
struct Outcome
{
    enum class Kind {
        Completed,   // a completed task, or a direct message answer
        Interrupted, // the agent needs input or credentials (INPUT_REQUIRED, AUTH_REQUIRED)
        Failed,      // FAILED, REJECTED, or CANCELED at the remote
        Stopped,     // canceled here (Stop); the remote task was asked to cancel too
        TimedOut,    // past the endpoint's timeout; the remote task was asked to cancel
        Unreachable, // no connection, or no agent card
        Error,       // a protocol error: a JSON-RPC error, a malformed answer
    };
    Kind kind = Kind::Error;
    TaskState state = TaskState::Unknown; // the task's last state, when there was a task
    QString text;                         // the report (artifacts' text, else the message)
    QString error;                        // Error/Unreachable/TimedOut: what went wrong
    QString taskId;
    QString contextId;
    Version version = Version::V1_0; // the protocol version spoken (Envelope: V1_0)
    bool envelope = false;           // spoken over Switchboard's simple envelope
    bool ok() const { return kind == Kind::Completed; }
    // One line for a person or a model: "completed", "input required: <the agent's message>",
    // "unreachable: <why>", ...
    QString summary() const;
};

struct SendOptions
{
    // Stream the task's events when the agent's card says it can; otherwise (or false) one
    // blocking SendMessage, polled with GetTask while the task has not finished.
    bool stream = true;
    int timeoutMs = -1; // -1: the endpoint's
    QString contextId;  // continue a conversation with the agent
    QString taskId;     // answer an interrupted task (INPUT_REQUIRED)
};

using Progress = std::function<void(const StreamEvent &)>;
using Done = std::function<void(const Outcome &)>;
// Stops the task: the request is aborted, the remote task canceled; Done still runs once.
using Stop = std::function<void()>;

// A2A client over the JSON-RPC binding (1.0, and 0.3 for agents that only speak that) and
// Switchboard's simple envelope. Fetches the agent card (A2A-Version: 1.0; the older
// agent.json where there is none), talks to its JSON-RPC interface, falls back to 0.3 when a
// 1.0 method is unknown (-32601) and remembers that per agent. Every request carries the
// endpoint's headers (to the endpoint's origin only), answers are size-capped, redirects stay
// within the origin. Every callback runs on the thread the Client lives in, Done exactly once.
class Client : public QObject
{
    Q_OBJECT
public:
    // `network` may be null (the client makes its own); not owned.
    explicit Client(QNetworkAccessManager *network = nullptr, QObject *parent = nullptr);
    ~Client() override;

    // Sends one message and follows the task it starts until it ends, is interrupted, times
    // out (then canceled at the remote) or is stopped.
    Stop send(const Endpoint &endpoint, const Message &message, const SendOptions &options,
              Progress progress, Done done);
    Stop send(const Endpoint &endpoint, const QString &text, const SendOptions &options,
              Progress progress, Done done);

    // The agent card, or why there is none.
    using CardDone = std::function<void(std::optional<AgentCard>, const QString &error)>;
    void fetchCard(const Endpoint &endpoint, CardDone done);

    // One JSON-RPC call to the agent (card fetched first, version chosen as for send()): the
    // result, or an error. `method` is the 1.0 name; its 0.3 name is used where needed.
    using CallDone = std::function<void(const Json &result, const QString &error)>;
    Stop getTask(const Endpoint &endpoint, const QString &taskId, CallDone done);
    Stop cancelTask(const Endpoint &endpoint, const QString &taskId, CallDone done);
    Stop listTasks(const Endpoint &endpoint, const Json &params, CallDone done);

    // The version the agent at this URL was found to speak (it answered -32601 to 1.0).
    std::optional<Version> knownVersion(const QUrl &url) const;

    // Caps: an answer body (JSON) and one streamed event.
    static constexpr qint64 MaxAnswerBytes = 16 * 1024 * 1024;
    // How long a cancel at the remote may take once a task is stopped or timed out.
    static constexpr int CancelWaitMs = 5000;
    // Polling a task that a blocking send left unfinished.
    static constexpr int PollIntervalMs = 1000;

private:
    class Task;
    friend class Task;
    QNetworkAccessManager *network();
    using LoadedCard = std::function<void(std::optional<AgentCard>, const QString &error,
                                          const QUrl &cardUrl)>;
    // The card, from the cache or fetched; `done` is not called once `context` is gone.
    void loadCard(const Endpoint &endpoint, QObject *context, LoadedCard done);
    void fetchCardFrom(const Endpoint &endpoint, QList<QUrl> candidates, const QString &cacheKey,
                       QObject *context, LoadedCard done);

    struct CachedCard
    {
        AgentCard card;
        QUrl url; // where it was found
    };
    QPointer<QNetworkAccessManager> m_network;
    QHash<QString, Version> m_versions; // per interface URL
    QHash<QString, CachedCard> m_cards; // per endpoint card URL, for this client's life
    qint64 m_nextId = 0;
};

// The Switchboard envelope URL: a path ending in /a2a/message.
bool isEnvelopeUrl(const QUrl &url);

} // namespace Engine::A2A
