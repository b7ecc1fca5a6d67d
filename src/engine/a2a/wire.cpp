#include "wire.h"

#include <QCoreApplication>

#include <array>

namespace Engine::A2A {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Engine::A2A", text);
}

QString string(const Json &object, const char *key)
{
    return stringMember(object, key);
}

bool flag(const Json &object, const char *key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_boolean() && it->get<bool>();
}

template<typename T>
std::optional<T> refuse(QString *error, const QString &why)
{
    if (error)
        *error = why;
    return std::nullopt;
}

struct StateName
{
    TaskState state;
    const char *v1;
    const char *v03;
};
constexpr std::array<StateName, 8> StateNames{{
        {TaskState::Submitted, "TASK_STATE_SUBMITTED", "submitted"},
        {TaskState::Working, "TASK_STATE_WORKING", "working"},
        {TaskState::InputRequired, "TASK_STATE_INPUT_REQUIRED", "input-required"},
        {TaskState::AuthRequired, "TASK_STATE_AUTH_REQUIRED", "auth-required"},
        {TaskState::Completed, "TASK_STATE_COMPLETED", "completed"},
        {TaskState::Failed, "TASK_STATE_FAILED", "failed"},
        {TaskState::Canceled, "TASK_STATE_CANCELED", "canceled"},
        {TaskState::Rejected, "TASK_STATE_REJECTED", "rejected"},
}};

TaskState readState(const QString &name)
{
    for (const StateName &entry : StateNames) {
        if (name == QLatin1String(entry.v1) || name == QLatin1String(entry.v03))
            return entry.state;
    }
    if (name == QLatin1String("cancelled") || name == QLatin1String("TASK_STATE_CANCELLED"))
        return TaskState::Canceled;
    return TaskState::Unknown;
}

} // namespace

const char *stateName(TaskState state, Version version)
{
    for (const StateName &entry : StateNames) {
        if (entry.state == state)
            return version == Version::V1_0 ? entry.v1 : entry.v03;
    }
    return version == Version::V1_0 ? "TASK_STATE_UNSPECIFIED" : "unknown";
}

namespace {

std::optional<TaskStatus> readStatus(const Json &json, QString *error)
{
    if (!json.is_object())
        return refuse<TaskStatus>(error, tr("a task status is not an object"));
    TaskStatus status;
    status.state = readState(string(json, "state"));
    status.timestamp = string(json, "timestamp");
    if (const auto it = json.find("message"); it != json.end() && !it->is_null()) {
        status.message = readMessage(*it, error);
        if (!status.message)
            return std::nullopt;
    }
    return status;
}

// The `parts` list of a message or an artifact; `missing` says what lacks it.
std::optional<QList<Part>> readParts(const Json &json, const QString &missing, QString *error)
{
    const auto list = json.find("parts");
    if (list == json.end() || !list->is_array())
        return refuse<QList<Part>>(error, missing);
    QList<Part> parts;
    for (const Json &item : *list) {
        std::optional<Part> part = readPart(item, error);
        if (!part)
            return std::nullopt;
        parts << *part;
    }
    return parts;
}

std::optional<Artifact> readArtifact(const Json &json, QString *error)
{
    if (!json.is_object())
        return refuse<Artifact>(error, tr("an artifact is not an object"));
    Artifact artifact;
    artifact.artifactId = string(json, "artifactId");
    artifact.name = string(json, "name");
    std::optional<QList<Part>> parts = readParts(json, tr("an artifact has no parts"), error);
    if (!parts)
        return std::nullopt;
    artifact.parts = std::move(*parts);
    return artifact;
}

QString joinedText(const QList<Part> &parts)
{
    QStringList texts;
    for (const Part &part : parts) {
        if (part.kind == Part::Kind::Text && !part.text.isEmpty())
            texts << part.text;
    }
    return texts.join(QStringLiteral("\n\n"));
}

} // namespace

bool isTerminal(TaskState state)
{
    return state == TaskState::Completed || state == TaskState::Failed
           || state == TaskState::Canceled || state == TaskState::Rejected;
}

bool isInterrupted(TaskState state)
{
    return state == TaskState::InputRequired || state == TaskState::AuthRequired;
}

QString describe(TaskState state)
{
    switch (state) {
    case TaskState::Submitted:
        return tr("submitted");
    case TaskState::Working:
        return tr("working");
    case TaskState::InputRequired:
        return tr("input required");
    case TaskState::AuthRequired:
        return tr("authorization required");
    case TaskState::Completed:
        return tr("completed");
    case TaskState::Failed:
        return tr("failed");
    case TaskState::Canceled:
        return tr("canceled");
    case TaskState::Rejected:
        return tr("rejected");
    case TaskState::Unknown:
        break;
    }
    return tr("in an unknown state");
}

Part Part::fromText(QString text)
{
    Part part;
    part.text = std::move(text);
    return part;
}

QString Message::text() const
{
    return joinedText(parts);
}

QString Task::reportText() const
{
    QStringList texts;
    for (const Artifact &artifact : artifacts) {
        if (const QString text = joinedText(artifact.parts); !text.isEmpty())
            texts << text;
    }
    if (texts.isEmpty() && status.message)
        return status.message->text();
    return texts.join(QStringLiteral("\n\n"));
}

std::optional<AgentInterface> AgentCard::jsonRpcInterface() const
{
    std::optional<AgentInterface> best;
    for (const AgentInterface &candidate : interfaces) {
        if (candidate.protocolBinding.compare(QLatin1String("JSONRPC"), Qt::CaseInsensitive))
            continue;
        if (!best || candidate.protocolVersion.startsWith(QLatin1String("1.")))
            best = candidate;
    }
    return best;
}

Json toJson(const Part &part, Version version)
{
    Json json = Json::object();
    if (version == Version::V1_0) {
        switch (part.kind) {
        case Part::Kind::Text:
            json["text"] = part.text.toStdString();
            break;
        case Part::Kind::Data:
            json["data"] = part.data;
            break;
        case Part::Kind::Url:
            json["url"] = part.url.toStdString();
            break;
        case Part::Kind::Raw:
            json["raw"] = part.raw.toBase64().toStdString();
            break;
        }
        if (!part.mediaType.isEmpty())
            json["mediaType"] = part.mediaType.toStdString();
        if (!part.filename.isEmpty())
            json["filename"] = part.filename.toStdString();
        return json;
    }
    switch (part.kind) {
    case Part::Kind::Text:
        return {{"kind", "text"}, {"text", part.text.toStdString()}};
    case Part::Kind::Data:
        return {{"kind", "data"}, {"data", part.data}};
    case Part::Kind::Url:
    case Part::Kind::Raw: {
        Json file = Json::object();
        if (part.kind == Part::Kind::Url)
            file["uri"] = part.url.toStdString();
        else
            file["bytes"] = part.raw.toBase64().toStdString();
        if (!part.mediaType.isEmpty())
            file["mimeType"] = part.mediaType.toStdString();
        if (!part.filename.isEmpty())
            file["name"] = part.filename.toStdString();
        return {{"kind", "file"}, {"file", file}};
    }
    }
    return json;
}

Json toJson(const Message &message, Version version)
{
    Json parts = Json::array();
    for (const Part &part : message.parts)
        parts.push_back(toJson(part, version));
    const bool v1 = version == Version::V1_0;
    Json json = {{"messageId", message.messageId.toStdString()},
                 {"role", message.role == Role::User ? (v1 ? "ROLE_USER" : "user")
                                                     : (v1 ? "ROLE_AGENT" : "agent")},
                 {"parts", parts}};
    if (!message.contextId.isEmpty())
        json["contextId"] = message.contextId.toStdString();
    if (!message.taskId.isEmpty())
        json["taskId"] = message.taskId.toStdString();
    if (!v1)
        json["kind"] = "message";
    return json;
}

Json toJson(const TaskStatus &status, Version version)
{
    Json json = {{"state", stateName(status.state, version)}};
    if (status.message)
        json["message"] = toJson(*status.message, version);
    if (!status.timestamp.isEmpty())
        json["timestamp"] = status.timestamp.toStdString();
    return json;
}

Json toJson(const Artifact &artifact, Version version)
{
    Json parts = Json::array();
    for (const Part &part : artifact.parts)
        parts.push_back(toJson(part, version));
    Json json = {{"artifactId", artifact.artifactId.toStdString()}, {"parts", parts}};
    if (!artifact.name.isEmpty())
        json["name"] = artifact.name.toStdString();
    return json;
}

Json toJson(const Task &task, Version version)
{
    Json artifacts = Json::array();
    for (const Artifact &artifact : task.artifacts)
        artifacts.push_back(toJson(artifact, version));
    Json history = Json::array();
    for (const Message &message : task.history)
        history.push_back(toJson(message, version));
    Json json = {{"id", task.id.toStdString()},
                 {"contextId", task.contextId.toStdString()},
                 {"status", toJson(task.status, version)},
                 {"artifacts", artifacts},
                 {"history", history}};
    if (version == Version::V0_3)
        json["kind"] = "task";
    return json;
}

Json toJson(const StreamEvent &event, Version version, bool final)
{
    const bool v1 = version == Version::V1_0;
    switch (event.kind) {
    case StreamEvent::Kind::Task:
        return v1 ? Json{{"task", toJson(event.task.value_or(Task{}), version)}}
                  : toJson(event.task.value_or(Task{}), version);
    case StreamEvent::Kind::Message:
        return v1 ? Json{{"message", toJson(event.message.value_or(Message{}), version)}}
                  : toJson(event.message.value_or(Message{}), version);
    case StreamEvent::Kind::StatusUpdate: {
        Json body = {{"taskId", event.taskId.toStdString()},
                     {"contextId", event.contextId.toStdString()},
                     {"status", toJson(event.status, version)}};
        if (v1)
            return {{"statusUpdate", body}};
        body["kind"] = "status-update";
        body["final"] = final;
        return body;
    }
    case StreamEvent::Kind::ArtifactUpdate: {
        Json body = {{"taskId", event.taskId.toStdString()},
                     {"contextId", event.contextId.toStdString()},
                     {"artifact", toJson(event.artifact.value_or(Artifact{}), version)},
                     {"append", event.append},
                     {"lastChunk", event.lastChunk}};
        if (v1)
            return {{"artifactUpdate", body}};
        body["kind"] = "artifact-update";
        return body;
    }
    }
    return Json::object();
}

std::optional<Part> readPart(const Json &json, QString *error)
{
    if (!json.is_object())
        return refuse<Part>(error, tr("a message part is not an object"));
    Part part;
    part.mediaType = string(json, "mediaType");
    part.filename = string(json, "filename");
    const QString kind = string(json, "kind");
    if (json.contains("text") || kind == QLatin1String("text")) {
        if (!json.value("text", Json()).is_string())
            return refuse<Part>(error, tr("a text part has no text"));
        part.text = string(json, "text");
        return part;
    }
    if (json.contains("data") || kind == QLatin1String("data")) {
        part.kind = Part::Kind::Data;
        part.data = json.value("data", Json());
        return part;
    }
    if (json.contains("url")) {
        part.kind = Part::Kind::Url;
        part.url = string(json, "url");
        return part;
    }
    if (json.contains("raw")) {
        part.kind = Part::Kind::Raw;
        part.raw = QByteArray::fromBase64(string(json, "raw").toLatin1());
        return part;
    }
    if (const auto file = json.find("file"); file != json.end() && file->is_object()) {
        part.mediaType = string(*file, "mimeType");
        part.filename = string(*file, "name");
        if (file->contains("uri")) {
            part.kind = Part::Kind::Url;
            part.url = string(*file, "uri");
        } else {
            part.kind = Part::Kind::Raw;
            part.raw = QByteArray::fromBase64(string(*file, "bytes").toLatin1());
        }
        return part;
    }
    return refuse<Part>(error, tr("a message part is neither text, data, a URL nor a file"));
}

std::optional<Message> readMessage(const Json &json, QString *error)
{
    if (!json.is_object())
        return refuse<Message>(error, tr("a message is not an object"));
    Message message;
    message.messageId = string(json, "messageId");
    message.contextId = string(json, "contextId");
    message.taskId = string(json, "taskId");
    const QString role = string(json, "role");
    message.role = role == QLatin1String("ROLE_USER") || role == QLatin1String("user")
                           ? Role::User
                           : Role::Agent;
    std::optional<QList<Part>> parts = readParts(json, tr("a message has no parts"), error);
    if (!parts)
        return std::nullopt;
    message.parts = std::move(*parts);
    return message;
}

std::optional<Task> readTask(const Json &json, QString *error)
{
    if (!json.is_object())
        return refuse<Task>(error, tr("a task is not an object"));
    Task task;
    task.id = string(json, "id");
    if (task.id.isEmpty())
        return refuse<Task>(error, tr("a task has no id"));
    task.contextId = string(json, "contextId");
    std::optional<TaskStatus> status = readStatus(json.value("status", Json()), error);
    if (!status)
        return std::nullopt;
    task.status = std::move(*status);
    // Optional lists of the task: absent or null is empty, anything else but a list is wrong.
    const auto list = [&json, error](const char *key) -> std::optional<Json> {
        const auto it = json.find(key);
        if (it == json.end() || it->is_null())
            return Json::array();
        if (!it->is_array())
            return refuse<Json>(error, tr("a task's '%1' is not a list").arg(QLatin1String(key)));
        return *it;
    };
    const std::optional<Json> artifacts = list("artifacts");
    const std::optional<Json> history = artifacts ? list("history") : std::nullopt;
    if (!history)
        return std::nullopt;
    for (const Json &item : *artifacts) {
        std::optional<Artifact> artifact = readArtifact(item, error);
        if (!artifact)
            return std::nullopt;
        task.artifacts << *artifact;
    }
    for (const Json &item : *history) {
        std::optional<Message> message = readMessage(item, error);
        if (!message)
            return std::nullopt;
        task.history << *message;
    }
    return task;
}

std::optional<StreamEvent> readStreamEvent(const Json &result, QString *error)
{
    if (!result.is_object())
        return refuse<StreamEvent>(error, tr("the answer is not an object"));
    StreamEvent event;
    // 1.0: exactly one member names the kind; 0.3: the object itself, tagged by `kind`.
    Json body = result;
    QString kind = string(result, "kind");
    for (const char *member : {"task", "message", "statusUpdate", "artifactUpdate"}) {
        if (const auto it = result.find(member); it != result.end() && it->is_object()) {
            body = *it;
            kind = QLatin1String(member);
            break;
        }
    }
    if (kind == QLatin1String("task")) {
        event.kind = StreamEvent::Kind::Task;
        event.task = readTask(body, error);
        if (!event.task)
            return std::nullopt;
        event.taskId = event.task->id;
        event.contextId = event.task->contextId;
        event.status = event.task->status;
        return event;
    }
    if (kind == QLatin1String("message")) {
        event.kind = StreamEvent::Kind::Message;
        event.message = readMessage(body, error);
        if (!event.message)
            return std::nullopt;
        return event;
    }
    event.taskId = string(body, "taskId");
    event.contextId = string(body, "contextId");
    if (kind == QLatin1String("statusUpdate") || kind == QLatin1String("status-update")) {
        event.kind = StreamEvent::Kind::StatusUpdate;
        std::optional<TaskStatus> status = readStatus(body.value("status", Json()), error);
        if (!status)
            return std::nullopt;
        event.status = std::move(*status);
        return event;
    }
    if (kind == QLatin1String("artifactUpdate") || kind == QLatin1String("artifact-update")) {
        event.kind = StreamEvent::Kind::ArtifactUpdate;
        event.artifact = readArtifact(body.value("artifact", Json()), error);
        if (!event.artifact)
            return std::nullopt;
        event.append = flag(body, "append");
        event.lastChunk = flag(body, "lastChunk");
        return event;
    }
    return refuse<StreamEvent>(error, tr("the answer is neither a task, a message nor an update"));
}

std::optional<AgentCard> readAgentCard(const Json &json, QString *error)
{
    if (!json.is_object())
        return refuse<AgentCard>(error, tr("the agent card is not a JSON object"));
    AgentCard card;
    card.name = string(json, "name");
    if (card.name.isEmpty())
        return refuse<AgentCard>(error, tr("the agent card has no name"));
    card.description = string(json, "description");
    card.version = string(json, "version");
    if (const auto list = json.find("supportedInterfaces");
        list != json.end() && list->is_array()) {
        for (const Json &item : *list) {
            if (item.is_object() && !string(item, "url").isEmpty())
                card.interfaces << AgentInterface{string(item, "url"),
                                                  string(item, "protocolBinding"),
                                                  string(item, "protocolVersion")};
        }
    }
    // 0.3: the main interface at the top, more in additionalInterfaces.
    if (const QString url = string(json, "url"); !url.isEmpty()) {
        const QString transport = string(json, "preferredTransport");
        card.interfaces << AgentInterface{
                url, transport.isEmpty() ? QStringLiteral("JSONRPC") : transport,
                string(json, "protocolVersion")};
        if (const auto more = json.find("additionalInterfaces");
            more != json.end() && more->is_array()) {
            for (const Json &item : *more) {
                if (item.is_object() && !string(item, "url").isEmpty())
                    card.interfaces
                            << AgentInterface{string(item, "url"), string(item, "transport"),
                                              string(json, "protocolVersion")};
            }
        }
    }
    if (const auto capabilities = json.find("capabilities");
        capabilities != json.end() && capabilities->is_object())
        card.streaming = flag(*capabilities, "streaming");
    if (const auto skills = json.find("skills"); skills != json.end() && skills->is_array()) {
        for (const Json &item : *skills) {
            if (item.is_object())
                card.skills << AgentSkill{string(item, "id"), string(item, "name"),
                                          string(item, "description")};
        }
    }
    return card;
}

Methods methods(Version version)
{
    if (version == Version::V1_0)
        return {"SendMessage", "SendStreamingMessage", "GetTask", "CancelTask"};
    return {"message/send", "message/stream", "tasks/get", "tasks/cancel"};
}

} // namespace Engine::A2A
