#include "client.h"

#include "clienttask.h"

#include <mcp/transport/httpsupport.h>
#include <mcp/wire/jsonparser.h>
#include <mcp/wire/safetext.h>

#include <QCoreApplication>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTimer>
#include <QUuid>

namespace Engine::A2A {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Engine::A2A::Client", text);
}

} // namespace

QString Endpoint::displayName() const
{
    return name.isEmpty() ? Mcp::Http::displayUrl(url) : name;
}

QString Outcome::summary() const
{
    switch (kind) {
    case Kind::Completed:
        return tr("completed");
    case Kind::Interrupted:
    case Kind::Failed:
        return text.isEmpty()
                       ? describe(state)
                       : tr("%1: %2").arg(describe(state), text.section(QLatin1Char('\n'), 0, 0));
    case Kind::Stopped:
        return tr("stopped");
    case Kind::TimedOut:
        return tr("timed out: %1").arg(error);
    case Kind::Unreachable:
        return tr("unreachable: %1").arg(error);
    case Kind::Error:
        return tr("error: %1").arg(error);
    }
    return {};
}

bool isEnvelopeUrl(const QUrl &url)
{
    return url.path().endsWith(QLatin1String("/a2a/message"));
}

Client::Client(QNetworkAccessManager *network, QObject *parent)
    : QObject(parent)
    , m_network(network)
{
}

Client::~Client() = default;

QNetworkAccessManager *Client::network()
{
    if (!m_network)
        m_network = new QNetworkAccessManager(this);
    return m_network;
}

std::optional<Version> Client::knownVersion(const QUrl &url) const
{
    const auto it = m_versions.constFind(url.toString());
    if (it == m_versions.constEnd())
        return std::nullopt;
    return *it;
}

Stop Client::send(const Endpoint &endpoint, const Message &message, const SendOptions &options,
                  Progress progress, Done done)
{
    auto *task = new Task(this, endpoint);
    Stop stop = task->stopper();
    task->send(message, options, std::move(progress), std::move(done));
    return stop;
}

Stop Client::send(const Endpoint &endpoint, const QString &text, const SendOptions &options,
                  Progress progress, Done done)
{
    Message message;
    message.messageId = QUuid::createUuid().toString(QUuid::WithoutBraces);
    message.role = Role::User;
    message.contextId = options.contextId;
    message.taskId = options.taskId;
    message.parts << Part::fromText(text);
    return send(endpoint, message, options, std::move(progress), std::move(done));
}

void Client::fetchCard(const Endpoint &endpoint, CardDone done)
{
    loadCard(endpoint, this,
             [done = std::move(done)](std::optional<AgentCard> card, const QString &error,
                                      const QUrl &) { done(std::move(card), error); });
}

Stop Client::getTask(const Endpoint &endpoint, const QString &taskId, CallDone done)
{
    auto *task = new Task(this, endpoint);
    Stop stop = task->callStopper();
    task->call(methods(Version::V1_0).get, Json{{"id", taskId.toStdString()}}, std::move(done));
    return stop;
}

Stop Client::cancelTask(const Endpoint &endpoint, const QString &taskId, CallDone done)
{
    auto *task = new Task(this, endpoint);
    Stop stop = task->callStopper();
    task->call(methods(Version::V1_0).cancel, Json{{"id", taskId.toStdString()}}, std::move(done));
    return stop;
}

Stop Client::listTasks(const Endpoint &endpoint, const Json &params, CallDone done)
{
    auto *task = new Task(this, endpoint);
    Stop stop = task->callStopper();
    task->call("ListTasks", params.is_object() ? params : Json::object(), std::move(done));
    return stop;
}

// The card at the endpoint: its own URL when it names a .json file, else
// /.well-known/agent-card.json below it, then the older /.well-known/agent.json.
void Client::loadCard(const Endpoint &endpoint, QObject *context, LoadedCard done)
{
    QUrl base = endpoint.url;
    if (base.scheme() != QLatin1String("http") && base.scheme() != QLatin1String("https")) {
        done(std::nullopt,
             tr("'%1' is not an http(s) URL")
                     .arg(Mcp::escapeControlCharacters(endpoint.url.toString())),
             {});
        return;
    }
    QList<QUrl> candidates;
    if (base.path().endsWith(QLatin1String(".json"))) {
        candidates << base;
    } else {
        for (const char *name : {"/.well-known/agent-card.json", "/.well-known/agent.json"})
            candidates << Mcp::Http::withPath(base,
                                              Mcp::Http::trimmedPath(base) + QLatin1String(name));
    }
    const QString key = candidates.first().toString();
    if (const auto it = m_cards.constFind(key); it != m_cards.constEnd()) {
        const CachedCard cached = *it;
        QTimer::singleShot(0, context, [done, cached] { done(cached.card, {}, cached.url); });
        return;
    }
    fetchCardFrom(endpoint, candidates, key, context, std::move(done));
}

void Client::fetchCardFrom(const Endpoint &endpoint, QList<QUrl> candidates,
                           const QString &cacheKey, QObject *context, LoadedCard done)
{
    const QUrl url = candidates.takeFirst();
    QNetworkRequest request = Mcp::Http::request(optionsFor(endpoint, url), url,
                                                 QByteArrayLiteral("application/json"));
    request.setRawHeader("A2A-Version", "1.0");
    QNetworkReply *reply = network()->get(request);
    const QString where = tr("agent '%1'").arg(endpoint.displayName());
    new Exchange(
            reply, where, {},
            [this, endpoint, candidates, cacheKey, context = QPointer<QObject>(context), done, url,
             where, reply](int status, const QByteArray &body, const QString &failure) {
                if (!context)
                    return;
                if (!failure.isEmpty()) {
                    done(std::nullopt, failure, url);
                    return;
                }
                if (status == 404 && !candidates.isEmpty()) {
                    fetchCardFrom(endpoint, candidates, cacheKey, context, done);
                    return;
                }
                if (status / 100 != 2) {
                    done(std::nullopt,
                         tr("no agent card at %1: %2")
                                 .arg(Mcp::Http::displayUrl(url),
                                      Mcp::Http::failure(where, reply, body)),
                         url);
                    return;
                }
                const Json json
                        = Mcp::parseJson(std::string_view(body.constData(), size_t(body.size())));
                if (json.is_discarded()) {
                    done(std::nullopt, Mcp::Http::notJson(where, body.toStdString()), url);
                    return;
                }
                QString error;
                std::optional<AgentCard> card = readAgentCard(json, &error);
                if (!card) {
                    done(std::nullopt,
                         tr("the agent card at %1 is not usable: %2")
                                 .arg(Mcp::Http::displayUrl(url), error),
                         url);
                    return;
                }
                m_cards.insert(cacheKey, CachedCard{*card, url});
                done(card, {}, url);
            },
            context);
}

} // namespace Engine::A2A
