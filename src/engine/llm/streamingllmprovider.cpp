#include "streamingllmprovider.h"

#include <mcp/wire/jsonparser.h>
#include <mcp/wire/sseparser.h>

#include <QCoreApplication>
#include <QDateTime>
#include <QLoggingCategory>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QTimer>

#include <algorithm>
#include <utility>

namespace Engine {

Q_LOGGING_CATEGORY(lcLlm, "switchboard.engine.llm", QtWarningMsg)

namespace {

// An error body is only shown (shortened), never parsed in pieces: 64 KiB holds any real one.
constexpr qsizetype MaxErrorBodyBytes = 64 * 1024;
// A non-streamed answer is one JSON document: bounded like anything read into memory.
constexpr qsizetype MaxWholeResponseBytes = 32 * 1024 * 1024;
// How much of a non-JSON error body goes into a message.
constexpr int MaxServerMessageChars = 300;

bool isRetryableStatus(int status)
{
    // 408 timeout, 409 conflict (OpenAI's "retry your request"), 429 rate limit, 5xx incl.
    // Anthropic's 529 "overloaded".
    return status == 408 || status == 409 || status == 429 || status >= 500;
}

} // namespace

// ---- StreamingLlmProvider -------------------------------------------------------------------

struct StreamingLlmProvider::Call
{
    ~Call()
    {
        delete timeout;
        delete retryTimer;
        dropReply();
    }

    void dropReply()
    {
        if (!reply)
            return;
        QNetworkReply *r = reply;
        reply = nullptr;
        QObject::disconnect(r, nullptr, nullptr, nullptr);
        r->abort();
        r->deleteLater();
    }

    QByteArray body;
    Callbacks callbacks;
    int attempt = 0; // attempts started
    QNetworkReply *reply = nullptr;
    QTimer *timeout = nullptr;
    QTimer *retryTimer = nullptr;
    Mcp::SseParser parser;
    std::unique_ptr<StreamDecoder> decoder;
    std::vector<Mcp::SseEvent> events; // parsed, not yet decoded
    // The server answered application/json rather than an event stream (it ignored
    // "stream": true): the whole body, decoded once it is complete.
    bool wholeJson = false;
    QByteArray wholeBody;
    std::optional<QString> parseError;
    // Once text or a piece of a tool call reached the caller, a retry would repeat it: never
    // retry then.
    bool textDelivered = false;
    QByteArray errorBody;
};

StreamingLlmProvider::StreamingLlmProvider(ProviderConfig config, QObject *parent)
    : LlmProvider(parent)
    , m_config(std::move(config))
{
    m_network.setAutoDeleteReplies(false);
    m_network.setTransferTimeout(0); // our own timer knows about streaming
}

StreamingLlmProvider::~StreamingLlmProvider()
{
    for (QNetworkReply *reply : std::exchange(m_modelReplies, {})) {
        reply->disconnect(this); // no callback from a provider that is going away
        reply->abort();
    }
}

namespace {

// A model list is a few hundred entries; anything far bigger is not one.
constexpr qint64 MaxModelListBytes = 8 * 1024 * 1024;

// The context window, from whichever field a server names it in: OpenRouter and many
// compatible servers "context_length" (or top_provider.context_length), vLLM "max_model_len",
// Anthropic "max_input_tokens", others "context_window".
qint64 contextTokensOf(const Json &model)
{
    const auto number = [](const Json &object, const char *key) -> qint64 {
        const auto it = object.find(key);
        if (it == object.end() || !it->is_number())
            return 0;
        const double value = it->get<double>();
        return value >= 1 && value < 1e12 ? qint64(value) : 0;
    };
    for (const char *key : {"context_length", "context_window", "max_model_len", "max_input_tokens",
                            "max_context_length"}) {
        if (const qint64 tokens = number(model, key))
            return tokens;
    }
    const auto top = model.find("top_provider");
    return top != model.end() && top->is_object() ? number(*top, "context_length") : 0;
}

} // namespace

ModelList StreamingLlmProvider::parseModelList(const Json &body)
{
    ModelList list;
    const Json *entries = &body;
    if (body.is_object()) {
        const auto data = body.find("data");
        const auto models = body.find("models"); // Ollama's own /api/tags shape
        entries = data != body.end() ? &*data : models != body.end() ? &*models : nullptr;
    }
    if (!entries || !entries->is_array()) {
        list.error = tr("the model list is not a list of models");
        return list;
    }
    for (const Json &entry : *entries) {
        if (!entry.is_object())
            continue;
        ModelInfo info;
        for (const char *key : {"id", "name", "model"}) {
            const auto it = entry.find(key);
            if (it != entry.end() && it->is_string()
                && !it->get_ref<const std::string &>().empty()) {
                info.id = QString::fromStdString(it->get<std::string>());
                break;
            }
        }
        if (info.id.isEmpty())
            continue;
        for (const char *key : {"display_name", "name"}) {
            const auto it = entry.find(key);
            if (it != entry.end() && it->is_string()) {
                const QString name = QString::fromStdString(it->get<std::string>());
                if (name != info.id) {
                    info.name = name;
                    break;
                }
            }
        }
        info.contextTokens = contextTokensOf(entry);
        list.models.push_back(std::move(info));
    }
    std::sort(list.models.begin(), list.models.end(),
              [](const ModelInfo &a, const ModelInfo &b) { return a.id < b.id; });
    list.models.erase(
            std::unique(list.models.begin(), list.models.end(),
                        [](const ModelInfo &a, const ModelInfo &b) { return a.id == b.id; }),
            list.models.end());
    return list;
}

std::function<void()> StreamingLlmProvider::listModels(std::function<void(ModelList)> done)
{
    QNetworkRequest request(modelsEndpoint());
    request.setRawHeader("Accept", "application/json");
    request.setTransferTimeout(m_config.requestTimeoutMs);
    addHeaders(request);
    qCDebug(logCategory()) << "GET" << request.url().toString();
    QNetworkReply *reply = m_network.get(request);
    m_modelReplies << reply;
    connect(reply, &QNetworkReply::downloadProgress, this, [reply](qint64 received, qint64) {
        if (received > MaxModelListBytes)
            reply->abort();
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply, done = std::move(done)] {
        m_modelReplies.removeOne(reply);
        reply->deleteLater();
        ModelList list;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray body = reply->readAll();
        if (status == 401 || status == 403) {
            list.error = refusedKey(status, serverMessage(body));
        } else if (reply->error() != QNetworkReply::NoError || status / 100 != 2) {
            const QString detail = serverMessage(body);
            list.error = tr("%1: could not list the models (%2)")
                                 .arg(where(),
                                      status ? (detail.isEmpty()
                                                        ? QString::number(status)
                                                        : QStringLiteral("%1 %2").arg(status).arg(
                                                                detail))
                                             : redacted(reply->errorString()));
        } else {
            list = parseModelList(Mcp::parseJson(std::string_view(body.constData(), body.size())));
            if (!list.error.isEmpty())
                list.error = tr("%1: %2").arg(where(), list.error);
        }
        done(std::move(list));
    });
    return [self = QPointer<StreamingLlmProvider>(this), guard = QPointer<QNetworkReply>(reply)] {
        if (!self || !guard)
            return;
        self->m_modelReplies.removeOne(guard.data());
        guard->disconnect(self);
        guard->abort();
        guard->deleteLater();
    };
}

bool StreamingLlmProvider::acceptsUnterminatedStream(const StreamDecoder &decoder) const
{
    return !decoder.result.stopReason.isEmpty();
}

QString StreamingLlmProvider::redacted(QString text) const
{
    if (m_config.apiKey.size() >= 4)
        text.replace(m_config.apiKey, QStringLiteral("***"));
    return text;
}

QString StreamingLlmProvider::refusedKey(int status, const QString &message) const
{
    const QString said = message.isEmpty() ? tr("unauthorized") : message;
    QString key = apiKeyVariable();
    switch (m_config.keyFrom) {
    case ProviderConfig::KeyFrom::Unknown:
        break;
    case ProviderConfig::KeyFrom::Settings:
        key = tr("the key saved in Settings");
        break;
    case ProviderConfig::KeyFrom::Environment:
        key = tr("%1 from the environment").arg(apiKeyVariable());
        break;
    }
    if (m_config.apiKey.isEmpty())
        key = tr("no key was sent");
    if (m_config.profile.isEmpty())
        return tr("%1 answered HTTP %2: %3. Check the API key (%4) and the base URL.")
                .arg(where(), QString::number(status), said, key);
    return tr("%1 refused the API key of the profile \"%2\" (%3): HTTP %4: %5. Check the key in "
              "Settings.")
            .arg(where(), m_config.profile, key, QString::number(status), said);
}

QString StreamingLlmProvider::where() const
{
    return tr("%1 at %2").arg(providerName(), m_config.effectiveBaseUrl());
}

std::function<void()> StreamingLlmProvider::complete(const CompletionRequest &request,
                                                     Callbacks callbacks)
{
    const quint64 id = m_nextId++;
    auto call = std::make_unique<Call>();
    call->body = QByteArray::fromStdString(requestBody(request).dump());
    call->callbacks = std::move(callbacks);
    call->timeout = new QTimer;
    call->timeout->setSingleShot(true);
    call->timeout->setInterval(std::max(1, m_config.requestTimeoutMs));
    QObject::connect(call->timeout, &QTimer::timeout, this, [this, id] { onTimeout(id); });
    call->retryTimer = new QTimer;
    call->retryTimer->setSingleShot(true);
    QObject::connect(call->retryTimer, &QTimer::timeout, this, [this, id] { startAttempt(id); });
    m_calls.emplace(id, std::move(call));

    // Start from the event loop: a caller may still be wiring things up, and an immediate
    // failure must not run its callback inside complete().
    m_calls[id]->retryTimer->start(0);

    QPointer<StreamingLlmProvider> self(this);
    return [self, id] {
        if (self)
            self->cancel(id);
    };
}

StreamingLlmProvider::Call *StreamingLlmProvider::find(quint64 id) const
{
    const auto it = m_calls.find(id);
    return it == m_calls.end() ? nullptr : it->second.get();
}

void StreamingLlmProvider::startAttempt(quint64 id)
{
    Call *call = find(id);
    if (!call)
        return;
    ++call->attempt;
    call->dropReply();
    call->parser.clear();
    call->decoder = createDecoder();
    call->events.clear();
    call->parseError.reset();
    call->errorBody.clear();
    call->wholeJson = false;
    call->wholeBody.clear();
    call->parser.setEventSink(
            [call](const Mcp::SseEvent &event) { call->events.push_back(event); });
    call->parser.setErrorSink([call](const QString &message) {
        if (!call->parseError)
            call->parseError = message;
    });

    QNetworkRequest request(endpoint());
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setRawHeader("Accept", "text/event-stream");
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute,
                         QNetworkRequest::AlwaysNetwork);
    addHeaders(request);
    qCDebug(logCategory()) << "POST" << request.url().toString() << "attempt" << call->attempt
                           << "bytes" << call->body.size();

    call->reply = m_network.post(request, call->body);
    connect(call->reply, &QNetworkReply::readyRead, this, [this, id] { onReadyRead(id); });
    connect(call->reply, &QNetworkReply::finished, this, [this, id] { onFinished(id); });
    call->timeout->start();
}

void StreamingLlmProvider::onReadyRead(quint64 id)
{
    Call *call = find(id);
    if (!call || !call->reply)
        return;
    call->timeout->start();
    const int status = call->reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray bytes = call->reply->readAll();
    if (status < 200 || status >= 300) {
        call->errorBody.append(bytes.left(MaxErrorBodyBytes - call->errorBody.size()));
        return;
    }
    if (call->wholeBody.isEmpty() && call->events.empty() && !call->wholeJson) {
        const QString type
                = call->reply->header(QNetworkRequest::ContentTypeHeader).toString().toLower();
        call->wholeJson = type.startsWith(QLatin1String("application/json"));
    }
    if (call->wholeJson) {
        if (call->wholeBody.size() + bytes.size() > MaxWholeResponseBytes) {
            CompletionError error;
            error.message = tr("%1 answered with a JSON document over %2 MiB")
                                    .arg(where())
                                    .arg(MaxWholeResponseBytes / (1024 * 1024));
            fail(id, error);
            return;
        }
        call->wholeBody.append(bytes);
        return;
    }
    call->parser.feed(bytes);
    processEvents(id);
}

void StreamingLlmProvider::processEvents(quint64 id)
{
    Call *call = find(id);
    while (call && !call->events.empty()) {
        std::vector<Mcp::SseEvent> events;
        events.swap(call->events);
        for (const Mcp::SseEvent &event : events) {
            call->decoder->handle(event);
            const QStringList deltas = std::exchange(call->decoder->textDeltas, {});
            for (const QString &delta : deltas) {
                if (delta.isEmpty())
                    continue;
                call->textDelivered = true;
                // A copy: the callback may cancel the call and so destroy the original.
                const auto onText = call->callbacks.onText;
                if (onText)
                    onText(delta);
                call = find(id);
                if (!call)
                    return;
            }
            const std::vector<ToolCallDelta> calls
                    = std::exchange(call->decoder->toolCallDeltas, {});
            for (const ToolCallDelta &delta : calls) {
                const auto onToolCall = call->callbacks.onToolCall;
                if (!onToolCall)
                    break;
                call->textDelivered = true;
                onToolCall(delta);
                call = find(id);
                if (!call)
                    return;
            }
            if (call->decoder->error) {
                CompletionError error = *call->decoder->error;
                error.message = tr("%1 reported an error: %2").arg(where(), error.message);
                retryOrFail(id, error);
                return;
            }
            if (call->decoder->complete) {
                succeed(id);
                return;
            }
        }
        call = find(id);
    }
    if (call && call->parseError) {
        CompletionError error;
        error.message = tr("%1: %2").arg(where(), *call->parseError);
        fail(id, error);
    }
}

void StreamingLlmProvider::onFinished(quint64 id)
{
    Call *call = find(id);
    if (!call || !call->reply)
        return;
    QNetworkReply *reply = call->reply;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const bool ok2xx = status >= 200 && status < 300;

    // Whatever arrived with the end of the reply.
    if (reply->bytesAvailable() > 0) {
        onReadyRead(id);
        call = find(id);
        if (!call || call->reply != reply)
            return;
    }
    call->timeout->stop();

    CompletionError error;
    if (ok2xx && call->wholeJson && reply->error() == QNetworkReply::NoError) {
        finishWholeResponse(id);
        return;
    }
    if (ok2xx) {
        if (reply->error() == QNetworkReply::NoError && acceptsUnterminatedStream(*call->decoder)) {
            succeed(id);
            return;
        }
        const QString reason = reply->error() == QNetworkReply::NoError
                                       ? tr("the response ended before the model finished")
                                       : redacted(reply->errorString());
        error.message = tr("%1: the stream broke: %2").arg(where(), reason);
        error.retryable = true;
        retryOrFail(id, error);
        return;
    }
    if (status != 0) {
        const QString message = serverMessage(call->errorBody);
        error.httpStatus = status;
        error.retryable = isRetryableStatus(status);
        if (status == 401 || status == 403) {
            error.message = refusedKey(status, message);
        } else if (message.isEmpty()) {
            error.message = tr("%1 answered HTTP %2").arg(where()).arg(status);
        } else {
            error.message = tr("%1 answered HTTP %2: %3").arg(where()).arg(status).arg(message);
        }
        retryOrFail(id, error, error.retryable ? retryAfterMs(reply) : -1);
        return;
    }
    error.message = tr("%1: %2").arg(where(), redacted(reply->errorString()));
    error.retryable = true; // connection refused, reset, DNS hiccup: worth another try
    retryOrFail(id, error);
}

// A complete non-streamed answer: decoded as the stream it stands for.
void StreamingLlmProvider::finishWholeResponse(quint64 id)
{
    Call *call = find(id);
    const QByteArray body = std::exchange(call->wholeBody, {});
    const Json response = Mcp::parseJson(std::string_view(body.constData(), body.size()));
    std::vector<Mcp::SseEvent> events;
    if (response.is_object())
        events = call->decoder->eventsForWholeResponse(response);
    if (events.empty()) {
        CompletionError error;
        error.message = tr("%1 answered with a JSON document that is not a completion: %2")
                                .arg(where(), redacted(QString::fromUtf8(body.left(300))));
        fail(id, error);
        return;
    }
    qCDebug(logCategory()) << "the server answered without streaming; decoding the whole response";
    call->events = std::move(events);
    processEvents(id);
    if (find(id)) { // no end marker among the events: not a completion after all
        CompletionError error;
        error.message = tr("%1: the response ended before the model finished").arg(where());
        fail(id, error);
    }
}

void StreamingLlmProvider::onTimeout(quint64 id)
{
    if (!find(id))
        return;
    CompletionError error;
    error.message = tr("%1 sent nothing for %2 s; giving up")
                            .arg(where())
                            .arg(m_config.requestTimeoutMs / 1000.0);
    error.retryable = true; // for the caller; not retried here (see requestTimeoutMs)
    fail(id, error);
}

void StreamingLlmProvider::retryOrFail(quint64 id, CompletionError error, int delayMs)
{
    Call *call = find(id);
    if (!call)
        return;
    if (!error.retryable || call->textDelivered || call->attempt > m_config.maxRetries) {
        if (error.retryable && call->attempt > m_config.maxRetries && m_config.maxRetries > 0)
            error.message = tr("%1 (after %2 attempts)").arg(error.message).arg(call->attempt);
        fail(id, error);
        return;
    }
    if (delayMs > m_config.maxRetryDelayMs) {
        error.message = tr("%1; the server asked to retry after %2 s")
                                .arg(error.message)
                                .arg(delayMs / 1000.0);
        fail(id, error);
        return;
    }
    if (delayMs < 0) {
        const qint64 backoff = qint64(std::max(0, m_config.retryBaseDelayMs))
                               << std::min(call->attempt - 1, 20);
        delayMs = int(std::min<qint64>(backoff, m_config.maxRetryDelayMs));
    }
    qCInfo(logCategory()).noquote() << error.message << "- retrying in" << delayMs << "ms";
    call->dropReply();
    call->timeout->stop();
    call->retryTimer->start(delayMs);
}

void StreamingLlmProvider::succeed(quint64 id)
{
    auto it = m_calls.find(id);
    if (it == m_calls.end())
        return;
    std::unique_ptr<Call> call = std::move(it->second);
    m_calls.erase(it);
    call->dropReply();
    call->decoder->finish();
    CompletionResult result = std::move(call->decoder->result);
    qCDebug(logCategory()) << "completion done:" << result.stopReason << "tool calls"
                           << result.toolCalls.size();
    if (call->callbacks.onDone)
        call->callbacks.onDone(std::move(result));
}

void StreamingLlmProvider::fail(quint64 id, CompletionError error)
{
    auto it = m_calls.find(id);
    if (it == m_calls.end())
        return;
    std::unique_ptr<Call> call = std::move(it->second);
    m_calls.erase(it);
    call->dropReply();
    error.message = redacted(error.message);
    qCWarning(logCategory()).noquote() << error.message;
    if (call->callbacks.onError)
        call->callbacks.onError(std::move(error));
}

void StreamingLlmProvider::cancel(quint64 id)
{
    // Erasing destroys the call: its reply is aborted without reaching us, its timers die.
    m_calls.erase(id);
}

QString StreamingLlmProvider::serverMessage(const QByteArray &body) const
{
    const QByteArray trimmed = body.trimmed();
    if (trimmed.isEmpty())
        return {};
    const Json json = Mcp::parseJson(std::string_view(trimmed.constData(), trimmed.size()));
    if (json.is_object()) {
        // OpenAI/Anthropic {"error":{"message"}}, Ollama {"error":"..."}, others {"message"}.
        const auto stringAt = [](const Json &object, const char *key) -> QString {
            const auto it = object.find(key);
            return it != object.end() && it->is_string()
                           ? QString::fromStdString(it->get<std::string>())
                           : QString();
        };
        if (const auto error = json.find("error"); error != json.end()) {
            if (error->is_string())
                return redacted(QString::fromStdString(error->get<std::string>()));
            if (error->is_object() && !stringAt(*error, "message").isEmpty())
                return redacted(stringAt(*error, "message"));
        }
        for (const char *key : {"message", "detail"}) {
            if (const QString text = stringAt(json, key); !text.isEmpty())
                return redacted(text);
        }
    }
    QString text = QString::fromUtf8(trimmed).simplified();
    if (text.size() > MaxServerMessageChars)
        text = text.left(MaxServerMessageChars) + QStringLiteral("…");
    return redacted(text);
}

int StreamingLlmProvider::retryAfterMs(const QNetworkReply *reply) const
{
    // OpenAI sends retry-after-ms as well; prefer it for precision.
    bool ok = false;
    const double ms = reply->rawHeader("retry-after-ms").trimmed().toDouble(&ok);
    if (ok && ms >= 0)
        return int(std::min(ms, 1e9));
    const QByteArray value = reply->rawHeader("retry-after").trimmed();
    if (value.isEmpty())
        return -1;
    const double seconds = value.toDouble(&ok);
    if (ok && seconds >= 0)
        return int(std::min(seconds * 1000, 1e9));
    const QDateTime date = QDateTime::fromString(QString::fromLatin1(value), Qt::RFC2822Date);
    if (date.isValid())
        return int(std::clamp<qint64>(QDateTime::currentDateTimeUtc().msecsTo(date), 0, 1e9));
    return -1;
}

} // namespace Engine
