#include "auditlog.h"

#include <engine/storage/privatefiles.h>

#include <QCryptographicHash>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

namespace Engine {

namespace {
std::string utf8(const QString &text)
{
    return text.toStdString();
}

QString fromJson(const Json &record, const char *key)
{
    const auto it = record.find(key);
    return it != record.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                                 : QString();
}

// The last `maxBytes` of a file, starting at a line boundary.
QByteArray tail(const QString &path, qint64 maxBytes, QString *error)
{
    QFile file(path);
    if (!file.exists() || maxBytes <= 0)
        return {};
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = file.errorString();
        return {};
    }
    const qint64 start = std::max<qint64>(0, file.size() - maxBytes);
    file.seek(start);
    QByteArray data = file.read(maxBytes);
    if (start > 0) { // the first line was cut: drop it
        const qsizetype newline = data.indexOf('\n');
        data = newline < 0 ? QByteArray() : data.mid(newline + 1);
    }
    return data;
}

void parseLines(const QByteArray &data, std::vector<Json> &out)
{
    for (const QByteArray &line : data.split('\n')) {
        if (line.trimmed().isEmpty())
            continue;
        Json record = Json::parse(line.begin(), line.end(), nullptr, false);
        if (record.is_object())
            out.push_back(std::move(record));
    }
}
} // namespace

AuditLog::AuditLog(QString path, QObject *parent)
    : QObject(parent)
    , m_path(std::move(path))
{
}

QString AuditLog::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)
           + QLatin1String("/audit.jsonl");
}

void AuditLog::attach(ToolRunner *runner)
{
    connect(runner, &ToolRunner::decisionMade, this, &AuditLog::recordDecision);
    connect(runner, &ToolRunner::runStarted, this, &AuditLog::recordStart);
    connect(runner, &ToolRunner::runFinished, this, &AuditLog::recordFinish);
}

QString AuditLog::argumentsHash(const Json &arguments)
{
    // nlohmann's objects keep their members sorted, so dump() is canonical.
    const std::string text = arguments.dump(-1, ' ', false, Json::error_handler_t::replace);
    return QString::fromLatin1(
            QCryptographicHash::hash(QByteArrayView(text.data(), qsizetype(text.size())),
                                     QCryptographicHash::Sha256)
                    .toHex());
}

QString AuditLog::outcomeName(const ToolRunResult &result)
{
    if (result.denied)
        return QStringLiteral("denied");
    if (result.timedOut)
        return QStringLiteral("timeout");
    if (result.cancelled)
        return QStringLiteral("cancelled");
    return result.output.isError ? QStringLiteral("error") : QStringLiteral("ok");
}

QString AuditLog::choiceName(ApprovalChoice choice)
{
    switch (choice) {
    case ApprovalChoice::AllowOnce:
        return QStringLiteral("allow-once");
    case ApprovalChoice::AllowForConversation:
        return QStringLiteral("allow-conversation");
    case ApprovalChoice::AlwaysAllow:
        return QStringLiteral("always-allow");
    case ApprovalChoice::Deny:
        break;
    }
    return QStringLiteral("deny");
}

Json AuditLog::baseRecord(const char *event, const ToolRunEvent &call) const
{
    Json record{{"time", utf8(QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs))},
                {"event", event},
                {"workspace", utf8(m_workspace)},
                {"conversation", utf8(call.conversationId)},
                {"run", call.runId},
                {"tool", utf8(call.toolName)},
                {"source", utf8(call.source)},
                {"originalTool", utf8(call.originalName)},
                {"risk", utf8(riskName(call.risk))},
                {"argumentsSha256", utf8(argumentsHash(call.arguments))}};
    // A call a server's interactive view asked for (MCP Apps), or the person ran by hand; not
    // the model.
    if (call.origin == CallOrigin::App)
        record["origin"] = "app";
    else if (call.origin == CallOrigin::User)
        record["origin"] = "user";
    return record;
}

void AuditLog::recordDecision(const ToolRunEvent &call, const ApprovalDecision &decision,
                              bool automatic, const QString &why)
{
    Json record = baseRecord("decision", call);
    record["decision"] = utf8(choiceName(decision.choice));
    // The scope of a grant (a command prefix, a conversation) comes with ApprovalDecision's
    // scope, added on another branch; null until then.
    record["scope"] = nullptr;
    record["automatic"] = automatic;
    record["why"] = utf8(why);
    record["reason"] = utf8(decision.reason);
    append(record);
}

void AuditLog::recordStart(const ToolRunEvent &call)
{
    append(baseRecord("start", call));
}

void AuditLog::recordFinish(const ToolRunEvent &call, const ToolRunResult &result)
{
    Json record = baseRecord("end", call);
    record["outcome"] = utf8(outcomeName(result));
    record["durationMs"] = call.durationMs;
    record["ran"] = result.ran;
    append(record);
}

void AuditLog::recordDirectCall(const QString &server, const QString &tool, const Json &arguments,
                                const QString &outcome, qint64 durationMs)
{
    ToolRunEvent call;
    call.toolName = tool;
    call.source = server;
    call.originalName = tool;
    call.arguments = arguments;
    Json record = baseRecord("end", call);
    record.erase("risk"); // a direct call bypasses the policy: no risk was applied
    record["direct"] = true;
    record["outcome"] = utf8(outcome);
    record["durationMs"] = durationMs;
    record["ran"] = true;
    append(record);
}

void AuditLog::append(const Json &record)
{
    const std::string text = record.dump(-1, ' ', false, Json::error_handler_t::replace);
    QByteArray line = m_redactor.redact(QByteArrayView(text.data(), qsizetype(text.size())));
    line += '\n';
    QString error;
    const QFileInfo info(m_path);
    if (info.exists() && info.size() > 0 && info.size() + line.size() > m_maxBytes) {
        const QString rotated = m_path + QLatin1String(".1");
        QFile::remove(rotated);
        if (!QFile::rename(m_path, rotated))
            error = tr("Cannot rotate the audit log %1.").arg(m_path);
    }
    if (error.isEmpty() && PrivateFiles::append(m_path, line, &error)) {
        m_lastError.clear();
        return;
    }
    if (error != m_lastError) { // a full disk would otherwise repeat it for every record
        m_lastError = error;
        emit errorOccurred(error);
    }
}

std::vector<Json> AuditLog::readRecords(const QString &path, qint64 maxBytes, QString *error)
{
    std::vector<Json> records;
    const QByteArray current = tail(path, maxBytes, error);
    const qint64 left = maxBytes - QFileInfo(path).size();
    if (left > 0)
        parseLines(tail(path + QLatin1String(".1"), left, error), records);
    parseLines(current, records);
    return records;
}

QString AuditLog::resultText(const Json &record)
{
    QString result = fromJson(record, "decision");
    if (result.isEmpty())
        result = fromJson(record, "outcome");
    const QString why = fromJson(record, "why");
    if (!why.isEmpty())
        result += QStringLiteral(" (%1)").arg(why);
    const QString reason = fromJson(record, "reason");
    if (!reason.isEmpty())
        result += QStringLiteral(": ") + reason;
    return result;
}

QString AuditLog::describe(const Json &record)
{
    QString line = QStringLiteral("%1 %2 %3")
                           .arg(fromJson(record, "time"), fromJson(record, "event"),
                                fromJson(record, "tool"));
    QStringList where{fromJson(record, "source"), fromJson(record, "risk")};
    where.removeAll(QString());
    if (!where.isEmpty())
        line += QStringLiteral(" (%1)").arg(where.join(QStringLiteral(", ")));
    const QString result = resultText(record);
    if (!result.isEmpty())
        line += QLatin1Char(' ') + result;
    const auto duration = record.find("durationMs");
    if (fromJson(record, "event") == QLatin1String("end") && duration != record.end()
        && duration->is_number())
        line += QStringLiteral(" %1 ms").arg(duration->get<qint64>());
    return line;
}

} // namespace Engine
