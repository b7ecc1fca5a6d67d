#pragma once

// Internal to src/engine/a2a: Client::Task, what the client's files share. The request side
// (choosing the interface, JSON-RPC posts, one call, the end) is in clienttask.cpp; a send
// followed until its task ends (events, polling, the envelope) in clienttaskfollow.cpp.

#include "client.h"
#include "exchange.h"

#include <mcp/transport/httptransport.h>

#include <QPointer>
#include <QTimer>

#include <optional>
#include <string>

namespace Engine::A2A {

QString fromStd(const std::string &text);

// The request options for `url`: the endpoint's headers only where its origin is the
// endpoint's own.
Mcp::HttpOptions optionsFor(const Endpoint &endpoint, const QUrl &url);

// One operation against an agent: a send followed until the task ends, or one call. Lives
// as a child of the Client; deletes itself once Done has run.
class Client::Task : public QObject
{
public:
    Task(Client *client, Endpoint endpoint);

    // --- send ---------------------------------------------------------------------------

    void send(Message message, SendOptions options, Progress progress, Done done);
    Stop stopper();

    // --- one call -----------------------------------------------------------------------

    void call(const char *method, Json params, CallDone done);
    Stop callStopper();

    static constexpr const char *EnvelopeBinding = "SWITCHBOARD-ENVELOPE";

private:
    // A send fails, a call finishes with the error.
    void failEither(const QString &error);
    // The interface to talk to and its version.
    bool chooseInterface(const QUrl &cardUrl);
    QString where() const { return tr("agent '%1'").arg(m_endpoint.displayName()); }
    // A JSON-RPC request to the interface; `events` set: asks for a stream.
    void post(const char *method, const Json &params, bool stream,
              std::function<void(const Json &result)> onResult,
              std::function<void(const Json &error, const QString &failure)> onError,
              std::function<void()> onStreamEnd = {});
    // Maybe from inside one of the exchange's callbacks: it is deleted later.
    void abortExchange();
    // Whether an error to a 1.0 request says the agent speaks only 0.3.
    bool speaksOnlyOld(const Json &error) const;
    void fallBack();

    // --- send: messages, events, polling (clienttaskfollow.cpp) ----------------------------

    Json sendParams() const;
    void sendMessage();
    // One result: a Task or a Message (a blocking send), or a streamed event.
    void accept(const Json &result);
    void addArtifact(const Artifact &artifact, bool append);
    // The answer or the stream ended without the task ending: ask for it until it does.
    void answerEnded();
    void poll();
    void finishTask();
    void sendEnvelope(const QUrl &url);

    // --- the end -------------------------------------------------------------------------

    // Stop or timeout: cancel the remote task (bounded wait), then report.
    void stop(Outcome::Kind kind, const QString &why);
    void fail(Outcome::Kind kind, const QString &error);
    void finish(Outcome::Kind kind, TaskState state, const QString &text, const QString &error);

    // --- one call ---------------------------------------------------------------------------

    void callMethod(const char *method, const Json &params);
    void finishCall(const Json &result, const QString &error);

    Client *m_client;
    Endpoint m_endpoint;
    Message m_message;
    SendOptions m_options;
    Progress m_progress;
    Done m_done;
    CallDone m_callDone;
    AgentCard m_card;
    QUrl m_rpcUrl;
    Version m_version = Version::V1_0;
    A2A::Task m_task;
    std::optional<Message> m_answer;
    QPointer<Exchange> m_exchange;
    QTimer m_timer;
    int m_polls = 0;
    bool m_sawEvent = false;
    bool m_envelope = false;
    bool m_stopping = false;
    bool m_finished = false;
    bool m_lastUnreachable = false;
};

} // namespace Engine::A2A
