#include "auditlogmodel.h"

#include <engine/approval/auditlog.h>

#include <algorithm>

namespace Gui {

namespace {
QString field(const Engine::Json &record, const char *key)
{
    const auto it = record.find(key);
    if (it == record.end() || it->is_null())
        return QString();
    if (it->is_string())
        return QString::fromStdString(it->get<std::string>());
    return QString::fromStdString(it->dump());
}
} // namespace

AuditLogModel::AuditLogModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void AuditLogModel::setRecords(std::vector<Engine::Json> records)
{
    beginResetModel();
    m_records = std::move(records);
    std::reverse(m_records.begin(), m_records.end());
    endResetModel();
}

int AuditLogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_records.size());
}

int AuditLogModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString AuditLogModel::text(const Engine::Json &record, int column) const
{
    switch (column) {
    case Time:
        return field(record, "time");
    case Event:
        return field(record, "event");
    case Tool:
        return field(record, "tool");
    case Source:
        return field(record, "source");
    case Risk:
        return field(record, "risk");
    case Result:
        return Engine::AuditLog::resultText(record);
    case Duration: {
        const QString ms = field(record, "event") == QLatin1String("end")
                                   ? field(record, "durationMs")
                                   : QString();
        return ms.isEmpty() ? QString() : tr("%1 ms").arg(ms);
    }
    case Conversation:
        return field(record, "conversation");
    default:
        return QString();
    }
}

QVariant AuditLogModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_records.size()))
        return {};
    const Engine::Json &record = m_records[std::size_t(index.row())];
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole)
        return text(record, index.column());
    if (role == FilterRole)
        return QStringList{text(record, Tool), text(record, Source), text(record, Result)}.join(
                QLatin1Char(' '));
    return {};
}

QVariant AuditLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Time:
        return tr("Time (UTC)");
    case Event:
        return tr("Event");
    case Tool:
        return tr("Tool");
    case Source:
        return tr("Source");
    case Risk:
        return tr("Risk");
    case Result:
        return tr("Decision / outcome");
    case Duration:
        return tr("Duration");
    case Conversation:
        return tr("Conversation");
    default:
        return {};
    }
}

} // namespace Gui
