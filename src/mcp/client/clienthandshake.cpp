// Client: the handshake. The era probe (server/discover, 2026-07-28) or initialize
// (2025-11-25 and older), what the server tells about itself, and the _meta every modern
// request carries.
#include "clientinternal.h"

#include <mcp/wire/jsonmember.h>

#include <algorithm>

namespace Mcp {

using namespace ClientInternal;

namespace {

bool isSupportedVersion(const std::string &version)
{
    for (const char *v : SupportedProtocolVersions) {
        if (version == v)
            return true;
    }
    return false;
}

} // namespace

// The first of `offered` (an array of version strings) that is a modern version we speak, or
// empty.
std::string ClientInternal::pickModernVersion(const Json &offered)
{
    if (!offered.is_array())
        return {};
    for (const Json &version : offered) {
        if (!version.is_string())
            continue;
        for (const char *modern : ModernProtocolVersions) {
            if (version.get_ref<const std::string &>() == modern)
                return modern;
        }
    }
    return {};
}

QString eraName(Era era)
{
    switch (era) {
    case Era::Rev2025_11_25:
        return QStringLiteral("legacy");
    case Era::Rev2026_07_28:
        return QStringLiteral("modern");
    case Era::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

Era eraFromName(const QString &name)
{
    if (name == QLatin1String("legacy"))
        return Era::Rev2025_11_25;
    if (name == QLatin1String("modern"))
        return Era::Rev2026_07_28;
    return Era::Unknown;
}

void Client::connectToServer()
{
    if (m_state != State::Disconnected)
        return;
    setState(State::Initializing);
    m_transport->start();
}

void Client::onTransportStarted()
{
    switch (m_options.era) {
    case Era::Rev2025_11_25:
        sendInitialize();
        break;
    case Era::Rev2026_07_28: // known modern: it may take its time to start
        probe(m_options.initializeTimeoutMs);
        break;
    case Era::Unknown:
        probe(std::min(m_options.probeTimeoutMs, m_options.initializeTimeoutMs));
        break;
    }
}

// Era detection (2026-07-28, basic/versioning): server/discover first. A result that names a
// modern version means 2026-07-28; any other error, or no answer in time, means a legacy
// server, which gets initialize.
void Client::probe(int timeoutMs)
{
    m_sendMeta = true;
    setModernVersion(ModernProtocolVersions[0]);
    RequestOptions options;
    options.timeoutMs = timeoutMs;
    request(
            "server/discover", Json::object(), this, [this](Response r) { onDiscoverReply(r); },
            options);
}

void Client::onDiscoverReply(const Response &response)
{
    qCDebug(lcClient) << "server/discover reply" << m_options.serverName << response.ok();
    if (m_state != State::Initializing)
        return;
    if (response.ok() && response.result.is_object()) {
        const std::string version
                = pickModernVersion(response.result.value("supportedVersions", Json::array()));
        if (!version.empty()) {
            if (version != m_protocolVersion)
                setModernVersion(version);
            becomeModern(response.result);
            return;
        }
    }
    if (const std::optional<RpcError> &error = response.error) {
        // Not an answer about the era: the server wants credentials, or it is modern and
        // refuses this request (a header it disagrees with, a capability it requires).
        if (error->is(ErrorCode::AuthenticationRequired)
            || (!error->local
                && (error->code == HeaderMismatch || error->code == MissingClientCapability))) {
            fail(tr("server/discover failed: %1").arg(error->toString()));
            return;
        }
    }
    m_probeTimedOut = response.error && response.error->is(ErrorCode::RequestTimeout);
    m_sendMeta = false;
    m_metaMembers.clear();
    m_protocolVersion.clear();
    m_transport->setProtocolVersion(std::string()); // a retry may have set a modern one
    m_era = Era::Rev2025_11_25;
    sendInitialize();
}

void Client::becomeModern(const Json &result)
{
    m_era = Era::Rev2026_07_28;
    m_transport->setProtocolVersion(m_protocolVersion);
    // serverInfo belongs in _meta; some servers put it beside the other members.
    const Json &info = jsonMember(jsonMember(result, "_meta"), MetaServerInfo);
    readServerDescription(result, info.is_object() ? info : jsonMember(result, "serverInfo"));
    if (m_capabilities.json.contains("tools"))
        refreshTools();
    else
        setState(State::Ready);
}

// What initialize and server/discover both tell: who the server is, what it offers, and how
// it wants to be used.
void Client::readServerDescription(const Json &result, const Json &serverInfo)
{
    m_serverInfo = serverInfo.is_object() ? serverInfo : Json::object();
    m_capabilities = ServerCapabilities::fromJson(result.value("capabilities", Json::object()));
    if (auto it = result.find("instructions"); it != result.end() && it->is_string())
        m_instructions = qs(it->get<std::string>());
}

void Client::setModernVersion(const std::string &version)
{
    m_protocolVersion = version;
    refreshMetaMembers();
}

void Client::refreshMetaMembers()
{
    const std::string meta = modernMeta().dump(-1, ' ', false, Json::error_handler_t::replace);
    m_metaMembers = meta.substr(1, meta.size() - 2); // without the braces
}

Json Client::modernMeta() const
{
    // Tasks are an extension in this era; this client follows them (clienttasks.cpp).
    Json capabilities
            = m_options.capabilities.is_object() ? m_options.capabilities : Json::object();
    if (!capabilities["extensions"].is_object())
        capabilities["extensions"] = Json::object();
    capabilities["extensions"][TasksExtension] = Json::object();
    Json meta{{MetaProtocolVersion, m_protocolVersion},
              {MetaClientCapabilities, std::move(capabilities)},
              {MetaClientInfo,
               {{"name", m_options.clientName}, {"version", m_options.clientVersion}}}};
    if (!m_logLevel.empty())
        meta[MetaLogLevel] = m_logLevel;
    return meta;
}

void Client::sendInitialize()
{
    Json params{
            {"protocolVersion", SupportedProtocolVersions[0]},
            {"capabilities", m_options.capabilities},
            {"clientInfo", {{"name", m_options.clientName}, {"version", m_options.clientVersion}}}};
    RequestOptions options;
    options.timeoutMs = m_options.initializeTimeoutMs;
    request(
            "initialize", std::move(params), this, [this](Response r) { onInitializeReply(r); },
            options);
}

void Client::onInitializeReply(const Response &response)
{
    qCDebug(lcClient) << "initialize reply" << m_options.serverName;
    if (m_state != State::Initializing)
        return;
    if (!response.ok()) {
        // A guess that failed (the era cache said legacy, or the probe got no answer in time,
        // as from a modern server slow to start): ask the server itself, once.
        const RpcError &error = *response.error;
        const bool guessed = m_options.era == Era::Rev2025_11_25 || m_probeTimedOut;
        if (guessed && !m_reprobed && !error.is(ErrorCode::RequestTimeout)
            && !error.is(ErrorCode::ConnectionClosed) && m_transport->isOpen()) {
            m_reprobed = true;
            probe(m_options.initializeTimeoutMs);
            return;
        }
        fail(tr("initialize failed: %1").arg(response.error->toString()));
        return;
    }
    m_era = Era::Rev2025_11_25;
    const Json &result = response.result;
    if (!result.is_object()) {
        fail(tr("initialize returned a result that is not an object"));
        return;
    }
    const auto version = result.find("protocolVersion");
    if (version == result.end() || !version->is_string()) {
        fail(tr("initialize result has no protocolVersion"));
        return;
    }
    m_protocolVersion = version->get<std::string>();
    if (!isSupportedVersion(m_protocolVersion)) {
        QStringList supported;
        for (const char *v : SupportedProtocolVersions)
            supported << QString::fromLatin1(v);
        fail(tr("the server speaks MCP protocol version '%1', which Switchboard does not "
                "support (supported: %2)")
                     .arg(qs(m_protocolVersion), supported.join(QStringLiteral(", "))));
        return;
    }
    m_transport->setProtocolVersion(m_protocolVersion);
    readServerDescription(result, jsonMember(result, "serverInfo"));

    notify("notifications/initialized");
    if (m_capabilities.json.contains("tools"))
        refreshTools();
    else
        setState(State::Ready);
}

} // namespace Mcp
