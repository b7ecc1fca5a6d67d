#include "protocollogdock.h"

#include "serverdock.h"

#include <mcp/manager.h>
#include <mcp/wire/jsonparser.h>

#include <QAction>
#include <QClipboard>
#include <QComboBox>
#include <QDateTime>
#include <QEvent>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSet>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace Gui {

namespace {

// Typing in the text filter re-filters after this pause, not on every key: matching 10,000
// entries of up to 64 KiB each is worth doing once per word, not once per letter.
constexpr int TextFilterDelayMs = 150;

// Rows by server, kind and text. The text matches the summary and the (redacted) message,
// case-insensitively; an ASCII needle is searched in the UTF-8 bytes directly, without
// converting each message.
class LogFilter : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    void setServer(const QString &server)
    {
        if (server == m_server)
            return;
        m_server = server;
        invalidateFilter();
    }
    void setKind(int kind) // -1: every kind
    {
        if (kind == m_kind)
            return;
        m_kind = kind;
        invalidateFilter();
    }
    void setText(const QString &text)
    {
        if (text == m_text)
            return;
        m_text = text;
        m_utf8 = text.toUtf8();
        m_ascii = std::all_of(m_utf8.cbegin(), m_utf8.cend(),
                              [](char c) { return static_cast<unsigned char>(c) < 0x80; });
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex &) const override
    {
        const auto *model = static_cast<const ProtocolLogModel *>(sourceModel());
        const ProtocolLogEntry &e = model->entry(row);
        if (!m_server.isEmpty() && e.server != m_server)
            return false;
        if (m_kind >= 0 && int(e.kind) != m_kind)
            return false;
        if (m_text.isEmpty() || e.summary.contains(m_text, Qt::CaseInsensitive))
            return true;
        if (m_ascii)
            return QLatin1String(e.text).contains(QLatin1String(m_utf8), Qt::CaseInsensitive);
        return QString::fromUtf8(e.text).contains(m_text, Qt::CaseInsensitive);
    }

private:
    QString m_server;
    int m_kind = -1;
    QString m_text;
    QByteArray m_utf8;
    bool m_ascii = true;
};

} // namespace

ProtocolLogDock::ProtocolLogDock(Mcp::Manager *manager, QWidget *parent)
    : QDockWidget(parent)
{
    setObjectName(QStringLiteral("protocolLogDock"));
    m_model = new ProtocolLogModel(this);
    m_filter = new LogFilter(this);
    m_filter->setSourceModel(m_model);

    auto *content = new QWidget(this);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);

    auto *bar = new QHBoxLayout;
    m_serverCombo = new QComboBox(content);
    m_serverCombo->setObjectName(QStringLiteral("protocolLogServerFilter"));
    m_serverCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_directionCombo = new QComboBox(content);
    m_directionCombo->setObjectName(QStringLiteral("protocolLogDirectionFilter"));
    m_textEdit = new QLineEdit(content);
    m_textEdit->setObjectName(QStringLiteral("protocolLogTextFilter"));
    m_textEdit->setClearButtonEnabled(true);
    m_pauseButton = new QToolButton(content);
    m_pauseButton->setObjectName(QStringLiteral("protocolLogPause"));
    m_pauseButton->setCheckable(true);
    m_clearButton = new QToolButton(content);
    m_clearButton->setObjectName(QStringLiteral("protocolLogClear"));
    bar->addWidget(m_serverCombo);
    bar->addWidget(m_directionCombo);
    bar->addWidget(m_textEdit, 1);
    bar->addWidget(m_pauseButton);
    bar->addWidget(m_clearButton);
    layout->addLayout(bar);

    auto *splitter = new QSplitter(Qt::Horizontal, content);
    m_view = new QTableView(splitter);
    m_view->setObjectName(QStringLiteral("protocolLogView"));
    m_view->setModel(m_filter);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setWordWrap(false);
    m_view->setShowGrid(false);
    m_view->setAlternatingRowColors(true);
    m_view->setTextElideMode(Qt::ElideRight);
    m_view->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_view->verticalHeader()->hide();
    // Fixed row heights: the view never measures 10,000 rows' contents.
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    QHeaderView *header = m_view->horizontalHeader();
    header->setStretchLastSection(true);
    header->setSectionResizeMode(QHeaderView::Interactive);
    const QFontMetrics fm = fontMetrics();
    header->resizeSection(ProtocolLogModel::TimeColumn,
                          fm.horizontalAdvance(QStringLiteral("00:00:00.000")) + 16);
    header->resizeSection(ProtocolLogModel::ServerColumn,
                          fm.horizontalAdvance(QLatin1Char('x')) * 14);
    header->resizeSection(ProtocolLogModel::DirectionColumn,
                          fm.horizontalAdvance(QLatin1Char('x')) * 12);
    header->resizeSection(ProtocolLogModel::MessageColumn,
                          fm.horizontalAdvance(QLatin1Char('x')) * 26);
    header->resizeSection(ProtocolLogModel::SizeColumn,
                          fm.horizontalAdvance(QLatin1Char('x')) * 12);
    m_detail = new QPlainTextEdit(splitter);
    m_detail->setObjectName(QStringLiteral("protocolLogDetail"));
    m_detail->setReadOnly(true);
    m_detail->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_detail->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    splitter->addWidget(m_view);
    splitter->addWidget(m_detail);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    layout->addWidget(splitter, 1);
    setWidget(content);

    m_copyAction = new QAction(this);
    m_copyAction->setShortcut(QKeySequence::Copy);
    m_copyAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_copyVisibleAction = new QAction(this);
    m_clearAction = new QAction(this);
    auto *separator = new QAction(this);
    separator->setSeparator(true);
    m_view->addActions({m_copyAction, m_copyVisibleAction, separator, m_clearAction});
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(m_copyAction, &QAction::triggered, this, &ProtocolLogDock::copySelection);
    connect(m_copyVisibleAction, &QAction::triggered, this, &ProtocolLogDock::copyVisible);
    connect(m_clearAction, &QAction::triggered, this, &ProtocolLogDock::clear);
    connect(m_clearButton, &QToolButton::clicked, this, &ProtocolLogDock::clear);
    connect(m_pauseButton, &QToolButton::toggled, this, &ProtocolLogDock::setPaused);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &ProtocolLogDock::showDetail);

    connect(m_serverCombo, &QComboBox::currentIndexChanged, this, [this] {
        static_cast<LogFilter *>(m_filter)->setServer(m_serverCombo->currentData().toString());
    });
    connect(m_directionCombo, &QComboBox::currentIndexChanged, this, [this] {
        static_cast<LogFilter *>(m_filter)->setKind(m_directionCombo->currentData().toInt());
    });
    m_textFilterTimer.setSingleShot(true);
    m_textFilterTimer.setInterval(TextFilterDelayMs);
    connect(m_textEdit, &QLineEdit::textChanged, &m_textFilterTimer, qOverload<>(&QTimer::start));
    connect(&m_textFilterTimer, &QTimer::timeout, this,
            [this] { static_cast<LogFilter *>(m_filter)->setText(m_textEdit->text()); });

    m_flushTimer.setSingleShot(true);
    m_flushTimer.setInterval(FlushIntervalMs);
    connect(&m_flushTimer, &QTimer::timeout, this, &ProtocolLogDock::flush);
    // Open (shown, or tabbed behind another dock) records; closed does not.
    connect(toggleViewAction(), &QAction::toggled, this, &ProtocolLogDock::updateRecording);

    retranslateUi();
    setManager(manager);
}

ProtocolLogDock::~ProtocolLogDock()
{
    // The Manager may outlive the dock: it must not call into a dead object.
    if (m_recording && m_manager)
        m_manager->setTrafficObserver({});
}

void ProtocolLogDock::setManager(Mcp::Manager *manager)
{
    if (m_manager == manager)
        return;
    if (m_manager) {
        if (m_recording)
            m_manager->setTrafficObserver({});
        disconnect(m_manager, nullptr, this, nullptr);
    }
    m_recording = false;
    m_recordingConnections.clear();
    m_manager = manager;
    if (m_manager) {
        connect(m_manager, &Mcp::Manager::serverStatusChanged, this,
                &ProtocolLogDock::onStatusChanged);
        connect(m_manager, &QObject::destroyed, this, [this] {
            m_recording = false;
            m_recordingConnections.clear();
        });
        for (const QString &name : m_manager->serverNames())
            refreshSecrets(name);
    }
    refreshServers();
    updateRecording();
}

QSortFilterProxyModel *ProtocolLogDock::filterModel() const
{
    return m_filter;
}

void ProtocolLogDock::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDockWidget::changeEvent(event);
}

void ProtocolLogDock::retranslateUi()
{
    setWindowTitle(tr("Protocol log"));
    m_textEdit->setPlaceholderText(tr("Filter messages"));
    // An empty log is not a broken one: nothing is recorded while it is closed.
    m_detail->setPlaceholderText(tr("Traffic is recorded from the moment this log is opened: "
                                    "new messages appear on the left; select one to read it "
                                    "whole here."));
    m_pauseButton->setText(tr("Pause"));
    m_pauseButton->setToolTip(tr("Stop recording new traffic; what is shown stays"));
    m_clearButton->setText(tr("Clear"));
    m_clearButton->setToolTip(tr("Remove every entry from the log"));
    m_copyAction->setText(tr("Copy"));
    m_copyVisibleAction->setText(tr("Copy all visible"));
    m_clearAction->setText(tr("Clear"));

    const QSignalBlocker blocker(m_directionCombo);
    const int kind = m_directionCombo->count() ? m_directionCombo->currentData().toInt() : -1;
    m_directionCombo->clear();
    m_directionCombo->addItem(tr("All directions"), -1);
    for (auto k : {ProtocolLogEntry::Kind::Sent, ProtocolLogEntry::Kind::Received,
                   ProtocolLogEntry::Kind::Stderr, ProtocolLogEntry::Kind::Event})
        m_directionCombo->addItem(ProtocolLogModel::kindText(k), int(k));
    m_directionCombo->setCurrentIndex(std::max(0, m_directionCombo->findData(kind)));
    refreshServers();
}

void ProtocolLogDock::refreshServers()
{
    const QString current = serverFilter();
    QStringList names;
    for (int i = 1; i < m_serverCombo->count(); ++i)
        names << m_serverCombo->itemData(i).toString();
    if (m_manager)
        names << m_manager->serverNames();
    // Servers that went away stay listed: their entries are still in the log.
    names.removeDuplicates();
    names.sort();
    const QSignalBlocker blocker(m_serverCombo);
    m_serverCombo->clear();
    m_serverCombo->addItem(tr("All servers"), QString());
    for (const QString &name : std::as_const(names))
        m_serverCombo->addItem(name, name);
    m_serverCombo->setCurrentIndex(std::max(0, m_serverCombo->findData(current)));
}

void ProtocolLogDock::setServerFilter(const QString &server)
{
    if (!server.isEmpty() && m_serverCombo->findData(server) < 0) {
        m_serverCombo->addItem(server, server);
    }
    m_serverCombo->setCurrentIndex(std::max(0, m_serverCombo->findData(server)));
}

QString ProtocolLogDock::serverFilter() const
{
    return m_serverCombo->currentData().toString();
}

void ProtocolLogDock::setTextFilter(const QString &text)
{
    m_textEdit->setText(text);
    m_textFilterTimer.stop();
    static_cast<LogFilter *>(m_filter)->setText(text);
}

void ProtocolLogDock::showServer(const QString &server)
{
    setServerFilter(server);
    show();
    raise();
}

void ProtocolLogDock::setPaused(bool paused)
{
    m_paused = paused;
    if (m_pauseButton->isChecked() != paused)
        m_pauseButton->setChecked(paused);
    updateRecording();
}

void ProtocolLogDock::updateRecording()
{
    const bool wanted = m_manager && toggleViewAction()->isChecked() && !m_paused;
    if (wanted == m_recording)
        return;
    m_recording = wanted;
    if (!wanted) {
        if (m_manager)
            m_manager->setTrafficObserver({});
        for (const QMetaObject::Connection &c : std::as_const(m_recordingConnections))
            disconnect(c);
        m_recordingConnections.clear();
        return;
    }
    m_manager->setTrafficObserver(
            [this](const QString &server, Mcp::TrafficDirection direction, QByteArrayView text,
                   qint64 fullSize) { onTraffic(server, direction, text, fullSize); });
    m_recordingConnections
            << connect(m_manager, &Mcp::Manager::serverStderr, this,
                       [this](const QString &server, const QString &line) {
                           captureText(server, ProtocolLogEntry::Kind::Stderr, QString(), line);
                       })
            << connect(m_manager, &Mcp::Manager::serverTransportNote, this,
                       [this](const QString &server, const QString &text) {
                           captureText(server, ProtocolLogEntry::Kind::Event, tr("http"), text);
                       })
            << connect(m_manager, &Mcp::Manager::serverWarning, this,
                       [this](const QString &server, const QString &text) {
                           captureText(server, ProtocolLogEntry::Kind::Event, tr("warning"), text);
                       });
    // From now on, state changes are logged as they happen.
    m_lastState.clear();
    for (const QString &name : m_manager->serverNames())
        m_lastState.insert(name, Mcp::serverStateName(m_manager->status(name).state));
}

void ProtocolLogDock::onTraffic(const QString &server, Mcp::TrafficDirection direction,
                                QByteArrayView text, qint64 fullSize)
{
    Captured c;
    c.time = QDateTime::currentMSecsSinceEpoch();
    c.server = server;
    c.kind = direction == Mcp::TrafficDirection::Sent ? ProtocolLogEntry::Kind::Sent
                                                      : ProtocolLogEntry::Kind::Received;
    c.raw = text.toByteArray();
    c.fullSize = fullSize;
    capture(std::move(c));
}

void ProtocolLogDock::recordView(const QString &server, bool fromView, const QString &text)
{
    if (m_recording)
        captureText(server, ProtocolLogEntry::Kind::Event,
                    fromView ? tr("view → host") : tr("host → view"), text);
}

void ProtocolLogDock::captureText(const QString &server, ProtocolLogEntry::Kind kind,
                                  const QString &summary, const QString &text)
{
    Captured c;
    c.time = QDateTime::currentMSecsSinceEpoch();
    c.server = server;
    c.kind = kind;
    c.summary = summary;
    c.raw = text.toUtf8();
    c.fullSize = c.raw.size();
    capture(std::move(c));
}

void ProtocolLogDock::capture(Captured captured)
{
    m_pendingBytes += captured.raw.size();
    m_pending.push_back(std::move(captured));
    // A flood between two ticks keeps only what the log could show anyway.
    while (m_pending.size() > std::size_t(m_model->capacity())
           || m_pendingBytes > ProtocolLogModel::DefaultByteBudget) {
        m_pendingBytes -= m_pending.front().raw.size();
        m_pending.pop_front();
    }
    if (!m_flushTimer.isActive())
        m_flushTimer.start();
}

void ProtocolLogDock::onStatusChanged(const QString &server)
{
    if (!m_manager)
        return;
    refreshSecrets(server);
    const Mcp::ServerConfig *config = m_manager->serverConfig(server);
    if (config && m_serverCombo->findData(server) < 0)
        refreshServers();
    if (!m_recording)
        return;
    const Mcp::ServerStatus status = m_manager->status(server);
    const QString state = config ? Mcp::serverStateName(status.state) : QStringLiteral("removed");
    if (m_lastState.value(server) == state)
        return;
    m_lastState.insert(server, state);
    Captured c;
    c.time = QDateTime::currentMSecsSinceEpoch();
    c.server = server;
    c.kind = ProtocolLogEntry::Kind::Event;
    if (!config) {
        c.summary = tr("removed", "server event");
    } else {
        c.summary = ServerDock::stateText(status.state);
        c.isError = status.state == Mcp::ServerState::Failed;
        c.raw = status.state == Mcp::ServerState::Connected
                        ? tr("%n tools", nullptr, status.toolCount).toUtf8()
                        : status.reason.toUtf8();
    }
    c.fullSize = c.raw.size();
    capture(std::move(c));
}

void ProtocolLogDock::refreshSecrets(const QString &server)
{
    const Mcp::ServerConfig *config = m_manager ? m_manager->serverConfig(server) : nullptr;
    if (!config)
        return;
    bool added = false;
    for (const QString &secret : Mcp::Redactor::secretValues(*config)) {
        if (!m_secrets.contains(secret)) {
            m_secrets << secret;
            added = true;
        }
    }
    if (added)
        m_redactor = Mcp::Redactor(m_secrets);
}

void ProtocolLogDock::flush()
{
    m_flushTimer.stop();
    if (m_pending.empty())
        return;
    std::deque<Captured> batch;
    batch.swap(m_pending);
    m_pendingBytes = 0;
    QSet<QString> servers;
    for (const Captured &c : batch)
        servers.insert(c.server);
    for (const QString &server : std::as_const(servers))
        refreshSecrets(server);

    std::vector<ProtocolLogEntry> entries;
    entries.reserve(batch.size());
    for (Captured &c : batch) {
        ProtocolLogEntry e;
        e.time = c.time;
        e.server = c.server;
        e.kind = c.kind;
        e.fullSize = c.fullSize;
        e.truncated = c.raw.size() < c.fullSize;
        e.text = m_redactor.redact(c.raw, e.truncated);
        c.raw.clear();
        e.summary = m_redactor.redactText(c.summary);
        e.isError = c.isError;
        ProtocolLogModel::describe(e);
        entries.push_back(std::move(e));
    }
    QScrollBar *scroll = m_view->verticalScrollBar();
    // Follow new entries only if the user has not scrolled up to read something.
    const bool atBottom = scroll->value() >= scroll->maximum();
    m_model->append(std::move(entries));
    if (atBottom)
        m_view->scrollToBottom();
}

void ProtocolLogDock::clear()
{
    m_pending.clear();
    m_pendingBytes = 0;
    m_model->clear();
    m_detail->clear();
}

void ProtocolLogDock::showDetail()
{
    const QModelIndex index = m_filter->mapToSource(m_view->selectionModel()->currentIndex());
    if (!index.isValid()) {
        m_detail->clear();
        return;
    }
    const ProtocolLogEntry &e = m_model->entry(index.row());
    QString header = QStringList{ProtocolLogModel::timeText(e.time), e.server,
                                 ProtocolLogModel::kindText(e.kind), e.summary}
                             .join(QStringLiteral("  "));
    QString body;
    const bool message
            = e.kind == ProtocolLogEntry::Kind::Sent || e.kind == ProtocolLogEntry::Kind::Received;
    if (message && !e.truncated) {
        const Mcp::Json json
                = Mcp::parseJson(std::string_view(e.text.constData(), std::size_t(e.text.size())));
        if (!json.is_discarded())
            body = QString::fromStdString(
                    json.dump(2, ' ', false, Mcp::Json::error_handler_t::replace));
    }
    if (body.isEmpty())
        body = QString::fromUtf8(e.text);
    if (e.truncated) {
        header += QLatin1Char('\n')
                  + tr("Only the start of this %n-byte message was kept.", nullptr,
                       int(e.fullSize));
    }
    m_detail->setPlainText(header + QStringLiteral("\n\n") + body);
}

QString ProtocolLogDock::textOf(const QList<int> &sourceRows) const
{
    QStringList lines;
    lines.reserve(sourceRows.size());
    for (int row : sourceRows)
        lines << ProtocolLogModel::copyLine(m_model->entry(row));
    return lines.join(QLatin1Char('\n'));
}

QString ProtocolLogDock::selectedText() const
{
    QList<int> rows;
    for (const QModelIndex &index : m_view->selectionModel()->selectedRows())
        rows << m_filter->mapToSource(index).row();
    std::sort(rows.begin(), rows.end());
    return textOf(rows);
}

QString ProtocolLogDock::visibleText() const
{
    QList<int> rows;
    rows.reserve(m_filter->rowCount());
    for (int i = 0; i < m_filter->rowCount(); ++i)
        rows << m_filter->mapToSource(m_filter->index(i, 0)).row();
    return textOf(rows);
}

void ProtocolLogDock::copySelection() const
{
    const QString text = selectedText();
    if (!text.isEmpty())
        QGuiApplication::clipboard()->setText(text);
}

void ProtocolLogDock::copyVisible() const
{
    QGuiApplication::clipboard()->setText(visibleText());
}

} // namespace Gui
