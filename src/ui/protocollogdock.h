#pragma once

#include "protocollogmodel.h"

#include <mcp/config/redaction.h>

#include <QDockWidget>
#include <QPointer>
#include <QTimer>

#include <deque>

class QAction;
class QComboBox;
class QLineEdit;
class QPlainTextEdit;
class QSortFilterProxyModel;
class QTableView;
class QToolButton;

namespace Mcp {
class Manager;
enum class TrafficDirection;
} // namespace Mcp

namespace Gui {

// The protocol log: every JSON-RPC message each server sends and receives, its stderr lines
// and state changes, with secrets redacted before anything is stored or shown. A table
// (time, server, direction, method or "result #id", size, content) filtered by server,
// direction and text, a detail pane with the selected message pretty-printed, copy, clear
// and pause. It observes the Manager only while it is open and not paused, so a window that
// never opens it pays nothing; captured messages are redacted and added in batches on a
// timer, so a flood costs one view update per tick. The Manager is owned elsewhere.
class ProtocolLogDock : public QDockWidget
{
    Q_OBJECT
public:
    // How often captured traffic reaches the table: 75 ms reads as live, and batches a flood.
    static constexpr int FlushIntervalMs = 75;

    explicit ProtocolLogDock(Mcp::Manager *manager, QWidget *parent = nullptr);
    ~ProtocolLogDock() override;

    void setManager(Mcp::Manager *manager);

    // Opens the dock showing only `server`'s traffic.
    void showServer(const QString &server);
    void setServerFilter(const QString &server); // empty: all servers
    QString serverFilter() const;
    void setTextFilter(const QString &text);

    // True while the Manager's traffic is being recorded (open and not paused).
    bool isRecording() const { return m_recording; }
    void setPaused(bool paused);

    ProtocolLogModel *model() const { return m_model; }
    QSortFilterProxyModel *filterModel() const;
    QTableView *view() const { return m_view; }

    // The selected (or every visible) entry as copyable text, one line each, redacted.
    QString selectedText() const;
    QString visibleText() const;
    void copySelection() const;
    void copyVisible() const;
    void clear();
    // A message between an MCP Apps view and the window (AppBridge's log), under the view's
    // server, marked as the view's; kept only while recording, like the server's traffic.
    void recordView(const QString &server, bool fromView, const QString &text);
    // Adds what was captured since the last tick now (also runs on the timer).
    void flush();

protected:
    void changeEvent(QEvent *event) override;

private:
    struct Captured
    {
        qint64 time = 0;
        QString server;
        ProtocolLogEntry::Kind kind = ProtocolLogEntry::Kind::Event;
        QByteArray raw; // not yet redacted: never leaves this object unredacted
        qint64 fullSize = 0;
        QString summary; // events only
        bool isError = false;
    };

    void retranslateUi();
    void updateRecording();
    void capture(Captured captured);
    // A line of text (stderr, a warning, an HTTP note) as one entry.
    void captureText(const QString &server, ProtocolLogEntry::Kind kind, const QString &summary,
                     const QString &text);
    void onTraffic(const QString &server, Mcp::TrafficDirection direction, QByteArrayView text,
                   qint64 fullSize);
    void onStatusChanged(const QString &server);
    void refreshServers();
    void refreshSecrets(const QString &server);
    void showDetail();
    QString textOf(const QList<int> &sourceRows) const;

    QPointer<Mcp::Manager> m_manager;
    ProtocolLogModel *m_model = nullptr;
    QSortFilterProxyModel *m_filter = nullptr;
    QTableView *m_view = nullptr;
    QPlainTextEdit *m_detail = nullptr;
    QComboBox *m_serverCombo = nullptr;
    QComboBox *m_directionCombo = nullptr;
    QLineEdit *m_textEdit = nullptr;
    QToolButton *m_pauseButton = nullptr;
    QToolButton *m_clearButton = nullptr;
    QAction *m_copyAction = nullptr;
    QAction *m_copyVisibleAction = nullptr;
    QAction *m_clearAction = nullptr;
    QTimer m_flushTimer;
    QTimer m_textFilterTimer;

    bool m_recording = false;
    bool m_paused = false;
    QList<QMetaObject::Connection> m_recordingConnections;
    std::deque<Captured> m_pending;
    qint64 m_pendingBytes = 0;
    QHash<QString, QString> m_lastState; // per server, so repeated status signals log once

    // Every secret known from any server's configuration, kept for the dock's life (a removed
    // server's messages may still be pending), applied to every server's text: a token for one
    // server passed to another's tool is hidden too.
    QStringList m_secrets;
    Mcp::Redactor m_redactor;
};

} // namespace Gui
