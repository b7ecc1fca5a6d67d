#include "mainwindow.h"

#include "chatview.h"
#include "protocollogdock.h"
#include "serverdock.h"
#include "toolbrowser.h"
#include "uiapprovalgate.h"

#include <engine/builtintools.h>
#include <engine/providerconfig.h>
#include <engine/workspace.h>
#include <mcp/configeditor.h>

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QStatusBar>
#include <QToolBar>
#include <QVBoxLayout>

namespace Ui {

MainWindow::MainWindow(MainWindowOptions options, QWidget *parent)
    : QMainWindow(parent)
    , m_options(std::move(options))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Switchboard — %1").arg(QDir(m_options.workspace).dirName()));
    resize(1100, 720);
    setUpEngine();
    setUpWidgets();
    refreshConversations();
    updateStatus();
    // Servers start after the window is up: a slow or dead server never delays it.
    QMetaObject::invokeMethod(
            this, [this] { m_manager->start(m_config); }, Qt::QueuedConnection);
}

MainWindow::~MainWindow()
{
    if (m_agent)
        m_agent->cancel();
    m_runner->cancelAll();
}

void MainWindow::setUpEngine()
{
    m_config = Mcp::ConfigLoader::load(m_options.workspace, m_options.configFile,
                                       QProcessEnvironment::systemEnvironment());
    Mcp::ManagerOptions managerOptions;
    managerOptions.workspaceDir = m_options.workspace;
    m_manager = std::make_unique<Mcp::Manager>(managerOptions);

    m_registry = std::make_unique<Engine::ToolRegistry>();
    auto workspace = std::make_shared<Engine::Workspace>(m_options.workspace);
    for (auto &tool : Engine::createBuiltinTools(workspace))
        m_registry->add(std::move(tool));
    m_adapter = std::make_unique<Engine::McpToolAdapter>(m_manager.get(), m_registry.get());

    m_gate = new UiApprovalGate(this, this);
    m_runner = std::make_unique<Engine::ToolRunner>(m_registry.get(), m_gate, m_options.workspace);
    for (const Mcp::ServerConfig &server : std::as_const(m_config.servers))
        m_runner->setTimeoutForSource(server.name, server.timeoutMs);
    const Mcp::McpConfig *config = &m_config;
    m_runner->setAlwaysAllowSaver(
            [config](const QString &source, const QString &tool, QString *error) {
                const Mcp::ServerConfig *server = config->find(source);
                if (!server || server->sourceFile.isEmpty()) {
                    *error = tr("built-in tools are allowed for this session only");
                    return false;
                }
                return Mcp::ConfigEditor::addAutoApprove(server->sourceFile, source, tool, error);
            });

    m_store = m_options.conversationFolder.isEmpty()
                      ? std::make_unique<Engine::ConversationStore>()
                      : std::make_unique<Engine::ConversationStore>(m_options.conversationFolder);
    const auto providerConfig = Engine::ProviderConfig::fromEnvironment(
            QProcessEnvironment::systemEnvironment(), &m_noModelReason);
    if (providerConfig) {
        m_provider = Engine::createProvider(*providerConfig);
        m_agent = std::make_unique<Engine::Agent>(m_provider.get(), m_registry.get(),
                                                  m_runner.get());
        m_agent->setStore(m_store.get());
    }
}

void MainWindow::setUpWidgets()
{
    m_chat = new ChatView(this);
    m_composer = new QPlainTextEdit(this);
    m_composer->setObjectName(QStringLiteral("composer"));
    m_composer->setPlaceholderText(
            tr("Ask anything — Enter sends, Shift+Enter for a new line, /mcp opens the tools"));
    m_composer->setMaximumHeight(110);
    m_composer->installEventFilter(this);
    m_sendButton = new QPushButton(tr("Send"), this);
    m_sendButton->setObjectName(QStringLiteral("sendButton"));
    connect(m_sendButton, &QPushButton::clicked, this, [this] {
        if (m_agent && m_agent->isBusy())
            m_agent->cancel();
        else
            submit();
    });
    auto *composerRow = new QHBoxLayout;
    composerRow->addWidget(m_composer, 1);
    composerRow->addWidget(m_sendButton);

    auto *chatPane = new QWidget(this);
    auto *chatLayout = new QVBoxLayout(chatPane);
    chatLayout->setContentsMargins(0, 0, 0, 0);
    chatLayout->addWidget(m_chat, 1);
    chatLayout->addLayout(composerRow);

    m_conversations = new QListWidget(this);
    m_conversations->setObjectName(QStringLiteral("conversationList"));
    m_conversations->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_conversations, &QListWidget::itemActivated, this, [this](QListWidgetItem *item) {
        openConversation(item->data(Qt::UserRole).toString());
    });
    connect(m_conversations, &QListWidget::customContextMenuRequested, this,
            [this](const QPoint &pos) {
                QListWidgetItem *item = m_conversations->itemAt(pos);
                if (!item)
                    return;
                const QString id = item->data(Qt::UserRole).toString();
                auto *menu = new QMenu(this);
                menu->setAttribute(Qt::WA_DeleteOnClose);
                QAction *remove = menu->addAction(tr("Delete"));
                connect(remove, &QAction::triggered, this, [this, id] {
                    m_store->remove(id);
                    if (m_agent && m_agent->conversationId() == id)
                        newConversation();
                    refreshConversations();
                });
                menu->popup(m_conversations->viewport()->mapToGlobal(pos));
            });
    auto *newButton = new QPushButton(tr("New conversation"), this);
    connect(newButton, &QPushButton::clicked, this, &MainWindow::newConversation);
    auto *listPane = new QWidget(this);
    auto *listLayout = new QVBoxLayout(listPane);
    listLayout->setContentsMargins(0, 0, 0, 0);
    listLayout->addWidget(newButton);
    listLayout->addWidget(m_conversations, 1);

    auto *splitter = new QSplitter(this);
    splitter->addWidget(listPane);
    splitter->addWidget(chatPane);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({220, 880});
    setCentralWidget(splitter);

    m_dock = new ServerDock(m_manager.get(), this);
    addDockWidget(Qt::RightDockWidgetArea, m_dock);

    QMenu *fileMenu = menuBar()->addMenu(tr("&File"));
    fileMenu->addAction(tr("&New conversation"), QKeySequence::New, this,
                        &MainWindow::newConversation);
    fileMenu->addSeparator();
    fileMenu->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);
    QMenu *toolsMenu = menuBar()->addMenu(tr("&Tools"));
    QAction *browse = toolsMenu->addAction(tr("&Tool browser…"), QKeySequence(tr("Ctrl+T")), this,
                                           &MainWindow::openToolBrowser);
    // The protocol log starts hidden: until it is opened the Manager records nothing.
    m_logDock = new ProtocolLogDock(m_manager.get(), this);
    addDockWidget(Qt::BottomDockWidgetArea, m_logDock);
    m_logDock->hide();
    toolsMenu->addAction(m_logDock->toggleViewAction());
    connect(m_dock, &ServerDock::openLogRequested, m_logDock, &ProtocolLogDock::showServer);
    QToolBar *toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolBar"));
    toolbar->addAction(browse);
    toolbar->addAction(m_dock->toggleViewAction());

    m_modelLabel = new QLabel(this);
    m_usageLabel = new QLabel(this);
    statusBar()->addWidget(m_modelLabel);
    statusBar()->addPermanentWidget(m_usageLabel);
    statusBar()->addPermanentWidget(
            new QLabel(QDir::toNativeSeparators(m_options.workspace), this));

    if (!m_agent) {
        m_chat->addNotice(
                tr("<b>No model is configured.</b> Servers, tools and manual runs work; to chat, "
                   "set <code>OPENAI_API_KEY</code> (optionally <code>OPENAI_BASE_URL</code> and "
                   "<code>OPENAI_MODEL</code> — any OpenAI-compatible server such as DeepSeek, "
                   "Ollama or llama.cpp; a local one needs only the base URL) or "
                   "<code>ANTHROPIC_API_KEY</code>, then restart Switchboard."));
        return;
    }
    connect(m_agent.get(), &Engine::Agent::textDelta, m_chat, &ChatView::appendAssistantDelta);
    connect(m_agent.get(), &Engine::Agent::messageAdded, this,
            [this](const Engine::ChatMessage &m) {
                if (m.role == Engine::ChatMessage::Role::Assistant)
                    m_chat->finishAssistantMessage(m.text);
            });
    connect(m_agent.get(), &Engine::Agent::approvalNeeded, m_chat, &ChatView::toolApprovalNeeded);
    connect(m_agent.get(), &Engine::Agent::toolStarted, m_chat, &ChatView::toolStarted);
    connect(m_agent.get(), &Engine::Agent::toolProgress, m_chat, &ChatView::toolProgress);
    connect(m_agent.get(), &Engine::Agent::toolFinished, m_chat, &ChatView::toolFinished);
    connect(m_agent.get(), &Engine::Agent::errorOccurred, this,
            [this](const QString &message) { m_chat->addNotice(message.toHtmlEscaped(), true); });
    connect(m_agent.get(), &Engine::Agent::busyChanged, this, &MainWindow::setBusy);
    connect(m_agent.get(), &Engine::Agent::turnFinished, this, [this](const Engine::Usage &usage) {
        if (usage.inputTokens >= 0 || usage.outputTokens >= 0)
            m_usageLabel->setText(tr("last turn: %1 in / %2 out tokens")
                                          .arg(std::max<qint64>(0, usage.inputTokens))
                                          .arg(std::max<qint64>(0, usage.outputTokens)));
        refreshConversations();
    });
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_composer && event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter)
            && !(key->modifiers() & Qt::ShiftModifier)) {
            submit();
            return true;
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::submit()
{
    const QString text = m_composer->toPlainText().trimmed();
    if (text.isEmpty())
        return;
    if (text == QLatin1String("/mcp")) {
        m_composer->clear();
        openToolBrowser();
        return;
    }
    if (!m_agent) {
        m_chat->addNotice(tr("No model is configured: %1").arg(m_noModelReason.toHtmlEscaped()),
                          true);
        return;
    }
    if (m_agent->isBusy())
        return;
    if (m_agent->conversationId().isEmpty())
        m_agent->newConversation(text.left(60), m_options.workspace);
    m_chat->addUserMessage(text);
    m_composer->clear();
    m_agent->send(text);
}

void MainWindow::setBusy(bool busy)
{
    m_sendButton->setText(busy ? tr("Stop") : tr("Send"));
}

void MainWindow::openToolBrowser()
{
    if (!m_browser)
        m_browser = new ToolBrowser(m_registry.get(), m_runner.get(), this);
    m_browser->show();
    m_browser->raise();
    m_browser->activateWindow();
}

void MainWindow::refreshConversations()
{
    m_conversations->clear();
    for (const auto &info : m_store->list()) {
        auto *item = new QListWidgetItem(info.title.isEmpty() ? tr("(untitled)") : info.title,
                                         m_conversations);
        item->setData(Qt::UserRole, info.id);
        item->setToolTip(tr("%n message(s), %1", nullptr, info.messageCount)
                                 .arg(QLocale().toString(info.updated, QLocale::ShortFormat)));
    }
}

void MainWindow::openConversation(const QString &id)
{
    if (!m_agent || m_agent->isBusy())
        return;
    QString error;
    auto conversation = m_store->load(id, &error);
    if (!conversation) {
        m_chat->addNotice(error.toHtmlEscaped(), true);
        return;
    }
    m_chat->clear();
    for (const auto &message : conversation->messages) {
        switch (message.role) {
        case Engine::ChatMessage::Role::User:
            m_chat->addUserMessage(message.text);
            break;
        case Engine::ChatMessage::Role::Assistant:
            m_chat->finishAssistantMessage(message.text);
            break;
        case Engine::ChatMessage::Role::Tool: {
            Engine::ToolRunResult result;
            result.output = Engine::ToolOutput::text(message.text, message.isError);
            m_chat->toolFinished(message.toolCallId, result);
            break;
        }
        case Engine::ChatMessage::Role::System:
            break;
        }
    }
    m_agent->openConversation(id, conversation->messages);
}

void MainWindow::newConversation()
{
    if (m_agent && m_agent->isBusy())
        return;
    m_chat->clear();
    if (m_agent)
        m_agent->openConversation(QString(), {});
}

void MainWindow::updateStatus()
{
    m_modelLabel->setText(m_provider ? m_provider->describe() : tr("no model configured"));
}

} // namespace Ui
