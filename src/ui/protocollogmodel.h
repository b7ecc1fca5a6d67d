#pragma once

#include <QAbstractTableModel>
#include <QByteArray>
#include <QString>

#include <deque>
#include <vector>

namespace Gui {

// One line of the protocol log. Its text is already redacted: nothing unredacted is ever
// stored in the model.
struct ProtocolLogEntry
{
    enum class Kind { Sent, Received, Stderr, Event };

    qint64 time = 0; // ms since the epoch, when it was captured
    QString server;
    Kind kind = Kind::Event;
    QByteArray text;        // UTF-8, redacted, at most the Manager's record size
    qint64 fullSize = 0;    // bytes of the whole message
    QString summary;        // e.g. tools/call · echo #3, result #3, error #3, connected
    QString preview;        // the start of the text on one line
    bool truncated = false; // only the start of the message was kept
    bool isError = false;   // a JSON-RPC error reply, a failed tool call, a failure event
};

// The protocol log's rows: a ring buffer bounded by entry count and by bytes, so a flood or a
// long session cannot grow memory. Entries arrive in batches (one insertion per batch, the
// oldest rows evicted in one removal) so thousands of messages a second do not stall the
// view. Owned by the ProtocolLogDock.
class ProtocolLogModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        TimeColumn,
        ServerColumn,
        DirectionColumn,
        MessageColumn,
        SizeColumn,
        PreviewColumn,
        ColumnCount
    };
    // 10,000 entries: an hour of a busy agent's traffic; 32 MiB: what the log may hold in all
    // (500 full 64 KiB records), whichever is reached first.
    static constexpr int DefaultCapacity = 10000;
    static constexpr qint64 DefaultByteBudget = 32 * 1024 * 1024;
    // Characters of the one-line preview.
    static constexpr int PreviewChars = 300;

    explicit ProtocolLogModel(QObject *parent = nullptr);

    void setCapacity(int entries, qint64 bytes);
    int capacity() const { return m_capacity; }

    void append(std::vector<ProtocolLogEntry> entries);
    void clear();
    const ProtocolLogEntry &entry(int row) const { return m_entries[std::size_t(row)]; }
    int size() const { return int(m_entries.size()); }

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    static QString kindText(ProtocolLogEntry::Kind kind);
    static QString timeText(qint64 msecsSinceEpoch);
    // Fills summary, preview and isError of a Sent/Received entry from its (redacted) text.
    static void describe(ProtocolLogEntry &entry);
    // The entry as one line of copied text: time, server, direction, text.
    static QString copyLine(const ProtocolLogEntry &entry);

private:
    void evict(std::size_t incoming, qint64 incomingBytes);

    std::deque<ProtocolLogEntry> m_entries;
    qint64 m_bytes = 0;
    int m_capacity = DefaultCapacity;
    qint64 m_byteBudget = DefaultByteBudget;
};

} // namespace Gui
