#include "agentsdock.h"

#include <engine/agentexecutor.h>
#include <engine/session.h>
#include <mcp/wire/safetext.h>

#include <QCheckBox>
#include <QDir>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace Gui {

namespace {

// What a remote or a model wrote, for one line of a view: control characters shown, not obeyed,
// and cut to a size a row can show.
QString shown(const QString &text, int max = 200)
{
    const QString line = Mcp::escapeControlCharacters(text.left(max * 2)).simplified();
    return line.size() > max ? line.left(max) + QStringLiteral("…") : line;
}

} // namespace

AgentsDock::AgentsDock(Engine::Session *session, Engine::ConversationStore *store, QWidget *parent)
    : QDockWidget(parent)
    , m_session(session)
    , m_store(store)
{
    setObjectName(QStringLiteral("agentsDock"));
    auto *body = new QWidget(this);
    auto *layout = new QVBoxLayout(body);

    m_peersLabel = new QLabel(body);
    m_peersLabel->setWordWrap(true); // a narrow dock wraps it rather than widening
    layout->addWidget(m_peersLabel);
    m_peers = new QTreeWidget(body);
    m_peers->setObjectName(QStringLiteral("agentsPeerView"));
    m_peers->setRootIsDecorated(false);
    m_peers->setColumnCount(4);
    m_peers->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_peers->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_peers->header()->setStretchLastSection(true);
    layout->addWidget(m_peers, 1);
    auto *peerButtons = new QHBoxLayout;
    m_refresh = new QPushButton(body);
    m_refresh->setObjectName(QStringLiteral("agentsRefreshButton"));
    m_trust = new QPushButton(body);
    m_trust->setObjectName(QStringLiteral("agentsTrustButton"));
    m_trust->setEnabled(false);
    peerButtons->addWidget(m_refresh);
    peerButtons->addWidget(m_trust);
    peerButtons->addStretch(1);
    layout->addLayout(peerButtons);
    connect(m_refresh, &QPushButton::clicked, this, &AgentsDock::refreshPeers);
    connect(m_trust, &QPushButton::clicked, this, &AgentsDock::trustSelected);
    connect(m_peers, &QTreeWidget::itemSelectionChanged, this, [this] {
        bool untrusted = false;
        for (const QTreeWidgetItem *item : m_peers->selectedItems()) {
            const Engine::A2A::Peer *peer
                    = m_session->peers().find(item->data(PeerNameColumn, Qt::UserRole).toString());
            untrusted = untrusted || (peer && peer->untrusted);
        }
        m_trust->setEnabled(untrusted);
    });

    m_serve = new QCheckBox(body);
    m_serve->setObjectName(QStringLiteral("agentsServeSwitch"));
    layout->addWidget(m_serve);
    m_address = new QLabel(body);
    m_address->setObjectName(QStringLiteral("agentsAddress"));
    m_address->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_address->setWordWrap(true);
    layout->addWidget(m_address);
    connect(m_serve, &QCheckBox::toggled, this, [this](bool on) {
        if (on != isServing())
            setServing(on);
    });

    m_tasksLabel = new QLabel(body);
    m_tasksLabel->setWordWrap(true); // a narrow dock wraps it rather than widening
    layout->addWidget(m_tasksLabel);
    m_tasks = new QTreeWidget(body);
    m_tasks->setObjectName(QStringLiteral("agentsTaskView"));
    m_tasks->setRootIsDecorated(false);
    m_tasks->setColumnCount(4);
    m_tasks->header()->setStretchLastSection(true);
    m_tasks->setColumnWidth(TaskStateColumn, 90);
    m_tasks->setColumnWidth(TaskRequestColumn, 220);
    m_tasks->setColumnWidth(TaskReplyColumn, 260);
    layout->addWidget(m_tasks, 1);

    setWidget(body);
    m_model = m_session->model();
    retranslateUi(); // also reads the agents
}

AgentsDock::~AgentsDock()
{
    m_server.reset(); // before the executor its tasks run on
}

void AgentsDock::setModel(std::optional<Engine::ProviderConfig> model)
{
    const bool changed = model != m_model;
    m_model = std::move(model);
    if (changed && isServing()) // the tasks to come use the new model
        setServing(false);
    updateServeState();
}

void AgentsDock::setMaxTasks(int tasks)
{
    m_maxTasks = tasks;
    if (m_server)
        m_server->setMaxConcurrentTasks(tasks);
}

QString AgentsDock::address() const
{
    return m_server ? m_server->baseUrl() : QString();
}

bool AgentsDock::setServing(bool serving, QString *error)
{
    m_serveError.clear();
    if (!serving) {
        m_server.reset();
        m_executor.reset();
        updateServeState();
        updateTasks();
        return true;
    }
    if (isServing())
        return true;
    if (!m_model) {
        m_serveError = tr("Configure a model first (Settings): inbound tasks need one.");
    } else {
        m_executor = std::make_unique<Engine::A2A::AgentExecutor>(m_session, *m_model, m_store);
        Engine::A2A::ServerOptions options;
        options.maxConcurrentTasks = m_maxTasks;
        m_executor->describe(options);
        m_server = std::make_unique<Engine::A2A::Server>(options, m_executor.get());
        connect(m_server.get(), &Engine::A2A::Server::taskChanged, this, &AgentsDock::updateTasks);
        QString why;
        if (!m_server->start(&why)) {
            m_serveError = why;
            m_server.reset();
            m_executor.reset();
        }
    }
    if (error)
        *error = m_serveError;
    updateServeState();
    return m_serveError.isEmpty();
}

void AgentsDock::updateServeState()
{
    const QSignalBlocker blocker(m_serve);
    m_serve->setChecked(isServing());
    m_serve->setEnabled(isServing() || m_model.has_value());
    m_serve->setToolTip(
            m_model ? QString()
                    : tr("Configure a model first (Settings): inbound tasks need one."));
    if (isServing())
        m_address->setText(tr("Serving on %1 (this machine only). Remote tasks may use "
                              "read-only tools only.")
                                   .arg(address()));
    else if (!m_serveError.isEmpty())
        m_address->setText(tr("Not serving: %1").arg(m_serveError));
    else
        m_address->setText(tr("Not serving."));
}

void AgentsDock::refreshPeers()
{
    const quint64 generation = ++m_generation;
    m_cards.clear();
    m_peers->clear();
    const Engine::A2A::Peers &peers = m_session->peers();
    for (const Engine::A2A::Peer &peer : peers.peers) {
        auto *item = new QTreeWidgetItem(m_peers);
        item->setText(PeerNameColumn, shown(peer.name, 60));
        item->setData(PeerNameColumn, Qt::UserRole, peer.name);
        item->setToolTip(PeerNameColumn,
                         tr("%1\n%2 (%3)")
                                 .arg(peer.url.toString(QUrl::RemoveUserInfo | QUrl::RemoveQuery),
                                      QDir::toNativeSeparators(peer.sourceFile))
                                 .arg(peer.line));
        if (!peer.error.isEmpty()) {
            item->setText(PeerStateColumn, tr("cannot be used: %1").arg(shown(peer.error, 120)));
            continue;
        }
        if (peer.untrusted) {
            // Not contacted: a cloned repository's agent learns nothing until the user says so.
            item->setText(PeerStateColumn, tr("not trusted yet"));
            continue;
        }
        item->setText(PeerStateColumn, tr("checking…"));
        m_cards[peer.name].checking = true;
        QPointer<AgentsDock> self(this);
        const QString name = peer.name;
        m_session->a2aClient()->fetchCard(
                peer.endpoint(),
                [self, generation, name](std::optional<Engine::A2A::AgentCard> card,
                                         const QString &error) {
                    if (!self || generation != self->m_generation)
                        return;
                    CardState &state = self->m_cards[name];
                    state.checking = false;
                    state.card = std::move(card);
                    state.error = error;
                    for (int i = 0; i < self->m_peers->topLevelItemCount(); ++i) {
                        QTreeWidgetItem *item = self->m_peers->topLevelItem(i);
                        if (item->data(PeerNameColumn, Qt::UserRole).toString() != name)
                            continue;
                        if (!state.card) {
                            item->setText(PeerStateColumn, tr("unreachable"));
                            item->setToolTip(PeerStateColumn, shown(error, 500));
                            continue;
                        }
                        item->setText(PeerCardColumn, shown(state.card->name, 60));
                        item->setToolTip(PeerCardColumn, shown(state.card->description, 500));
                        item->setText(PeerStateColumn, tr("reachable"));
                        QStringList skills;
                        for (const auto &skill : std::as_const(state.card->skills))
                            skills << shown(skill.name.isEmpty() ? skill.id : skill.name, 40);
                        item->setText(PeerSkillsColumn,
                                      shown(skills.join(QStringLiteral(", ")), 200));
                    }
                });
    }
    m_peersLabel->setText(peers.peers.isEmpty()
                                  ? tr("No agents known: name them in .a2a.json (this workspace) "
                                       "or a2a.json (yours).")
                                  : tr("Agents (%1)").arg(peers.peers.size()));
    emit m_peers->itemSelectionChanged();
}

void AgentsDock::trustSelected()
{
    QStringList names;
    for (const QTreeWidgetItem *item : m_peers->selectedItems()) {
        const QString name = item->data(PeerNameColumn, Qt::UserRole).toString();
        const Engine::A2A::Peer *peer = m_session->peers().find(name);
        if (peer && peer->untrusted)
            names << name;
    }
    if (!names.isEmpty())
        emit trustRequested(names);
}

void AgentsDock::updateTasks()
{
    const QList<Engine::A2A::InboundTaskInfo> tasks
            = m_server ? m_server->tasks() : QList<Engine::A2A::InboundTaskInfo>();
    // Newest first; the server keeps a bounded number.
    m_tasks->setUpdatesEnabled(false);
    while (m_tasks->topLevelItemCount() > tasks.size())
        delete m_tasks->takeTopLevelItem(0);
    while (m_tasks->topLevelItemCount() < tasks.size())
        new QTreeWidgetItem(m_tasks);
    for (int i = 0; i < tasks.size(); ++i) {
        const Engine::A2A::InboundTaskInfo &task = tasks.at(tasks.size() - 1 - i);
        QTreeWidgetItem *item = m_tasks->topLevelItem(i);
        item->setText(TaskStateColumn, Engine::A2A::describe(task.state));
        item->setText(TaskRequestColumn, shown(task.request, 120));
        item->setToolTip(TaskRequestColumn, shown(task.request, 2000));
        item->setText(TaskReplyColumn, shown(task.reply, 120));
        item->setToolTip(TaskReplyColumn, shown(task.reply, 2000));
        item->setText(TaskRefusedColumn, shown(task.refusedTools.join(QStringLiteral(", ")), 120));
        item->setData(TaskStateColumn, Qt::UserRole, task.id);
    }
    m_tasks->setUpdatesEnabled(true);
    m_tasksLabel->setText(tasks.isEmpty() ? tr("No inbound tasks.")
                                          : tr("Inbound tasks (%1)").arg(tasks.size()));
}

void AgentsDock::retranslateUi()
{
    setWindowTitle(tr("Agents"));
    m_peers->setHeaderLabels({tr("Name"), tr("Card"), tr("State"), tr("Skills")});
    m_tasks->setHeaderLabels({tr("State"), tr("Request"), tr("Answer"), tr("Refused tools")});
    m_refresh->setText(tr("Check again"));
    m_trust->setText(tr("Trust"));
    m_trust->setToolTip(tr("Use the selected workspace agents: their URL and headers (with your "
                           "variables) will be sent to them."));
    m_serve->setText(tr("Serve this workspace as an agent"));
    refreshPeers();
    updateServeState();
    updateTasks();
}

void AgentsDock::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDockWidget::changeEvent(event);
}

} // namespace Gui
