#pragma once

#include <mcp/wire/jsonrpc.h>

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

// The A2A protocol's data, in both wire forms a peer may speak: 1.0 (protobuf-style JSON:
// camelCase, ROLE_* and TASK_STATE_* enums, parts that are exactly one of text, data, url or
// raw) and 0.3 (`kind` tags, lower-case roles, "input-required" states, file parts). Reading is
// lenient about what it does not need and strict about what it does: a message without parts
// or a task without an id is not one.
namespace Engine::A2A {

using Json = Mcp::Json;

enum class Version { V1_0, V0_3 };

enum class Role { User, Agent };

enum class TaskState {
    Submitted,
    Working,
    InputRequired,
    AuthRequired,
    Completed,
    Failed,
    Canceled,
    Rejected,
    Unknown, // a state this client does not know
};
// The task ends in this state (no more updates come).
bool isTerminal(TaskState state);
// The task waits for something from the client (input or credentials).
bool isInterrupted(TaskState state);
// The state's name on the wire: "TASK_STATE_COMPLETED" (1.0), "completed" (0.3).
const char *stateName(TaskState state, Version version);
// "completed", "input required", ... for people.
QString describe(TaskState state);

struct Part
{
    enum class Kind { Text, Data, Url, Raw };
    Kind kind = Kind::Text;
    QString text;      // Text
    Json data;         // Data
    QString url;       // Url
    QByteArray raw;    // Raw (the bytes, decoded)
    QString mediaType; // optional
    QString filename;  // optional
    static Part fromText(QString text);
};

struct Message
{
    QString messageId;
    QString contextId;
    QString taskId;
    Role role = Role::User;
    QList<Part> parts;
    // The text parts, joined by blank lines (what a person or a model reads).
    QString text() const;
};

struct Artifact
{
    QString artifactId;
    QString name;
    QList<Part> parts;
};

struct TaskStatus
{
    TaskState state = TaskState::Unknown;
    std::optional<Message> message;
    QString timestamp;
};

struct Task
{
    QString id;
    QString contextId;
    TaskStatus status;
    QList<Artifact> artifacts;
    QList<Message> history;
    // The artifacts' text, else the status message's: the task's report.
    QString reportText() const;
};

// One event of a streamed answer (the `result` of each SSE message).
struct StreamEvent
{
    enum class Kind { Task, Message, StatusUpdate, ArtifactUpdate };
    Kind kind = Kind::Message;
    std::optional<Task> task;       // Task
    std::optional<Message> message; // Message
    QString taskId;                 // the updates'
    QString contextId;
    TaskStatus status;                // StatusUpdate
    std::optional<Artifact> artifact; // ArtifactUpdate
    bool append = false;              // ArtifactUpdate: adds to an artifact of the same id
    bool lastChunk = false;
};

// What an agent card says (1.0 cards; 0.3 cards are read into the same form).
struct AgentInterface
{
    QString url;
    QString protocolBinding; // "JSONRPC", "GRPC", "HTTP+JSON"
    QString protocolVersion; // "1.0", "0.3", ...
};
struct AgentSkill
{
    QString id;
    QString name;
    QString description;
};
struct AgentCard
{
    QString name;
    QString description;
    QString version;
    QList<AgentInterface> interfaces;
    bool streaming = false;
    QList<AgentSkill> skills;
    // The JSON-RPC interface to talk to, preferring 1.0; nullopt when the card offers none.
    std::optional<AgentInterface> jsonRpcInterface() const;
};

Json toJson(const Part &part, Version version);
Json toJson(const Message &message, Version version);
Json toJson(const TaskStatus &status, Version version);
Json toJson(const Artifact &artifact, Version version);
Json toJson(const Task &task, Version version);
// The `result` of one streamed answer: 1.0 wraps the event in a member naming its kind, 0.3
// tags it with `kind` (and a status update with `final`, true for the last one).
Json toJson(const StreamEvent &event, Version version, bool final = false);

// nullopt, and why in `error`, when the JSON is not one (any of the two versions).
std::optional<Part> readPart(const Json &json, QString *error = nullptr);
std::optional<Message> readMessage(const Json &json, QString *error = nullptr);
std::optional<Task> readTask(const Json &json, QString *error = nullptr);
std::optional<StreamEvent> readStreamEvent(const Json &result, QString *error = nullptr);
std::optional<AgentCard> readAgentCard(const Json &json, QString *error = nullptr);

using Mcp::stringMember;

// The method names of each version.
struct Methods
{
    const char *send;
    const char *stream;
    const char *get;
    const char *cancel;
};
Methods methods(Version version);

} // namespace Engine::A2A
