#include "manager.h"

#include <mcp/config/redaction.h>
#include <mcp/transport/stdiotransport.h>

#include <QFileInfo>
#include <QLoggingCategory>
#include <QUrl>

#include <algorithm>
#include <utility>

Q_LOGGING_CATEGORY(lcManager, "switchboard.mcp.manager", QtWarningMsg)

namespace Mcp {

namespace {
// Lines of stderr kept per server for the UI, across restarts.
constexpr int StderrTailLines = 200;
} // namespace

QString serverStateName(ServerState state)
{
    switch (state) {
    case ServerState::Pending:
        return QStringLiteral("pending");
    case ServerState::Connected:
        return QStringLiteral("connected");
    case ServerState::Failed:
        return QStringLiteral("failed");
    case ServerState::Disabled:
        return QStringLiteral("disabled");
    case ServerState::Restarting:
        return QStringLiteral("restarting");
    case ServerState::Untrusted:
        return QStringLiteral("untrusted");
    }
    return QString();
}

ReloadPlan ReloadPlan::compute(const McpConfig &from, const McpConfig &to)
{
    ReloadPlan plan;
    for (const ServerConfig &server : to.servers) {
        const ServerConfig *old = from.find(server.name);
        if (!old)
            plan.added << server.name;
        else if (*old == server)
            plan.unchanged << server.name;
        else
            plan.changed << server.name;
        if (server.untrusted && (!old || !(*old == server)))
            plan.untrusted << server.name;
    }
    for (const ServerConfig &server : from.servers) {
        if (!to.find(server.name))
            plan.removed << server.name;
    }
    return plan;
}

Manager::Manager(ManagerOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_eras(m_options.eraCacheFile, m_options.workspaceDir)
{
}

Manager::~Manager()
{
    if (m_startThread) {
        // Nothing may run over there once this Manager is gone: every client still starting
        // is deleted there (moving it here first would leave its timers' re-registration
        // posted and never run), then the thread ends.
        QList<Client *> abroad;
        for (auto &[name, server] : m_servers) {
            if (isAbroad(server.client)) {
                server.client->disconnect(this);
                abroad << std::exchange(server.client, nullptr);
            }
        }
        if (!abroad.isEmpty())
            QMetaObject::invokeMethod(
                    m_startAnchor, [abroad] { qDeleteAll(abroad); }, Qt::BlockingQueuedConnection);
        m_startThread->quit();
        m_startThread->wait();
        delete m_startAnchor;
        delete m_startThread;
    }
    for (auto &[name, server] : m_servers) {
        if (server.client) {
            server.client->disconnect(this);
            // Its tap refers to this Manager, whose members are gone before its children.
            server.client->transport()->setTrafficTap({});
        }
    }
}

void Manager::start(const McpConfig &config)
{
    m_stopping = false;
    m_wasSettled = false;
    for (const ServerConfig &server : config.servers)
        addServer(server);
    for (auto &[name, server] : m_servers)
        launch(server);
    maybeSettled();
}

void Manager::addServer(const ServerConfig &config)
{
    Server &server = m_servers[config.name];
    server.config = config;
    server.status = ServerStatus{};
    server.status.name = config.name;
    server.enabled = !config.disabled;
}

ReloadPlan Manager::reload(const McpConfig &config)
{
    McpConfig current;
    for (const auto &[name, server] : m_servers)
        current.servers << server.config;
    const ReloadPlan plan = ReloadPlan::compute(current, config);
    m_wasSettled = false;
    for (const QString &name : plan.removed)
        removeServer(name);
    for (const QString &name : plan.changed) {
        Server &server = m_servers[name];
        retire(server);
        server.config = *config.find(name);
        server.enabled = !server.config.disabled;
        server.restartTimes.clear();
        server.status.restarts = 0;
        launch(server);
    }
    for (const QString &name : plan.added) {
        addServer(*config.find(name));
        launch(m_servers[name]);
    }
    maybeSettled();
    return plan;
}

void Manager::launch(Server &server)
{
    server.everConnected = false;
    server.status.toolCount = 0;
    server.launchTicket = ++m_launches;
    server.withSecrets.reset();
    if (!server.enabled) {
        setStatus(server, ServerState::Disabled);
        return;
    }
    if (!server.config.error.isEmpty()) {
        setStatus(server, ServerState::Failed, server.config.error);
        return;
    }
    if (server.config.untrusted) {
        setStatus(server, ServerState::Untrusted,
                  tr("this folder's server is not trusted yet: it runs once you trust it"));
        return;
    }
    if (!server.config.secretReferences.isEmpty()) {
        readSecrets(server);
        return;
    }
    launchNow(server);
}

void Manager::readSecrets(Server &server)
{
    const QString name = server.config.name;
    if (!m_options.readSecrets) {
        setStatus(server, ServerState::Failed,
                  tr("its definition reads the keychain secret %1, and no keychain is "
                     "available here")
                          .arg(server.config.secretReferences.constFirst().name));
        return;
    }
    if (server.status.state != ServerState::Restarting)
        setStatus(server, ServerState::Pending, tr("reading its secrets from the keychain"));
    m_options.readSecrets(
            server.config, this,
            [this, name, ticket = server.launchTicket](const QHash<QString, QString> &values,
                                                       const QString &error) {
                auto it = m_servers.find(name);
                if (it == m_servers.end() || it->second.launchTicket != ticket || m_stopping)
                    return;
                Server &s = it->second;
                ConfigLoader::SecretSubstitution filled
                        = ConfigLoader::substituteSecrets(s.config, values);
                if (!error.isEmpty() || !filled.error.isEmpty()) {
                    setStatus(s, ServerState::Failed, error.isEmpty() ? filled.error : error);
                    maybeSettled();
                    return;
                }
                // The protocol log and stderr are cleaned of the values with the config's.
                s.config.expandedSecrets = filled.server.expandedSecrets;
                s.withSecrets = std::move(filled.server);
                launchNow(s);
                maybeSettled();
            });
}

void Manager::launchNow(Server &server)
{
    if (startingCount() >= std::max(1, m_options.maxConcurrentStarts)) {
        if (!m_waiting.contains(server.config.name))
            m_waiting << server.config.name;
        if (server.status.state != ServerState::Restarting)
            setStatus(server, ServerState::Pending);
        return;
    }
    spawn(server);
}

int Manager::startingCount() const
{
    int count = 0;
    for (const auto &[name, server] : m_servers)
        count += server.client && !server.everConnected ? 1 : 0;
    return count;
}

void Manager::setMaxConcurrentStarts(int count)
{
    m_options.maxConcurrentStarts = count;
    launchWaiting();
}

// Starts the servers that waited for a free slot, oldest first.
void Manager::launchWaiting()
{
    while (!m_waiting.isEmpty() && !m_stopping
           && startingCount() < std::max(1, m_options.maxConcurrentStarts)) {
        const QString name = m_waiting.takeFirst();
        auto it = m_servers.find(name);
        if (it == m_servers.end())
            continue;
        Server &server = it->second;
        const bool stillWaiting = !server.client && server.enabled
                                  && (server.status.state == ServerState::Pending
                                      || server.status.state == ServerState::Restarting);
        if (stillWaiting)
            spawn(server);
    }
}

Json Manager::workspaceRoots(const QString &workspaceDir)
{
    if (workspaceDir.isEmpty())
        return Json::array();
    const QFileInfo folder(workspaceDir);
    const QString path = folder.canonicalFilePath().isEmpty() ? folder.absoluteFilePath()
                                                              : folder.canonicalFilePath();
    return Json::array(
            {{{"uri", QUrl::fromLocalFile(path).toString(QUrl::FullyEncoded).toStdString()},
              {"name", QFileInfo(path).fileName().toStdString()}}});
}

void Manager::spawn(Server &server)
{
    m_waiting.removeAll(server.config.name);
    Transport *transport = createTransport(server.withSecrets ? *server.withSecrets : server.config,
                                           m_options.workspaceDir, m_options.transports);
    ClientOptions clientOptions;
    clientOptions.serverName = server.config.name;
    clientOptions.requestTimeoutMs = server.config.timeoutMs;
    // The startup timer below is the deadline the user set (and the one its message names);
    // the client's own is a backstop a little later, whichever thread gets to run first.
    clientOptions.initializeTimeoutMs = server.config.startupTimeoutMs + 1000;
    clientOptions.era = m_eras.era(server.config);
    // The workspace is the one root a server may work in (roots/list, both eras). It does not
    // change while the Manager lives, so there is no list_changed to promise.
    const Json roots = workspaceRoots(m_options.workspaceDir);
    if (!roots.empty())
        clientOptions.capabilities["roots"] = Json::object();
    for (const auto &[method, answerer] : m_options.answerers)
        clientOptions.capabilities[answerer.capability] = answerer.settings;
    if (m_options.extensions.is_object() && !m_options.extensions.empty())
        clientOptions.capabilities["extensions"] = m_options.extensions;

    const bool abroad = m_options.startOnThread && qobject_cast<StdioTransport *>(transport);
    auto *client = new Client(transport, clientOptions, abroad ? nullptr : this);
    if (!roots.empty())
        client->setRequestHandler("roots/list", [roots](const Json &, Client::Reply reply) {
            reply(Response::success({{"roots", roots}}));
        });
    for (const auto &[method, answerer] : m_options.answerers)
        client->setRequestHandler(method, [answer = answerer.answer, name = server.config.name](
                                                  const Json &params, Client::Reply reply) {
            answer(name, params, std::move(reply));
        });
    server.client = client;
    const QString name = server.config.name;
    if (m_trafficObserver)
        installTrafficTap(client, name);
    // A child process's stderr is its log: kept as a tail for the UI (no other transport has one),
    // with the server's secrets redacted as in the protocol log (a server may print its token).
    if (auto *stdio = qobject_cast<StdioTransport *>(transport)) {
        connect(stdio, &StdioTransport::stderrLine, this,
                [this, client, name,
                 redactor = Redactor::forServer(server.config)](const QString &written) {
                    const QString line = redactor.redactText(written);
                    if (Server *s = serverFor(client)) {
                        s->stderrTail << line;
                        if (s->stderrTail.size() > StderrTailLines)
                            s->stderrTail.removeFirst();
                    }
                    emit serverStderr(name, line);
                });
    }
    connect(transport, &Transport::note, this,
            [this, name](const QString &text) { emit serverTransportNote(name, text); });
    connect(client, &Client::authorizationRequired, this, [this, name](const QString &challenge) {
        emit authorizationRequired(name, challenge);
    });
    connect(client, &Client::stateChanged, this,
            [this, client](Client::State state) { onClientState(client, state); });
    connect(client, &Client::toolsChanged, this, [this, client, name] {
        if (isAbroad(client))
            return; // the first list: counted when the client is ready and here
        if (Server *s = serverFor(client)) {
            s->status.toolCount = int(client->tools().size());
            emit toolsChanged(name);
            emit serverStatusChanged(name);
        }
    });
    connect(client, &Client::warning, this,
            [this, name](const QString &text) { emit serverWarning(name, text); });
    connect(client, &Client::notificationReceived, this,
            [this, name](const QString &method, const Json &params) {
                emit serverNotification(name, method, params);
            });

    delete server.startupTimer;
    server.startupTimer = new QTimer(this);
    server.startupTimer->setSingleShot(true);
    connect(server.startupTimer, &QTimer::timeout, this, [this, client] {
        Server *s = serverFor(client);
        if (!s || s->status.state == ServerState::Connected)
            return;
        const int seconds = (s->config.startupTimeoutMs + 999) / 1000;
        setStatus(*s, ServerState::Failed, tr("did not finish starting within %1 s").arg(seconds));
        retire(*s);
        maybeSettled();
    });
    server.startupTimer->start(server.config.startupTimeoutMs);

    if (server.status.state != ServerState::Restarting)
        setStatus(server, ServerState::Pending);
    if (!abroad) {
        client->connectToServer();
        return;
    }
    if (!m_startThread) {
        m_startThread = new QThread;
        m_startThread->setObjectName(QStringLiteral("MCP start"));
        m_startAnchor = new QObject;
        m_startAnchor->moveToThread(m_startThread);
        m_startThread->start();
    }
    client->moveToThread(m_startThread);
    QMetaObject::invokeMethod(client, &Client::connectToServer, Qt::QueuedConnection);
}

bool Manager::isAbroad(const Client *client) const
{
    return client && client->thread() != thread();
}

void Manager::bringHome(Client *client)
{
    if (!isAbroad(client))
        return;
    QThread *home = thread();
    // Running timers are stopped for the move and started again here: Qt would re-register
    // them through a queued call holding an allocation of its own, lost (leaked) whenever
    // the timer's object is deleted before that call runs.
    std::vector<std::pair<QTimer *, int>> running;
    QMetaObject::invokeMethod(
            m_startAnchor,
            [client, home, &running] {
                if (client->thread() != QThread::currentThread())
                    return;
                for (QTimer *timer : client->findChildren<QTimer *>()) {
                    if (timer->isActive()) {
                        running.emplace_back(timer, timer->remainingTime());
                        timer->stop();
                    }
                }
                client->moveToThread(home);
            },
            Qt::BlockingQueuedConnection);
    client->setParent(this);
    for (const auto &[timer, remaining] : running) {
        if (timer->isSingleShot())
            timer->start(std::max(0, remaining));
        else
            timer->start();
    }
}

Manager::Server *Manager::serverFor(Client *client)
{
    for (auto &[name, server] : m_servers) {
        if (server.client == client)
            return &server;
    }
    return nullptr;
}

void Manager::installTrafficTap(Client *client, const QString &name)
{
    const qsizetype cap = std::max<qsizetype>(0, m_options.maxTrafficRecordBytes);
    auto tap = [this, name, cap](TrafficDirection direction, std::string_view text) {
        const bool here = QThread::currentThread() == thread();
        if (here && !m_trafficObserver)
            return;
        qsizetype kept = std::min(qsizetype(text.size()), cap);
        if (kept < qsizetype(text.size())) {
            // Never cut a UTF-8 sequence: back up to the start of the character.
            while (kept > 0 && (static_cast<unsigned char>(text[size_t(kept)]) & 0xC0) == 0x80)
                --kept;
        }
        if (!here) { // a client still starting on the start thread: the record comes here
            QMetaObject::invokeMethod(
                    this,
                    [this, name, direction, copy = QByteArray(text.data(), kept),
                     size = qint64(text.size())] {
                        if (m_trafficObserver)
                            m_trafficObserver(name, direction, copy, size);
                    },
                    Qt::QueuedConnection);
            return;
        }
        m_trafficObserver(name, direction, QByteArrayView(text.data(), kept), qint64(text.size()));
    };
    setTap(client, std::move(tap));
}

// A transport's tap is called on its thread, and so is it set.
void Manager::setTap(Client *client, Transport::TrafficTap tap)
{
    Transport *transport = client->transport();
    if (!isAbroad(client)) {
        transport->setTrafficTap(std::move(tap));
        return;
    }
    QMetaObject::invokeMethod(
            client,
            [transport, tap = std::move(tap)]() mutable {
                transport->setTrafficTap(std::move(tap));
            },
            Qt::QueuedConnection);
}

void Manager::setTrafficObserver(TrafficObserver observer)
{
    m_trafficObserver = std::move(observer);
    for (auto &[name, server] : m_servers) {
        if (!server.client)
            continue;
        if (m_trafficObserver)
            installTrafficTap(server.client, name);
        else
            setTap(server.client, {});
    }
}

void Manager::onClientState(Client *client, Client::State state)
{
    Server *server = serverFor(client);
    if (!server)
        return;
    if (state == Client::State::Ready || state == Client::State::Failed)
        bringHome(client);
    switch (state) {
    case Client::State::Ready:
        server->everConnected = true;
        if (server->startupTimer)
            server->startupTimer->stop();
        server->status.toolCount = int(client->tools().size());
        m_eras.remember(server->config, client->era());
        setStatus(*server, ServerState::Connected);
        break;
    case Client::State::Failed: {
        const QString reason = client->errorString();
        const bool wasConnected = server->everConnected;
        if (server->startupTimer)
            server->startupTimer->stop();
        retire(*server);
        if (!wasConnected || m_stopping) {
            setStatus(*server, ServerState::Failed, reason);
            break;
        }
        const qint64 now = steadyNowMs();
        server->restartTimes.removeIf(
                [&](qint64 t) { return now - t > m_options.restartWindowMs; });
        if (server->restartTimes.size() >= m_options.restartBudget) {
            setStatus(*server, ServerState::Failed,
                      tr("%1 (gave up after %2 restarts within %3 s)")
                              .arg(reason)
                              .arg(m_options.restartBudget)
                              .arg(m_options.restartWindowMs / 1000));
            break;
        }
        server->restartTimes << now;
        ++server->status.restarts;
        setStatus(*server, ServerState::Restarting, reason);
        if (!server->restartTimer) {
            server->restartTimer = new QTimer(this);
            server->restartTimer->setSingleShot(true);
            const QString name = server->config.name;
            connect(server->restartTimer, &QTimer::timeout, this, [this, name] {
                auto it = m_servers.find(name);
                if (it != m_servers.end() && it->second.status.state == ServerState::Restarting
                    && !m_stopping)
                    launch(it->second);
            });
        }
        server->restartTimer->start(m_options.restartDelayMs * int(server->restartTimes.size()));
        break;
    }
    case Client::State::Closed:
    case Client::State::Disconnected:
    case Client::State::Initializing:
    case Client::State::Closing:
        break;
    }
    maybeSettled();
}

void Manager::setStatus(Server &server, ServerState state, const QString &reason)
{
    server.status.state = state;
    server.status.reason = reason;
    if (state != ServerState::Connected)
        server.status.toolCount = state == ServerState::Restarting ? server.status.toolCount : 0;
    qCDebug(lcManager) << server.config.name << serverStateName(state) << reason;
    emit serverStatusChanged(server.config.name);
}

// Takes the server's client out of service: no more status from it, an orderly shutdown,
// and deletion once its process is gone.
void Manager::retire(Server &server)
{
    Client *client = server.client;
    if (!client)
        return;
    bringHome(client);
    server.client = nullptr;
    client->disconnect(this);
    client->transport()->setTrafficTap({}); // a retired client's goodbyes are not logged
    if (client->state() == Client::State::Closed || client->transport()->isFinished()) {
        client->deleteLater();
        return;
    }
    ++m_retiring;
    auto done = [this, client] {
        client->deleteLater();
        --m_retiring;
        maybeStopped();
    };
    // A failed client is already shutting its transport down; wait for the transport itself.
    connect(client->transport(), &Transport::closed, this, done, Qt::SingleShotConnection);
    client->close();
}

void Manager::removeServer(const QString &name)
{
    auto it = m_servers.find(name);
    if (it == m_servers.end())
        return;
    retire(it->second);
    delete it->second.startupTimer;
    delete it->second.restartTimer;
    m_servers.erase(it);
    emit serverStatusChanged(name);
}

void Manager::stop()
{
    m_stopping = true;
    for (auto &[name, server] : m_servers) {
        if (server.startupTimer)
            server.startupTimer->stop();
        if (server.restartTimer)
            server.restartTimer->stop();
        retire(server);
    }
    if (m_retiring == 0) // nothing to wait for; never emit from inside stop() itself
        QMetaObject::invokeMethod(this, &Manager::maybeStopped, Qt::QueuedConnection);
}

// Emitted directly when the last process is gone (before the retired clients are deleted),
// so an application that exits then need not free what it no longer uses.
void Manager::maybeStopped()
{
    if (m_stopping && m_retiring == 0) {
        m_stopping = false;
        emit stopped();
    }
}

bool Manager::isSettled() const
{
    for (const auto &[name, server] : m_servers) {
        if (server.status.state == ServerState::Pending
            || server.status.state == ServerState::Restarting)
            return false;
    }
    return true;
}

void Manager::maybeSettled()
{
    // Every caller has just seen a server change state: a start slot may have come free.
    launchWaiting();
    const bool settledNow = isSettled();
    if (settledNow && !m_wasSettled)
        emit settled();
    m_wasSettled = settledNow;
}

QStringList Manager::serverNames() const
{
    QStringList names;
    for (const auto &[name, server] : m_servers)
        names << name;
    return names;
}

ServerStatus Manager::status(const QString &name) const
{
    auto it = m_servers.find(name);
    return it == m_servers.end() ? ServerStatus{} : it->second.status;
}

const ServerConfig *Manager::serverConfig(const QString &name) const
{
    auto it = m_servers.find(name);
    return it == m_servers.end() ? nullptr : &it->second.config;
}

Client *Manager::client(const QString &name) const
{
    auto it = m_servers.find(name);
    if (it == m_servers.end() || it->second.status.state != ServerState::Connected)
        return nullptr;
    return it->second.client;
}

QStringList Manager::stderrTail(const QString &name) const
{
    auto it = m_servers.find(name);
    return it == m_servers.end() ? QStringList() : it->second.stderrTail;
}

void Manager::restartServer(const QString &name)
{
    auto it = m_servers.find(name);
    if (it == m_servers.end() || !it->second.enabled)
        return;
    Server &server = it->second;
    retire(server);
    server.restartTimes.clear();
    m_wasSettled = false;
    launch(server);
    maybeSettled();
}

void Manager::setServerEnabled(const QString &name, bool enabled)
{
    auto it = m_servers.find(name);
    if (it == m_servers.end() || it->second.enabled == enabled)
        return;
    Server &server = it->second;
    server.enabled = enabled;
    retire(server);
    m_wasSettled = false;
    launch(server);
    maybeSettled();
}

} // namespace Mcp
