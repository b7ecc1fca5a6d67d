#pragma once

#include "approval.h"
#include "toolrunner.h"

#include <mcp/config/redaction.h>

#include <QObject>
#include <QString>

#include <vector>

namespace Engine {

// The audit log: appends one JSON line per approval decision and per tool run start and end
// to `<AppDataLocation>/audit.jsonl` (0600 in a 0700 folder), so the user can see afterwards
// what ran, who allowed it and how it ended. It never stores a call's arguments, only a
// SHA-256 of their canonical form, and every line goes through a Redactor. The file is
// rotated to `audit.jsonl.1` when it would grow past maxBytes(). Owned by whoever owns the
// ToolRunner it listens to (the window, the CLI); readRecords() is for readers of the file.
class AuditLog : public QObject
{
    Q_OBJECT
public:
    // 10 MB: months of ordinary use, small enough to load the tail quickly.
    static constexpr qint64 DefaultMaxBytes = 10 * 1024 * 1024;
    // What a reader loads at most: the newest records of a big log without a long wait.
    static constexpr qint64 DefaultReadBytes = 4 * 1024 * 1024;

    explicit AuditLog(QString path = defaultPath(), QObject *parent = nullptr);

    /// QStandardPaths::AppDataLocation + "/audit.jsonl".
    static QString defaultPath();
    QString path() const { return m_path; }
    /// Rotation threshold (tests use a small one).
    void setMaxBytes(qint64 bytes) { m_maxBytes = bytes; }
    void setWorkspace(const QString &workspace) { m_workspace = workspace; }
    /// Values hidden in every record (see ToolRunner::setSecrets()).
    void setSecrets(const QStringList &values) { m_redactor = Mcp::Redactor(values); }

    /// Records every decision and run of `runner` from now on.
    void attach(ToolRunner *runner);

    void recordDecision(const ToolRunEvent &call, const ApprovalDecision &decision, bool automatic,
                        const QString &why);
    void recordStart(const ToolRunEvent &call);
    void recordFinish(const ToolRunEvent &call, const ToolRunResult &result);
    /// A call that did not go through a ToolRunner (`switchboard-cli call`).
    void recordDirectCall(const QString &server, const QString &tool, const Json &arguments,
                          const QString &outcome, qint64 durationMs);

    /// Hex SHA-256 of the arguments' canonical JSON (members sorted, no spaces).
    static QString argumentsHash(const Json &arguments);
    /// "ok" | "error" | "denied" | "timeout" | "cancelled".
    static QString outcomeName(const ToolRunResult &result);
    /// "allow-once" | "allow-conversation" | "always-allow" | "deny".
    static QString choiceName(ApprovalChoice choice);

    /// The newest records of the log at `path` (and its rotated predecessor), oldest first,
    /// reading at most `maxBytes` from the end; lines that are not JSON objects are skipped.
    /// Blocking file I/O: call it off the GUI thread for a log of unknown size.
    static std::vector<Json> readRecords(const QString &path, qint64 maxBytes = DefaultReadBytes,
                                         QString *error = nullptr);
    /// A record's decision or outcome, why it was automatic and the user's reason:
    /// "deny: not now", "allow-once (read)", "ok".
    static QString resultText(const Json &record);
    /// One readable line: "TIME EVENT TOOL (SOURCE, RISK) RESULT [DURATION]".
    static QString describe(const Json &record);

signals:
    /// A record could not be written (full disk, no permission); reported once per message.
    void errorOccurred(const QString &message);

private:
    Json baseRecord(const char *event, const ToolRunEvent &call) const;
    void append(const Json &record);

    QString m_path;
    QString m_workspace;
    qint64 m_maxBytes = DefaultMaxBytes;
    Mcp::Redactor m_redactor;
    QString m_lastError;
};

} // namespace Engine
