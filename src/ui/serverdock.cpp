#include "serverdock.h"

#include "trustbanner.h"

#include <engine/secrets/signin.h>

#include <mcp/manager.h>

#include <QAction>
#include <QClipboard>
#include <QDialog>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QStyle>
#include <QToolBar>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace Gui {

namespace {

// The stderr view is refreshed at most this often: a server flooding stderr (100,000 lines)
// then costs one append per tick instead of one per line, and 100 ms still reads as live.
constexpr int StderrFlushMs = 100;
// Lines the stderr view keeps: more than the Manager's 200-line tail, so a burst watched live
// can be scrolled back through, yet bounded so a flood cannot grow memory or layout time.
constexpr int StderrViewLines = 5000;

constexpr std::array AllStates{Mcp::ServerState::Pending,    Mcp::ServerState::Connected,
                               Mcp::ServerState::Failed,     Mcp::ServerState::Disabled,
                               Mcp::ServerState::Restarting, Mcp::ServerState::Untrusted};

// A filled dot, drawn at 1x and 2x so it stays crisp on high-DPI screens without image files.
QIcon makeDot(const QColor &color)
{
    QIcon icon;
    for (int size : {16, 32}) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(QPen(color.darker(140), size / 16.0));
        painter.setBrush(color);
        const qreal margin = size * 0.2;
        painter.drawEllipse(QRectF(margin, margin, size - 2 * margin, size - 2 * margin));
        painter.end();
        icon.addPixmap(pixmap);
    }
    return icon;
}

// Failure reasons can span lines (a process's message); a row shows them on one line.
QString oneLine(QString text)
{
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return text.simplified();
}

} // namespace

ServerDock::ServerDock(Mcp::Manager *manager, QWidget *parent)
    : QDockWidget(parent)
{
    setObjectName(QStringLiteral("serverDock"));
    setTitleBarWidget(makeTitleBar());
    for (Mcp::ServerState state : AllStates)
        m_icons[size_t(state)] = makeDot(stateColor(state));

    m_signInAction = new QAction(this);
    m_signOutAction = new QAction(this);
    m_signInAction->setVisible(false);
    m_signOutAction->setVisible(false);
    connect(m_signInAction, &QAction::triggered, this, &ServerDock::signInSelected);
    connect(m_signOutAction, &QAction::triggered, this, &ServerDock::signOutSelected);
    m_restartAction = new QAction(this);
    m_toggleAction = new QAction(this);
    m_stderrAction = new QAction(this);
    m_logAction = new QAction(this);
    m_updateAction = new QAction(this);
    m_updateAction->setObjectName(QStringLiteral("updateServerAction"));
    m_uninstallAction = new QAction(this);
    m_uninstallAction->setObjectName(QStringLiteral("uninstallServerAction"));
    connect(m_updateAction, &QAction::triggered, this, [this] {
        if (const QString name = selectedServer(); !name.isEmpty())
            emit updateRequested(name);
    });
    connect(m_uninstallAction, &QAction::triggered, this, [this] {
        if (const QString name = selectedServer(); !name.isEmpty())
            emit uninstallRequested(name);
    });
    // How much of its own log a server sends (notifications/message): Client::setLogLevel.
    m_levelAction = new QAction(this);
    m_levelAction->setObjectName(QStringLiteral("logLevelAction"));
    auto *levels = new QMenu(this);
    levels->setObjectName(QStringLiteral("logLevelMenu"));
    for (const char *level : Mcp::LogLevels) {
        QAction *choice = levels->addAction(QString::fromLatin1(level));
        choice->setObjectName(QStringLiteral("logLevel-") + QLatin1String(level));
        choice->setCheckable(true); // the level set last is checked (see updateActions)
        connect(choice, &QAction::triggered, this,
                [this, level] { setLogLevel(selectedServer(), QString::fromLatin1(level)); });
    }
    m_levelAction->setMenu(levels);
    m_instructionsAction = new QAction(this);
    m_instructionsAction->setObjectName(QStringLiteral("instructionsAction"));
    m_instructionsAction->setCheckable(true);
    connect(m_instructionsAction, &QAction::triggered, this, [this](bool used) {
        const QString server = selectedServer();
        if (server.isEmpty())
            return;
        if (used)
            m_instructionsOff.remove(server);
        else
            m_instructionsOff.insert(server);
        emit instructionsChanged(server, used);
    });
    connect(m_restartAction, &QAction::triggered, this, &ServerDock::restartSelected);
    connect(m_toggleAction, &QAction::triggered, this, &ServerDock::toggleSelected);
    connect(m_stderrAction, &QAction::triggered, this, &ServerDock::showStderr);
    connect(m_logAction, &QAction::triggered, this, [this] {
        const QString name = selectedServer();
        if (!name.isEmpty())
            emit openLogRequested(name);
    });

    auto *content = new QWidget(this);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);
    // A toolbar rather than a row of buttons: in a narrow dock what does not fit goes behind
    // its » menu instead of widening the dock.
    const auto actionBar
            = [content](const char *name,
                        std::initializer_list<std::pair<QAction *, const char *>> actions) {
                  auto *bar = new QToolBar(content);
                  bar->setObjectName(QLatin1String(name));
                  bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
                  bar->setFloatable(false);
                  bar->setMovable(false);
                  for (const auto &[action, objectName] : actions) {
                      bar->addAction(action);
                      bar->widgetForAction(action)->setObjectName(QLatin1String(objectName));
                  }
                  return bar;
              };
    // Sign in and Sign out show only when they apply (their actions' visibility).
    QToolBar *buttons = actionBar("serverActionsBar", {{m_signInAction, "signInButton"},
                                                       {m_signOutAction, "signOutButton"},
                                                       {m_restartAction, "restartButton"},
                                                       {m_toggleAction, "toggleButton"},
                                                       {m_stderrAction, "stderrButton"},
                                                       {m_logAction, "logButton"}});
    m_trustBanner = new TrustBanner(content);
    m_trustBanner->hide();
    layout->addWidget(m_trustBanner);
    layout->addWidget(buttons);

    m_list = new QTreeWidget(content);
    m_list->setObjectName(QStringLiteral("serverList"));
    m_list->setColumnCount(ColumnCount);
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true); // rows never wrap; lets the view skip measuring each
    m_list->setAllColumnsShowFocus(true);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setTextElideMode(Qt::ElideRight);
    m_list->header()->setStretchLastSection(true); // the reason takes what is left, elided
    for (int column : {NameColumn, StateColumn, ToolsColumn})
        m_list->header()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    m_list->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_list->addActions({m_signInAction, m_signOutAction, m_restartAction, m_toggleAction,
                        m_stderrAction, m_logAction, m_levelAction, m_instructionsAction,
                        m_updateAction, m_uninstallAction});
    connect(m_list, &QTreeWidget::itemSelectionChanged, this, &ServerDock::updateActions);
    connect(m_list, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem *item, int column) {
        if (column != ToolsColumn)
            return;
        const QString name = item->text(NameColumn);
        const bool offered = item->checkState(ToolsColumn) == Qt::Checked;
        if (offered == !m_notOffered.contains(name))
            return;
        if (offered)
            m_notOffered.remove(name);
        else
            m_notOffered.insert(name);
        emit offerChanged(name, offered);
    });
    connect(m_list, &QTreeWidget::itemActivated, this, &ServerDock::showStderr);
    layout->addWidget(m_list);
    m_addButton = new QPushButton(content);
    m_addButton->setObjectName(QStringLiteral("addServerButton"));
    connect(m_addButton, &QPushButton::clicked, this, &ServerDock::addServerRequested);
    auto addRow = new QHBoxLayout;
    addRow->addWidget(m_addButton);
    addRow->addWidget(
            actionBar("installActionsBar", {{m_updateAction, "updateServerButton"},
                                            {m_uninstallAction, "uninstallServerButton"}}),
            1);
    layout->addLayout(addRow);
    setWidget(content);

    m_stderrFlush.setSingleShot(true);
    m_stderrFlush.setInterval(StderrFlushMs);
    connect(&m_stderrFlush, &QTimer::timeout, this, &ServerDock::flushStderr);

    retranslateUi();
    setManager(manager);
}

ServerDock::~ServerDock() = default;

void ServerDock::setManager(Mcp::Manager *manager)
{
    if (m_manager == manager)
        return;
    if (m_manager)
        disconnect(m_manager, nullptr, this, nullptr);
    m_manager = manager;
    if (m_manager) {
        connect(m_manager, &Mcp::Manager::serverStatusChanged, this, &ServerDock::onStatusChanged);
        connect(m_manager, &Mcp::Manager::serverStderr, this, &ServerDock::onStderr);
        connect(m_manager, &Mcp::Manager::serverNotification, this,
                [this](const QString &name, const QString &method, const Mcp::Json &params) {
                    if (method == QLatin1String("notifications/message"))
                        onLogMessage(name, params);
                });
        // The QPointer is already null here; rebuilding empties the list.
        connect(m_manager, &QObject::destroyed, this, &ServerDock::rebuildRows);
    }
    m_stderrServer.clear();
    m_stderrPending.clear();
    if (m_stderrDialog)
        m_stderrDialog->hide();
    rebuildRows();
}

Mcp::Manager *ServerDock::manager() const
{
    return m_manager;
}

QString ServerDock::selectedServer() const
{
    const QList<QTreeWidgetItem *> selected = m_list->selectedItems();
    return selected.isEmpty() ? QString() : selected.first()->text(NameColumn);
}

void ServerDock::selectServer(const QString &name)
{
    if (QTreeWidgetItem *item = m_rows.value(name)) {
        m_list->setCurrentItem(item);
        item->setSelected(true);
    } else {
        m_list->clearSelection();
    }
}

QColor ServerDock::stateColor(Mcp::ServerState state)
{
    switch (state) {
    case Mcp::ServerState::Connected:
        return QColor(0x2e, 0x9d, 0x4f);
    case Mcp::ServerState::Pending:
    case Mcp::ServerState::Restarting:
        return QColor(0xe0, 0xa0, 0x20);
    case Mcp::ServerState::Failed:
        return QColor(0xd0, 0x34, 0x2c);
    case Mcp::ServerState::Untrusted:
        return QColor(0x6a, 0x5a, 0xcd); // waits for the user, like no other state
    case Mcp::ServerState::Disabled:
        break;
    }
    return QColor(0x9a, 0x9a, 0x9a);
}

QString ServerDock::stateText(Mcp::ServerState state)
{
    switch (state) {
    case Mcp::ServerState::Pending:
        return tr("starting", "server state");
    case Mcp::ServerState::Connected:
        return tr("connected", "server state");
    case Mcp::ServerState::Failed:
        return tr("failed", "server state");
    case Mcp::ServerState::Disabled:
        return tr("disabled", "server state");
    case Mcp::ServerState::Restarting:
        return tr("restarting", "server state");
    case Mcp::ServerState::Untrusted:
        return tr("untrusted", "server state");
    }
    return QString();
}

QString ServerDock::summary() const
{
    if (m_rows.isEmpty())
        return tr("no servers configured");
    int counts[AllStates.size()] = {};
    for (const QTreeWidgetItem *item : m_rows)
        ++counts[item->data(NameColumn, StateRole).toInt()];
    auto count = [&](Mcp::ServerState state) {
        return counts[size_t(state)];
    };
    // Connected is always named, so the title never reads as "nothing"; the rest only if any.
    QStringList parts{tr("%n connected", "servers", count(Mcp::ServerState::Connected))};
    const int starting = count(Mcp::ServerState::Pending) + count(Mcp::ServerState::Restarting);
    if (starting)
        parts << tr("%n starting", "servers", starting);
    if (count(Mcp::ServerState::Failed))
        parts << tr("%n failed", "servers", count(Mcp::ServerState::Failed));
    if (count(Mcp::ServerState::Disabled))
        parts << tr("%n disabled", "servers", count(Mcp::ServerState::Disabled));
    if (count(Mcp::ServerState::Untrusted))
        parts << tr("%n untrusted", "servers", count(Mcp::ServerState::Untrusted));
    return parts.join(tr(", ", "summary separator"));
}

void ServerDock::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDockWidget::changeEvent(event);
}

void ServerDock::retranslateUi()
{
    m_list->setHeaderLabels({tr("Server"), tr("State"), tr("Tools"), tr("Details")});
    m_addButton->setText(tr("&Add server…"));
    m_addButton->setToolTip(tr("Find a server in the MCP Registry and install it"));
    m_signInAction->setText(tr("Sign in"));
    m_signInAction->setToolTip(tr("Sign in to the selected server in your browser"));
    m_signOutAction->setText(tr("Sign out"));
    m_signOutAction->setToolTip(tr("Forget the selected server's tokens"));
    m_restartAction->setText(tr("Restart"));
    m_restartAction->setToolTip(tr("Stop the selected server and start it again"));
    m_stderrAction->setText(tr("Show stderr"));
    m_stderrAction->setToolTip(tr("Show the last lines the selected server wrote to stderr"));
    m_updateAction->setText(tr("&Update…"));
    m_updateAction->setToolTip(tr("Install the newer version of the selected server (from the "
                                  "MCP Registry, or an extension's newer file), keeping its "
                                  "settings"));
    m_uninstallAction->setText(tr("U&ninstall…"));
    m_uninstallAction->setToolTip(tr("Remove the selected server from its configuration file, "
                                     "with an extension's files"));
    m_logAction->setText(tr("Open log"));
    m_logAction->setToolTip(tr("Show the selected server's protocol traffic"));
    m_instructionsAction->setText(tr("Use its instructions"));
    m_instructionsAction->setToolTip(tr("Whether the server's own instructions join the "
                                        "model's system prompt"));
    m_levelAction->setText(tr("Log level"));
    m_levelAction->setToolTip(tr("How much of its own log the selected server sends (its "
                                 "last message shows in its row)"));
    if (m_stderrDialog) {
        m_copyButton->setText(tr("Copy all"));
        if (!m_stderrServer.isEmpty())
            m_stderrDialog->setWindowTitle(tr("stderr — %1").arg(m_stderrServer));
    }
    // Rows, title and the Disable/Enable text all carry translated words.
    rebuildRows();
}

void ServerDock::rebuildRows()
{
    const QString selected = selectedServer();
    m_list->clear();
    m_rows.clear();
    if (m_manager) {
        const QStringList names = m_manager->serverNames();
        for (const QString &name : names) {
            auto *item = new QTreeWidgetItem(m_list);
            item->setTextAlignment(ToolsColumn, Qt::AlignRight | Qt::AlignVCenter);
            m_rows.insert(name, item);
            applyStatus(item, m_manager->status(name));
        }
    }
    selectServer(selected);
    updateSummary();
    updateActions();
}

void ServerDock::onStatusChanged(const QString &name)
{
    QTreeWidgetItem *item = m_rows.value(name);
    const bool exists = m_manager && m_manager->serverNames().contains(name);
    if (!item || !exists) {
        // A server was added or removed (reload): rare, so rebuilding keeps the order simple.
        rebuildRows();
        return;
    }
    applyStatus(item, m_manager->status(name));
    updateSummary();
    if (item->isSelected())
        updateActions();
}

void ServerDock::applyStatus(QTreeWidgetItem *item, const Mcp::ServerStatus &status)
{
    const QColor color = stateColor(status.state);
    item->setData(NameColumn, StateRole, int(status.state));
    item->setIcon(NameColumn, m_icons[size_t(status.state)]);
    item->setText(NameColumn, status.name);
    item->setText(StateColumn, stateText(status.state));
    item->setForeground(StateColumn, color);
    const bool hasTools = status.state == Mcp::ServerState::Connected
                          || status.state == Mcp::ServerState::Restarting;
    {
        const QSignalBlocker blocker(m_list); // filling in is not the user's click
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setText(ToolsColumn, hasTools ? QString::number(status.toolCount) : QString());
        item->setCheckState(ToolsColumn,
                            m_notOffered.contains(status.name) ? Qt::Unchecked : Qt::Checked);
    }
    QString reason = status.reason;
    if (m_signIn) {
        const Engine::SignIn::Status signIn = m_signIn->status(status.name);
        using State = Engine::SignIn::State;
        if (signIn.state == State::Waiting)
            reason = tr("Waiting for the browser: sign in there");
        else if (signIn.state == State::Failed && status.state != Mcp::ServerState::Connected)
            reason = tr("Sign-in failed: %1").arg(signIn.detail);
        else if (signIn.state == State::Needed && status.state == Mcp::ServerState::Failed)
            reason = tr("Sign-in needed: press Sign in");
        else if (signIn.state == State::SignedIn && signIn.memoryOnly)
            reason = tr("Signed in; no keychain answered, so the tokens last for this session "
                        "only");
    }
    // A connected server's row shows what it last logged (notifications/message).
    if (reason.isEmpty() && status.state == Mcp::ServerState::Connected)
        reason = m_lastLog.value(status.name);
    item->setText(ReasonColumn, oneLine(reason));
    item->setToolTip(ReasonColumn, reason);
    if (status.state == Mcp::ServerState::Failed)
        item->setForeground(ReasonColumn, color);
    else
        item->setData(ReasonColumn, Qt::ForegroundRole, QVariant());
    item->setForeground(NameColumn, status.state == Mcp::ServerState::Disabled
                                            ? QBrush(color)
                                            : m_list->palette().text());
    QString tip = tr("%1: %2").arg(status.name, stateText(status.state));
    if (status.restarts > 0)
        tip += QLatin1Char('\n') + tr("restarted %n time(s) after a crash", "", status.restarts);
    if (!status.reason.isEmpty())
        tip += QLatin1Char('\n') + status.reason;
    if (const Mcp::Client *client = m_manager ? m_manager->client(status.name) : nullptr) {
        tip += QLatin1Char('\n') + client->transport()->describe();
        tip += QLatin1Char('\n')
               + tr("MCP %1").arg(QString::fromStdString(client->protocolVersion()));
        if (const QString session = client->transport()->sessionId(); !session.isEmpty())
            tip += QLatin1Char('\n') + tr("session %1").arg(session);
    }
    for (int column : {NameColumn, StateColumn})
        item->setToolTip(column, tip);
    item->setToolTip(ToolsColumn, m_notOffered.contains(status.name)
                                          ? tr("The model is not offered this server's tools "
                                               "(check to offer them)")
                                          : tr("The model is offered this server's tools "
                                               "(uncheck to keep them from it)"));
}

void ServerDock::setNotOffered(const QSet<QString> &servers)
{
    m_notOffered = servers;
    for (auto it = m_rows.cbegin(); it != m_rows.cend(); ++it) {
        if (m_manager)
            applyStatus(it.value(), m_manager->status(it.key()));
    }
}

void ServerDock::updateSummary()
{
    setWindowTitle(tr("Servers — %1").arg(summary()));
    m_titleLabel->setText(QStringLiteral("<b>%1</b> — %2")
                                  .arg(tr("Servers").toHtmlEscaped(), summary().toHtmlEscaped()));
    m_titleLabel->setToolTip(windowTitle());
    if (QWidget *bar = titleBarWidget())
        bar->updateGeometry();
}

// The title bar: the summary wraps onto a second line rather than being cut ("1 disab…") in
// a narrow dock; dragging it still moves the dock (the label ignores the mouse).
namespace {

// A dock title bar as tall as its wrapped label needs at its current width (QDockWidget asks
// only sizeHint(), which for a word-wrapped label guesses a width of its own).
class WrappingTitleBar : public QWidget
{
public:
    using QWidget::QWidget;
    QLabel *label = nullptr;

    QSize sizeHint() const override
    {
        const QMargins margins = layout()->contentsMargins();
        const int buttons = 2 * 24;
        const int labelWidth = std::max(60, width() - margins.left() - margins.right() - buttons);
        const int height = std::max(label->heightForWidth(labelWidth), 22);
        return {margins.left() + margins.right() + buttons + 60,
                height + margins.top() + margins.bottom()};
    }
    QSize minimumSizeHint() const override { return sizeHint(); }

protected:
    void resizeEvent(QResizeEvent *event) override
    {
        QWidget::resizeEvent(event);
        if (sizeHint().height() != height())
            updateGeometry(); // another line, or one fewer: the dock lays out again
    }
};

} // namespace

QWidget *ServerDock::makeTitleBar()
{
    auto *bar = new WrappingTitleBar(this);
    bar->setObjectName(QStringLiteral("serverDockTitle"));
    m_titleLabel = new QLabel(bar);
    bar->label = m_titleLabel;
    m_titleLabel->setObjectName(QStringLiteral("serverDockTitleLabel"));
    m_titleLabel->setTextFormat(Qt::RichText);
    m_titleLabel->setWordWrap(true);
    m_titleLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto *layout = new QHBoxLayout(bar);
    layout->setContentsMargins(6, 3, 3, 3);
    layout->addWidget(m_titleLabel, 1);
    const auto button = [this, bar, layout](QStyle::StandardPixmap pixmap, const QString &tip) {
        auto *tool = new QToolButton(bar);
        tool->setIcon(style()->standardIcon(pixmap, nullptr, this));
        tool->setToolTip(tip);
        tool->setAutoRaise(true);
        layout->addWidget(tool, 0, Qt::AlignTop);
        return tool;
    };
    QToolButton *floatButton = button(QStyle::SP_TitleBarNormalButton, tr("Float"));
    floatButton->setObjectName(QStringLiteral("serverDockFloat"));
    connect(floatButton, &QToolButton::clicked, this, [this] { setFloating(!isFloating()); });
    QToolButton *closeButton = button(QStyle::SP_TitleBarCloseButton, tr("Close"));
    closeButton->setObjectName(QStringLiteral("serverDockClose"));
    connect(closeButton, &QToolButton::clicked, this, &QDockWidget::close);
    return bar;
}

Mcp::ServerState ServerDock::selectedState() const
{
    const QList<QTreeWidgetItem *> selected = m_list->selectedItems();
    return selected.isEmpty()
                   ? Mcp::ServerState::Pending
                   : Mcp::ServerState(selected.first()->data(NameColumn, StateRole).toInt());
}

void ServerDock::setSignIn(Engine::SignIn *signIn)
{
    m_signIn = signIn;
    connect(signIn, &Engine::SignIn::statusChanged, this, &ServerDock::onStatusChanged);
    updateActions();
}

void ServerDock::signInSelected()
{
    const QString name = selectedServer();
    if (!m_signIn || !m_manager || name.isEmpty())
        return;
    QPointer<Mcp::Manager> manager = m_manager;
    m_signIn->signInNow(name, [manager, name](bool ok, const QString &) {
        // A failure is on the row already (the sign-in's status says why).
        if (ok && manager)
            manager->restartServer(name);
    });
    onStatusChanged(name);
}

void ServerDock::signOutSelected()
{
    const QString name = selectedServer();
    if (!m_signIn || !m_manager || name.isEmpty())
        return;
    m_signIn->signOut(name);
    m_manager->restartServer(name); // it asks again, and the row says Sign-in needed
}

void ServerDock::updateActions()
{
    const bool any = !selectedServer().isEmpty();
    using SignInState = Engine::SignIn::State;
    const SignInState signIn
            = m_signIn && any ? m_signIn->status(selectedServer()).state : SignInState::None;
    m_signInAction->setVisible(signIn == SignInState::Needed || signIn == SignInState::Failed);
    m_signInAction->setEnabled(selectedState() != Mcp::ServerState::Connected);
    m_signOutAction->setVisible(signIn == SignInState::SignedIn);
    const bool disabled = any && selectedState() == Mcp::ServerState::Disabled;
    // The Manager ignores a restart of a disabled server; say so by greying the button.
    m_restartAction->setEnabled(any && !disabled);
    m_toggleAction->setEnabled(any);
    m_toggleAction->setText(disabled ? tr("Enable") : tr("Disable"));
    m_toggleAction->setToolTip(disabled ? tr("Start the selected server again")
                                        : tr("Stop the selected server and keep it stopped"));
    m_stderrAction->setEnabled(any);
    m_logAction->setEnabled(any);
    // Only what an install made can be updated; anything in a configuration file removed.
    const Mcp::ServerConfig *config
            = any && m_manager ? m_manager->serverConfig(selectedServer()) : nullptr;
    m_updateAction->setEnabled(config && config->definition.is_object()
                               && config->definition.contains("installedFrom"));
    m_uninstallAction->setEnabled(config && !config->sourceFile.isEmpty());
    const Mcp::Client *client = any && m_manager ? m_manager->client(selectedServer()) : nullptr;
    m_levelAction->setEnabled(client && client->serverCapabilities().contains("logging"));
    const QString level = client ? QString::fromStdString(client->logLevel()) : QString();
    for (QAction *choice : m_levelAction->menu()->actions())
        choice->setChecked(choice->text() == level);
    m_instructionsAction->setEnabled(client && !client->instructions().trimmed().isEmpty());
    m_instructionsAction->setChecked(!m_instructionsOff.contains(selectedServer()));
}

void ServerDock::setInstructionsOff(const QSet<QString> &servers)
{
    m_instructionsOff = servers;
    updateActions();
}

void ServerDock::setLogLevel(const QString &server, const QString &level)
{
    Mcp::Client *client = m_manager ? m_manager->client(server) : nullptr;
    if (!client)
        return;
    // 2025-11-25: logging/setLevel; 2026-07-28: the level rides on each request from now on.
    client->setLogLevel(level.toStdString(), this, [this, server, level](Mcp::Response response) {
        if (response.ok())
            m_watchedLogs.insert(server); // asked for: its log lines show in the row
        m_lastLog[server] = response.ok()
                                    ? tr("log level: %1").arg(level)
                                    : tr("log level not set: %1")
                                              .arg(QString::fromStdString(response.error->message));
        onStatusChanged(server);
    });
}

void ServerDock::onLogMessage(const QString &server, const Mcp::Json &params)
{
    const QString level = Mcp::stringMember(params, "level");
    const QString logger = Mcp::stringMember(params, "logger");
    const Mcp::Json data = params.is_object() ? params.value("data", Mcp::Json()) : Mcp::Json();
    const QString text = data.is_string()
                                 ? QString::fromStdString(data.get<std::string>())
                                 : QString::fromStdString(data.dump(
                                         -1, ' ', false, Mcp::Json::error_handler_t::replace));
    // The row is for what needs attention: a warning or worse, unless the person chose the
    // server's log level (then what they asked for). The rest is in the protocol log.
    // (A level that is not one is shown: the server meant something by it.)
    const int rank = Mcp::logLevelRank(level.toStdString());
    if (!m_watchedLogs.contains(server) && rank >= 0 && rank < Mcp::logLevelRank("warning"))
        return;
    QString line = QStringLiteral("[%1] ").arg(level.isEmpty() ? QStringLiteral("?") : level);
    if (!logger.isEmpty())
        line += logger + QStringLiteral(": ");
    m_lastLog[server] = line + text.left(2000);
    onStatusChanged(server);
}

void ServerDock::restartSelected()
{
    const QString name = selectedServer();
    if (m_manager && !name.isEmpty())
        m_manager->restartServer(name);
}

void ServerDock::toggleSelected()
{
    const QString name = selectedServer();
    if (!m_manager || name.isEmpty())
        return;
    const bool enable = selectedState() == Mcp::ServerState::Disabled;
    m_manager->setServerEnabled(name, enable);
    emit serverEnabledChanged(name, enable);
}

void ServerDock::ensureStderrDialog()
{
    if (m_stderrDialog)
        return;
    // Non-modal and reused: it stays open beside the dock while the server keeps running.
    m_stderrDialog = new QDialog(this);
    m_stderrDialog->setObjectName(QStringLiteral("stderrDialog"));
    m_stderrDialog->resize(640, 360);
    auto *layout = new QVBoxLayout(m_stderrDialog);
    m_stderrView = new QPlainTextEdit(m_stderrDialog);
    m_stderrView->setObjectName(QStringLiteral("stderrView"));
    m_stderrView->setReadOnly(true); // still selectable and copyable
    m_stderrView->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_stderrView->setMaximumBlockCount(StderrViewLines);
    m_stderrView->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    layout->addWidget(m_stderrView);
    auto *box = new QDialogButtonBox(QDialogButtonBox::Close, m_stderrDialog);
    m_copyButton = box->addButton(tr("Copy all"), QDialogButtonBox::ActionRole);
    m_copyButton->setObjectName(QStringLiteral("copyStderrButton"));
    connect(m_copyButton, &QPushButton::clicked, this, [this] {
        flushStderr();
        QGuiApplication::clipboard()->setText(m_stderrView->toPlainText());
    });
    connect(box, &QDialogButtonBox::rejected, m_stderrDialog, &QDialog::reject);
    layout->addWidget(box);
}

void ServerDock::showStderr()
{
    const QString name = selectedServer();
    if (!m_manager || name.isEmpty())
        return;
    ensureStderrDialog();
    m_stderrServer = name;
    m_stderrPending.clear();
    m_stderrFlush.stop();
    m_stderrDialog->setWindowTitle(tr("stderr — %1").arg(name));
    m_stderrView->setPlainText(m_manager->stderrTail(name).join(QLatin1Char('\n')));
    m_stderrView->verticalScrollBar()->setValue(m_stderrView->verticalScrollBar()->maximum());
    m_stderrDialog->show();
    m_stderrDialog->raise();
    m_stderrDialog->activateWindow();
}

void ServerDock::onStderr(const QString &name, const QString &line)
{
    // Lines for a hidden view are not kept: showing it again starts from the Manager's tail.
    if (!m_stderrDialog || !m_stderrDialog->isVisible() || name != m_stderrServer)
        return;
    m_stderrPending << line;
    // Trim in chunks so a flood stays amortized O(1) per line and bounded in memory.
    if (m_stderrPending.size() > 2 * StderrViewLines)
        m_stderrPending.erase(m_stderrPending.begin(), m_stderrPending.end() - StderrViewLines);
    if (!m_stderrFlush.isActive())
        m_stderrFlush.start();
}

void ServerDock::flushStderr()
{
    m_stderrFlush.stop();
    if (m_stderrPending.isEmpty() || !m_stderrView)
        return;
    if (m_stderrPending.size() > StderrViewLines)
        m_stderrPending.erase(m_stderrPending.begin(), m_stderrPending.end() - StderrViewLines);
    QScrollBar *bar = m_stderrView->verticalScrollBar();
    // Follow the output only if the user has not scrolled up to read something.
    const bool atBottom = bar->value() == bar->maximum();
    m_stderrView->appendPlainText(m_stderrPending.join(QLatin1Char('\n')));
    m_stderrPending.clear();
    if (atBottom)
        bar->setValue(bar->maximum());
}

} // namespace Gui
