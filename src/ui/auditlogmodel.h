#pragma once

#include <engine/tools/tool.h>

#include <QAbstractTableModel>

#include <vector>

namespace Gui {

// The audit log's records as a table, newest first: one row per decision, start or end of a
// tool run. Holds a copy of what AuditLog::readRecords() returned; owned by the
// AuditLogDialog.
class AuditLogModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Time, Event, Tool, Source, Risk, Result, Duration, Conversation, ColumnCount };
    // Column 0's text to filter on: tool, source and decision (or outcome).
    static constexpr int FilterRole = Qt::UserRole + 1;

    explicit AuditLogModel(QObject *parent = nullptr);

    // `records` oldest first, as in the file.
    void setRecords(std::vector<Engine::Json> records);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QString text(const Engine::Json &record, int column) const;

    std::vector<Engine::Json> m_records; // newest first
};

} // namespace Gui
