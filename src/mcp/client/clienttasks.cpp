// Client: tool calls that become tasks (2025-11-25 tasks/*; 2026-07-28 the
// io.modelcontextprotocol/tasks extension). See Client::runningTaskCount() in client.h.
#include "client.h"

#include <mcp/wire/jsonmember.h>

#include <QTimer>

#include <algorithm>

namespace Mcp {

namespace {

constexpr int MinPollMs = 200;
constexpr int MaxPollMs = 5000;
// A server's questions per task (2026-07-28): past this many, the task is canceled.
constexpr std::size_t MaxTaskInputs = 64;

bool isTerminal(const std::string &status)
{
    return status == "completed" || status == "failed" || status == "cancelled";
}

// The task a tools/call answered with, or null: 2025-11-25 wraps it ({"task": {...}}),
// 2026-07-28 flattens it ({"resultType": "task", "taskId": ...}).
const Json *createdTask(const Json &result, bool *modern)
{
    if (!result.is_object())
        return nullptr;
    const Json &type = jsonMember(result, "resultType");
    if (type.is_string() && type.get_ref<const std::string &>() == "task"
        && jsonMember(result, "taskId").is_string()) {
        *modern = true;
        return &result;
    }
    const Json &task = jsonMember(result, "task");
    if (task.is_object() && jsonMember(task, "taskId").is_string() && !result.contains("content")) {
        *modern = false;
        return &task;
    }
    return nullptr;
}

} // namespace

bool Client::asksForTask(std::string_view tool) const
{
    if (m_era == Era::Rev2026_07_28)
        return false; // the server decides in this era
    const Json &requests = jsonMember(jsonMember(m_capabilities.json, "tasks"), "requests");
    if (!jsonMember(jsonMember(requests, "tools"), "call").is_object())
        return false;
    const Json *definition = findTool(tool);
    if (!definition)
        return false;
    const QString support = stringMember(jsonMember(*definition, "execution"), "taskSupport");
    return support == QLatin1String("optional") || support == QLatin1String("required");
}

std::string Client::taskId(RequestId id) const
{
    const auto it = m_tasks.find(id);
    return it == m_tasks.end() ? std::string() : it->second.taskId;
}

Client::Callback Client::taskAwareCallback(RequestId id, ToolCallback callback, QObject *context,
                                           const RequestOptions &options)
{
    QPointer<Client> self(this);
    return [self, id, callback = std::move(callback), context = QPointer<QObject>(context),
            hasContext = context != nullptr, onProgress = options.onProgress,
            timeoutMs = options.timeoutMs](Response response) mutable {
        bool modern = false;
        const Json *created = response.ok() ? createdTask(response.result, &modern) : nullptr;
        if (!self || !created) {
            callback(toolResultFrom(std::move(response)));
            return;
        }
        ToolTask task;
        task.taskId = jsonMember(*created, "taskId").get<std::string>();
        task.callback = std::move(callback);
        task.context = context;
        task.hasContext = hasContext;
        task.onProgress = std::move(onProgress);
        task.modern = modern;
        task.timeoutMs = timeoutMs > 0 ? timeoutMs : self->m_options.requestTimeoutMs;
        self->followTask(id, std::move(task), *created);
    };
}

void Client::followTask(RequestId id, ToolTask task, const Json &created)
{
    const qint64 now = steadyNowMs();
    task.hardDeadline = now + std::max(task.timeoutMs, m_options.maxRequestTimeoutMs);
    task.deadline = std::min(now + task.timeoutMs, task.hardDeadline);
    m_tasks[id] = std::move(task);
    onTaskStatus(id, created);
    if (m_tasks.count(id))
        scheduleTaskPoll(id);
}

// A status from a tasks/get, a notification or the creation: progress for the caller, the
// timer restarted when it is new, and the result fetched once the task ends.
void Client::onTaskStatus(RequestId id, const Json &task)
{
    auto it = m_tasks.find(id);
    if (it == m_tasks.end())
        return;
    ToolTask &t = it->second;
    const QString status = stringMember(task, "status");
    const QString message = stringMember(task, "statusMessage");
    const Json &interval = jsonMember(task, t.modern ? "pollIntervalMs" : "pollInterval");
    if (interval.is_number())
        t.pollMs = int(std::clamp(interval.get<double>(), double(MinPollMs), double(MaxPollMs)));
    if (!status.isEmpty()
        && (status.toStdString() != t.status || message.toStdString() != t.statusMessage)) {
        t.status = status.toStdString();
        t.statusMessage = message.toStdString();
        ++t.updates;
        t.deadline = std::min(steadyNowMs() + t.timeoutMs, t.hardDeadline);
        if (t.onProgress && !(t.hasContext && !t.context)) {
            Progress progress;
            progress.progress = t.updates;
            progress.message = message.isEmpty() ? status : status + QLatin1String(": ") + message;
            t.onProgress(progress);
        }
    }
    if (!m_tasks.count(id))
        return; // the progress callback canceled it
    ToolTask &current = m_tasks.at(id);
    if (current.modern) {
        if (current.status == "completed") {
            const Json &result = jsonMember(task, "result");
            if (!result.is_object()) {
                finishTask(id, toolResultFrom(
                                       Response::failure(ErrorCode::InvalidResult,
                                                         where() + ": task " + current.taskId
                                                                 + " completed without a result")));
                return;
            }
            finishTask(id, toolResultFrom(Response::success(result)));
        } else if (current.status == "failed") {
            const Json &error = jsonMember(task, "error");
            RpcError failure{
                    error.is_object() && jsonMember(error, "code").is_number_integer()
                            ? jsonMember(error, "code").get<int>()
                            : ErrorCode::InternalError,
                    where() + ": task " + current.taskId + " failed"
                            + (stringMember(error, "message").isEmpty()
                                       ? std::string()
                                       : ": " + stringMember(error, "message").toStdString()),
                    nullptr, false};
            ToolResult result;
            result.error = std::move(failure);
            finishTask(id, std::move(result));
        } else if (current.status == "cancelled") {
            finishTask(id,
                       toolResultFrom(Response::failure(ErrorCode::RequestCancelled,
                                                        where() + ": task " + current.taskId
                                                                + " was cancelled by the server")));
        } else if (current.status == "input_required") {
            answerTaskInput(id, jsonMember(task, "inputRequests"));
        }
        return;
    }
    // 2025-11-25: tasks/result answers once the task ends, and carries the server's questions
    // while it needs input.
    if (isTerminal(current.status) || current.status == "input_required")
        fetchTaskResult(id);
}

void Client::scheduleTaskPoll(RequestId id)
{
    auto it = m_tasks.find(id);
    if (it == m_tasks.end())
        return;
    QTimer::singleShot(it->second.pollMs, this, [this, id] { pollTask(id); });
}

void Client::pollTask(RequestId id)
{
    auto it = m_tasks.find(id);
    if (it == m_tasks.end())
        return;
    ToolTask &task = it->second;
    if (task.hasContext && !task.context) {
        cancelTask(id, "the caller is gone", ErrorCode::RequestCancelled);
        return;
    }
    if (steadyNowMs() >= task.deadline) {
        cancelTask(id,
                   "task " + task.taskId + " timed out after "
                           + std::to_string(task.timeoutMs / 1000) + " s without news",
                   ErrorCode::RequestTimeout);
        return;
    }
    if (task.polling) {
        scheduleTaskPoll(id);
        return;
    }
    task.polling = true;
    request("tasks/get", Json{{"taskId", task.taskId}}, this, [this, id](Response response) {
        auto it = m_tasks.find(id);
        if (it == m_tasks.end())
            return;
        it->second.polling = false;
        if (!response.ok()) {
            // The task is gone (expired, unknown) or the server broke: the call ends with it.
            ToolResult result;
            result.error = std::move(response.error);
            result.error->message = where() + ": task " + it->second.taskId
                                    + " could not be followed: " + result.error->message;
            finishTask(id, std::move(result));
            return;
        }
        onTaskStatus(id, response.result);
        scheduleTaskPoll(id);
    });
}

void Client::fetchTaskResult(RequestId id)
{
    ToolTask &task = m_tasks.at(id);
    if (task.fetching)
        return;
    task.fetching = true;
    RequestOptions options;
    // It blocks until the task ends: its own deadline is the task's, renewed by its news.
    options.untimed = true;
    task.fetchId = request(
            "tasks/result", Json{{"taskId", task.taskId}}, this,
            [this, id](Response response) {
                if (!m_tasks.count(id))
                    return;
                finishTask(id, toolResultFrom(std::move(response)));
            },
            options);
}

// 2026-07-28: the task asks questions in tasks/get's inputRequests; each is answered once by
// the handler for its method, and the answers go back with tasks/update.
void Client::answerTaskInput(RequestId id, const Json &requests)
{
    ToolTask &task = m_tasks.at(id);
    if (!requests.is_object())
        return;
    for (const auto &[key, request] : requests.items()) {
        if (task.answeredInputs.count(key))
            continue;
        if (task.answeredInputs.size() >= MaxTaskInputs) {
            cancelTask(id, "task " + task.taskId + " asked too many questions",
                       ErrorCode::InvalidResult);
            return;
        }
        task.answeredInputs.insert(key);
        const std::string method = stringMember(request, "method").toStdString();
        const auto handler = m_handlers.find(method);
        const std::string inputKey = key; // a lambda may not capture a structured binding
        QPointer<Client> self(this);
        const auto send = [self, id, inputKey](Json answer) {
            if (!self || !self->m_tasks.count(id))
                return;
            const std::string taskId = self->m_tasks.at(id).taskId;
            self->request("tasks/update",
                          Json{{"taskId", taskId}, {"inputResponses", {{inputKey, answer}}}}, self,
                          [](Response) {});
        };
        if (handler == m_handlers.end()) {
            cancelTask(id,
                       where() + " asked for '" + method + "' in task " + task.taskId
                               + ", which this client does not offer",
                       ErrorCode::MethodNotFound);
            return;
        }
        handler->second(jsonMember(request, "params"), [send, self, id](Response response) {
            if (!response.ok()) {
                if (self && self->m_tasks.count(id))
                    self->cancelTask(id, response.error->message, response.error->code);
                return;
            }
            send(std::move(response.result));
        });
        if (!m_tasks.count(id))
            return;
    }
}

void Client::finishTask(RequestId id, ToolResult result)
{
    auto it = m_tasks.find(id);
    if (it == m_tasks.end())
        return;
    ToolTask task = std::move(it->second);
    m_tasks.erase(it);
    if (task.fetchId != 0 && m_pending.count(task.fetchId))
        cancel(task.fetchId, QStringLiteral("the task's call ended"));
    if (task.hasContext && !task.context)
        return;
    if (task.callback)
        task.callback(std::move(result));
}

void Client::cancelTask(RequestId id, const std::string &why, int code)
{
    auto it = m_tasks.find(id);
    if (it == m_tasks.end())
        return;
    if (canSend())
        request("tasks/cancel", Json{{"taskId", it->second.taskId}}, this, [](Response) {});
    finishTask(id, toolResultFrom(Response::failure(code, why)));
}

void Client::onTaskNotification(const Json &params)
{
    const std::string taskId = stringMember(params, "taskId").toStdString();
    if (taskId.empty())
        return;
    for (auto &[id, task] : m_tasks) {
        if (task.taskId == taskId) {
            const RequestId callId = id; // onTaskStatus may erase the entry
            onTaskStatus(callId, params);
            return;
        }
    }
}

void Client::failAllTasks(int code, const std::string &message)
{
    auto tasks = std::move(m_tasks);
    m_tasks.clear();
    for (auto &[id, task] : tasks) {
        if (task.hasContext && !task.context)
            continue;
        if (task.callback)
            task.callback(toolResultFrom(Response::failure(code, message)));
    }
}

} // namespace Mcp
