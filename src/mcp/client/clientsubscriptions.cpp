// Client: what the server tells unasked. The subscriptions/listen stream of 2026-07-28 (its
// filter, replacement and reopening), watched resources in both eras, and the log level.
#include "clientinternal.h"

#include <mcp/wire/jsonmember.h>

#include <algorithm>
#include <iterator>
#include <set>
#include <utility>

namespace Mcp {

using namespace ClientInternal;

namespace {
// A subscriptions/listen stream that breaks off is opened again after 1 s, doubling up to
// a minute while it keeps breaking.
constexpr int ListenRetryMs = 1000;
constexpr int MaxListenRetryMs = 60000;
} // namespace

Json Client::listenFilter() const
{
    Json filter = Json::object();
    auto offers = [this](const char *capability, const char *feature) {
        const Json &value = jsonMember(jsonMember(m_capabilities.json, capability), feature);
        return value.is_boolean() && value.get<bool>();
    };
    if (offers("tools", "listChanged"))
        filter["toolsListChanged"] = true;
    if (offers("resources", "listChanged"))
        filter["resourcesListChanged"] = true;
    if (offers("prompts", "listChanged"))
        filter["promptsListChanged"] = true;
    if (offers("resources", "subscribe") && !m_watched.empty())
        filter["resourceSubscriptions"] = m_watched;
    return filter;
}

void Client::listen()
{
    if (m_era != Era::Rev2026_07_28 || m_state != State::Ready || m_listenId != 0)
        return;
    Json filter = listenFilter();
    if (filter.empty()) {
        // Nothing left to listen for (the last watch is off).
        if (m_staleListenId != 0) {
            m_staleSubscription = nullptr;
            cancel(std::exchange(m_staleListenId, 0), QStringLiteral("nothing to listen for"));
        }
        answerWatchers(std::nullopt);
        return;
    }
    RequestOptions options;
    options.untimed = true;
    m_subscription = nullptr;
    const int generation = m_listenGeneration = ++m_generations;
    m_listenId = request(
            "subscriptions/listen", Json{{"notifications", std::move(filter)}}, this,
            [this, generation](Response r) { onListenEnded(generation, r); }, options);
}

void Client::relisten()
{
    m_listenTimer.stop();
    if (m_listenId != 0) {
        const RequestId open = std::exchange(m_listenId, 0);
        const int generation = std::exchange(m_listenGeneration, 0);
        if (m_subscription.is_null()) {
            // Not acknowledged yet (so it is the replacement, if any): never two in flight.
            cancel(open, QStringLiteral("replaced before it was acknowledged"));
        } else {
            // Kept until the new one is acknowledged, so no notification falls in between.
            m_staleListenId = open;
            m_staleGeneration = generation;
            m_staleSubscription = std::exchange(m_subscription, nullptr);
        }
    }
    listen();
}

void Client::onListenAcknowledged(const Json &agreed)
{
    m_subscription = agreed.is_object() ? agreed : Json::object();
    if (m_staleListenId != 0) {
        m_staleSubscription = nullptr;
        cancel(std::exchange(m_staleListenId, 0), QStringLiteral("replaced by a new filter"));
    }
    answerWatchers(std::nullopt);
    if (std::exchange(m_listenFailures, 0) == 0)
        return;
    // Changes made while no stream was open went unheard: the tools are listed again, and
    // whoever listens hears that the other lists and each watched resource may have changed.
    refreshTools();
    for (const char *list : {"resources", "prompts"}) {
        const Json &changes
                = jsonMember(m_subscription, (std::string(list) + "ListChanged").c_str());
        if (changes.is_boolean() && changes.get<bool>())
            emit notificationReceived(
                    QStringLiteral("notifications/%1/list_changed").arg(QLatin1String(list)),
                    Json::object());
    }
    const std::set<std::string> watched = m_watched; // (a receiver may change it)
    for (const std::string &uri : watched) {
        if (agreedToWatch(uri))
            emit notificationReceived(QStringLiteral("notifications/resources/updated"),
                                      Json{{"uri", uri}});
    }
}

bool Client::agreedToWatch(const std::string &uri) const
{
    const Json &uris = jsonMember(m_subscription, "resourceSubscriptions");
    return uris.is_array() && std::find(uris.begin(), uris.end(), Json(uri)) != uris.end();
}

void Client::answerWatchers(const std::optional<RpcError> &failure)
{
    std::vector<Watcher> watchers = std::exchange(m_watchers, {});
    for (Watcher &watcher : watchers) {
        Response response = Response::success(Json::object());
        if (failure) {
            response = Response{nullptr, *failure};
        } else if (watcher.watch && !agreedToWatch(watcher.uri)) {
            response = Response::failure(ErrorCode::InvalidResult,
                                         where() + " did not agree to send updates of "
                                                 + watcher.uri);
        }
        if (!response.ok() && watcher.watch)
            m_watched.erase(watcher.uri);
        else if (!response.ok())
            m_watched.insert(watcher.uri); // not unwatched after all
        if (watcher.hasContext && !watcher.context)
            continue;
        watcher.callback(std::move(response));
    }
}

void Client::onListenEnded(int generation, const Response &response)
{
    const RpcError ended{ErrorCode::ConnectionClosed, where() + " ended the subscription", nullptr,
                         true};
    if (m_staleListenId != 0 && generation == m_staleGeneration) {
        m_staleListenId = 0; // the stream being replaced ended first; its replacement goes on
        m_staleSubscription = nullptr;
        return;
    }
    if (generation != m_listenGeneration)
        return; // a stream already replaced
    m_listenId = 0;
    m_subscription = nullptr;
    if (m_staleListenId != 0) {
        // The replacement failed before its acknowledgment: the stream it was to replace (and
        // its filter) goes on, without what the waiting watches asked for.
        m_listenId = std::exchange(m_staleListenId, 0);
        m_listenGeneration = m_staleGeneration;
        m_subscription = std::exchange(m_staleSubscription, nullptr);
        answerWatchers(response.ok() ? ended : *response.error);
        return;
    }
    if (m_state != State::Ready || response.ok()) {
        // Disconnected, or the server ended it gracefully.
        answerWatchers(response.ok() ? ended : *response.error);
        return;
    }
    const RpcError &error = *response.error;
    if (!error.local) {
        answerWatchers(error);
        emit warning(tr("subscriptions/listen failed: %1; list changes and resource updates "
                        "will not be seen")
                             .arg(error.toString()));
        return;
    }
    if (error.is(ErrorCode::RequestCancelled) || error.is(ErrorCode::ConnectionClosed)) {
        answerWatchers(error);
        return;
    }
    // It broke off: opened again later; watchers wait for that one's acknowledgment.
    const int wait = ListenRetryMs << std::min(m_listenFailures, 6);
    ++m_listenFailures;
    qCDebug(lcClient) << "subscriptions/listen broke off:" << error.toString() << "; again in"
                      << std::min(wait, MaxListenRetryMs) << "ms";
    m_listenTimer.start(std::min(wait, MaxListenRetryMs));
}

void Client::watchResource(const std::string &uri, bool watch, QObject *context, Callback callback)
{
    const Json &subscribe = jsonMember(jsonMember(m_capabilities.json, "resources"), "subscribe");
    if (!subscribe.is_boolean() || !subscribe.get<bool>()) {
        respondLater(std::move(callback), context, context != nullptr,
                     Response::failure(ErrorCode::MethodNotFound,
                                       where() + " offers no resource subscriptions"));
        return;
    }
    if (m_era != Era::Rev2026_07_28) {
        request(watch ? "resources/subscribe" : "resources/unsubscribe", Json{{"uri", uri}},
                context, [this, uri, watch, callback = std::move(callback)](Response response) {
                    if (response.ok()) {
                        if (watch)
                            m_watched.insert(uri);
                        else
                            m_watched.erase(uri);
                    }
                    callback(std::move(response));
                });
        return;
    }
    if (m_state != State::Ready) {
        respondLater(std::move(callback), context, context != nullptr,
                     Response::failure(ErrorCode::ConnectionClosed,
                                       where() + " is not connected (subscriptions/listen)"));
        return;
    }
    if (watch == (m_watched.count(uri) > 0) && m_watchers.empty() && !m_subscription.is_null()) {
        respondLater(std::move(callback), context, context != nullptr,
                     Response::success(Json::object()));
        return;
    }
    if (watch)
        m_watched.insert(uri);
    else
        m_watched.erase(uri);
    m_watchers.push_back(Watcher{uri, watch, std::move(callback), context, context != nullptr});
    relisten();
}

void Client::setLogLevel(const std::string &level, QObject *context, Callback callback)
{
    if (logLevelRank(level) < 0) {
        respondLater(std::move(callback), context, context != nullptr,
                     Response::failure(ErrorCode::InvalidParams, "not a log level: " + level));
        return;
    }
    if (!m_capabilities.json.is_object() || !m_capabilities.json.contains("logging")) {
        respondLater(std::move(callback), context, context != nullptr,
                     Response::failure(ErrorCode::MethodNotFound, where() + " does not log"));
        return;
    }
    if (m_era != Era::Rev2026_07_28) {
        request("logging/setLevel", Json{{"level", level}}, context,
                [this, level, callback = std::move(callback)](Response response) {
                    if (response.ok())
                        m_logLevel = level;
                    callback(std::move(response));
                });
        return;
    }
    m_logLevel = level;
    refreshMetaMembers(); // the _meta every request carries now names it
    respondLater(std::move(callback), context, context != nullptr,
                 Response::success(Json::object()));
}

} // namespace Mcp
