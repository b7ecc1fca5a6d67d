// Client::Task: a send followed until its task ends (messages, events, polling, the envelope).
#include "clienttask.h"

#include <mcp/transport/httpsupport.h>
#include <mcp/wire/jsonparser.h>
#include <mcp/wire/safetext.h>

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTimer>

namespace Engine::A2A {

Json Client::Task::sendParams() const
{
    Json params = {{"message", toJson(m_message, m_version)}};
    // 0.3 servers return at once unless told to block; 1.0 blocks by default.
    params["configuration"]
            = m_version == Version::V0_3 ? Json{{"blocking", true}} : Json::object();
    return params;
}

void Client::Task::sendMessage()
{
    const bool stream = m_options.stream && m_card.streaming;
    const Methods names = methods(m_version);
    post(
            stream ? names.stream : names.send, sendParams(), stream,
            [this](const Json &result) { accept(result); },
            [this](const Json &error, const QString &failure) {
                if (m_finished)
                    return;
                if (speaksOnlyOld(error) && !m_sawEvent) {
                    fallBack();
                    sendMessage();
                    return;
                }
                fail(m_lastUnreachable ? Outcome::Kind::Unreachable : Outcome::Kind::Error,
                     failure);
            },
            [this] { answerEnded(); });
}

void Client::Task::accept(const Json &result)
{
    if (m_finished || m_stopping)
        return;
    QString error;
    std::optional<StreamEvent> event = readStreamEvent(result, &error);
    if (!event) {
        abortExchange();
        fail(Outcome::Kind::Error, tr("%1 sent an answer that is not A2A: %2").arg(where(), error));
        return;
    }
    m_sawEvent = true;
    switch (event->kind) {
    case StreamEvent::Kind::Task:
        m_task = *event->task;
        break;
    case StreamEvent::Kind::Message:
        if (m_task.id.isEmpty() || event->message->taskId.isEmpty()) {
            // A direct answer: the exchange is over.
            if (m_progress)
                m_progress(*event);
            m_answer = event->message;
            abortExchange();
            finish(Outcome::Kind::Completed, TaskState::Completed, m_answer->text(), {});
            return;
        }
        m_task.status.message = event->message;
        break;
    case StreamEvent::Kind::StatusUpdate:
        if (m_task.id.isEmpty())
            m_task.id = event->taskId;
        if (m_task.contextId.isEmpty())
            m_task.contextId = event->contextId;
        m_task.status = event->status;
        break;
    case StreamEvent::Kind::ArtifactUpdate:
        if (m_task.id.isEmpty())
            m_task.id = event->taskId;
        if (event->artifact)
            addArtifact(*event->artifact, event->append);
        break;
    }
    if (m_progress)
        m_progress(*event);
    if (isTerminal(m_task.status.state) || isInterrupted(m_task.status.state)) {
        abortExchange();
        finishTask();
    }
}

void Client::Task::addArtifact(const Artifact &artifact, bool append)
{
    for (Artifact &existing : m_task.artifacts) {
        if (!artifact.artifactId.isEmpty() && existing.artifactId == artifact.artifactId) {
            if (append)
                existing.parts += artifact.parts;
            else
                existing = artifact;
            return;
        }
    }
    m_task.artifacts << artifact;
}

void Client::Task::answerEnded()
{
    if (m_finished || m_stopping)
        return;
    if (m_task.id.isEmpty()) {
        fail(Outcome::Kind::Error,
             tr("%1 ended its answer without a task or a message").arg(where()));
        return;
    }
    if (isTerminal(m_task.status.state) || isInterrupted(m_task.status.state)) {
        finishTask();
        return;
    }
    QTimer::singleShot(m_polls++ == 0 ? 0 : PollIntervalMs, this, [this] { poll(); });
}

void Client::Task::poll()
{
    if (m_finished || m_stopping)
        return;
    post(
            methods(m_version).get, Json{{"id", m_task.id.toStdString()}}, false,
            [this](const Json &result) {
                QString error;
                std::optional<A2A::Task> task = readTask(result, &error);
                if (!task) {
                    fail(Outcome::Kind::Error,
                         tr("%1 sent a task that is not A2A: %2").arg(where(), error));
                    return;
                }
                const bool changed = task->status.state != m_task.status.state;
                if (!task->artifacts.isEmpty())
                    m_task.artifacts = task->artifacts;
                m_task.status = task->status;
                if (changed && m_progress) {
                    StreamEvent event;
                    event.kind = StreamEvent::Kind::StatusUpdate;
                    event.taskId = m_task.id;
                    event.contextId = m_task.contextId;
                    event.status = m_task.status;
                    m_progress(event);
                }
            },
            [this](const Json &, const QString &failure) {
                fail(m_lastUnreachable ? Outcome::Kind::Unreachable : Outcome::Kind::Error,
                     failure);
            },
            [this] { answerEnded(); });
}

void Client::Task::finishTask()
{
    const TaskState state = m_task.status.state;
    QString text;
    if (state == TaskState::Completed || !m_task.status.message)
        text = m_task.reportText();
    else
        text = m_task.status.message->text();
    Outcome::Kind kind = Outcome::Kind::Error;
    if (state == TaskState::Completed)
        kind = Outcome::Kind::Completed;
    else if (isInterrupted(state))
        kind = Outcome::Kind::Interrupted;
    else if (isTerminal(state))
        kind = Outcome::Kind::Failed;
    finish(kind, state, text,
           kind == Outcome::Kind::Error ? tr("the task is in a state this client does not know")
                                        : QString());
}

void Client::Task::sendEnvelope(const QUrl &url)
{
    m_envelope = true;
    QNetworkRequest http = Mcp::Http::request(optionsFor(m_endpoint, url), url,
                                              QByteArrayLiteral("application/json"));
    http.setRawHeader("Content-Type", "application/json");
    const Json body = {{"message", m_message.text().toStdString()}};
    QNetworkReply *reply = m_client->network()->post(
            http,
            QByteArray::fromStdString(body.dump(-1, ' ', false, Json::error_handler_t::replace)));
    m_exchange = new Exchange(
            reply, where(), {},
            [this, reply](int status, const QByteArray &bytes, const QString &failure) {
                m_exchange = nullptr;
                if (!failure.isEmpty()) {
                    fail(status == 0 ? Outcome::Kind::Unreachable : Outcome::Kind::Error, failure);
                    return;
                }
                const Json answer
                        = Mcp::parseJson(std::string_view(bytes.constData(), size_t(bytes.size())));
                if (!answer.is_object() || !answer.contains("code")
                    || !answer["code"].is_number_integer()) {
                    fail(Outcome::Kind::Error,
                         status / 100 == 2 ? Mcp::Http::notJson(where(), bytes.toStdString())
                                           : Mcp::Http::failure(where(), reply, bytes));
                    return;
                }
                const Json data = answer.value("data", Json::object());
                if (data.is_object() && data.contains("taskId") && data["taskId"].is_string())
                    m_task.id = fromStd(data["taskId"].get<std::string>());
                const QString message = answer.contains("message") && answer["message"].is_string()
                                                ? fromStd(answer["message"].get<std::string>())
                                                : QString();
                if (answer["code"].get<int>() != 0) {
                    fail(Outcome::Kind::Error,
                         tr("%1 answered code %2: %3")
                                 .arg(where())
                                 .arg(answer["code"].get<int>())
                                 .arg(Mcp::escapeControlCharacters(message.left(500))));
                    return;
                }
                const QString reply
                        = data.is_object() && data.contains("reply") && data["reply"].is_string()
                                  ? fromStd(data["reply"].get<std::string>())
                                  : QString();
                finish(Outcome::Kind::Completed, TaskState::Completed, reply, {});
            },
            this);
}

} // namespace Engine::A2A
