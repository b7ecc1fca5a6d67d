#include "protocollogmodel.h"

#include <mcp/transport/transport.h>
#include <mcp/wire/jsonparser.h>

#include <QColor>
#include <QDateTime>
#include <QLocale>
#include <QRegularExpression>

namespace Gui {

namespace {

QString idText(const Mcp::Json &id)
{
    if (id.is_number_integer())
        return QStringLiteral("#%1").arg(id.get<qint64>());
    if (id.is_string())
        return QLatin1Char('#') + QString::fromStdString(id.get<std::string>());
    if (id.is_number())
        return QLatin1Char('#') + QString::fromStdString(id.dump());
    return QString();
}

QString stringAt(const Mcp::Json &object, const char *key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                                 : QString();
}

QString joinSummary(QString head, const QString &id)
{
    if (!id.isEmpty())
        head += QLatin1Char(' ') + id;
    return head;
}

// The head of a cut-off message: enough to find its method or id, which the common
// serializers write first.
constexpr qsizetype SummaryHeadBytes = 4096;

void describeCutOff(ProtocolLogEntry &entry)
{
    const QByteArrayView head
            = QByteArrayView(entry.text).first(std::min(entry.text.size(), SummaryHeadBytes));
    const std::string_view headView(head.data(), std::size_t(head.size()));
    const QString id = idText(Mcp::guessMessageId(headView, std::string_view()));
    static const QRegularExpression method(QStringLiteral("\"method\"\\s*:\\s*\"([^\"]{1,100})\""));
    const QString headText = QString::fromUtf8(head);
    const QRegularExpressionMatch match = method.match(headText);
    if (match.hasMatch()) {
        entry.summary = joinSummary(match.captured(1), id);
        return;
    }
    static const QRegularExpression result(QStringLiteral("\"result\"\\s*:"));
    static const QRegularExpression error(QStringLiteral("\"error\"\\s*:"));
    const qsizetype resultAt = headText.indexOf(result);
    const qsizetype errorAt = headText.indexOf(error);
    if (errorAt >= 0 && (resultAt < 0 || errorAt < resultAt)) {
        entry.isError = true;
        entry.summary = ProtocolLogModel::tr("error %1").arg(id).trimmed();
    } else if (resultAt >= 0) {
        entry.summary = ProtocolLogModel::tr("result %1").arg(id).trimmed();
    }
}

} // namespace

ProtocolLogModel::ProtocolLogModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void ProtocolLogModel::setCapacity(int entries, qint64 bytes)
{
    m_capacity = std::max(1, entries);
    m_byteBudget = std::max<qint64>(1, bytes);
    evict(0, 0);
}

void ProtocolLogModel::evict(std::size_t incoming, qint64 incomingBytes)
{
    std::size_t remove = 0;
    qint64 bytes = m_bytes;
    while (remove < m_entries.size()
           && (m_entries.size() - remove + incoming > std::size_t(m_capacity)
               || bytes + incomingBytes > m_byteBudget)) {
        bytes -= m_entries[remove].text.size();
        ++remove;
    }
    if (remove == 0)
        return;
    beginRemoveRows(QModelIndex(), 0, int(remove) - 1);
    m_entries.erase(m_entries.begin(), m_entries.begin() + std::ptrdiff_t(remove));
    m_bytes = bytes;
    endRemoveRows();
}

void ProtocolLogModel::append(std::vector<ProtocolLogEntry> entries)
{
    // A batch larger than the whole log keeps only its newest part.
    qint64 incomingBytes = 0;
    for (const ProtocolLogEntry &e : entries)
        incomingBytes += e.text.size();
    std::size_t skip = 0;
    while (skip < entries.size()
           && (entries.size() - skip > std::size_t(m_capacity) || incomingBytes > m_byteBudget)) {
        incomingBytes -= entries[skip].text.size();
        ++skip;
    }
    if (skip == entries.size())
        return;
    evict(entries.size() - skip, incomingBytes);
    const int first = int(m_entries.size());
    beginInsertRows(QModelIndex(), first, first + int(entries.size() - skip) - 1);
    for (std::size_t i = skip; i < entries.size(); ++i)
        m_entries.push_back(std::move(entries[i]));
    m_bytes += incomingBytes;
    endInsertRows();
}

void ProtocolLogModel::clear()
{
    beginResetModel();
    m_entries.clear();
    m_bytes = 0;
    endResetModel();
}

int ProtocolLogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int ProtocolLogModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProtocolLogModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_entries.size()))
        return QVariant();
    const ProtocolLogEntry &e = entry(index.row());
    const bool message
            = e.kind == ProtocolLogEntry::Kind::Sent || e.kind == ProtocolLogEntry::Kind::Received;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn:
            return timeText(e.time);
        case ServerColumn:
            return e.server;
        case DirectionColumn:
            return kindText(e.kind);
        case MessageColumn:
            return e.summary;
        case SizeColumn:
            if (!message)
                return QString();
            return e.truncated ? tr("%1 (truncated)")
                                         .arg(QLocale().formattedDataSize(
                                                 e.fullSize, 1, QLocale::DataSizeTraditionalFormat))
                               : QLocale().formattedDataSize(e.fullSize, 1,
                                                             QLocale::DataSizeTraditionalFormat);
        case PreviewColumn:
            return e.preview;
        }
        break;
    case Qt::ToolTipRole:
        if (index.column() == SizeColumn && message) {
            return e.truncated ? tr("%n bytes; only the start is kept", nullptr, int(e.fullSize))
                               : tr("%n bytes", nullptr, int(e.fullSize));
        }
        break;
    case Qt::TextAlignmentRole:
        if (index.column() == SizeColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        break;
    case Qt::ForegroundRole:
        if (e.isError)
            return QColor(0xc0, 0x2a, 0x22);
        if (e.kind == ProtocolLogEntry::Kind::Stderr)
            return QColor(0x80, 0x80, 0x80);
        break;
    default:
        break;
    }
    return QVariant();
}

QVariant ProtocolLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QVariant();
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case ServerColumn:
        return tr("Server");
    case DirectionColumn:
        return tr("Direction");
    case MessageColumn:
        return tr("Message");
    case SizeColumn:
        return tr("Size");
    case PreviewColumn:
        return tr("Content");
    }
    return QVariant();
}

QString ProtocolLogModel::kindText(ProtocolLogEntry::Kind kind)
{
    switch (kind) {
    case ProtocolLogEntry::Kind::Sent:
        return tr("→ sent");
    case ProtocolLogEntry::Kind::Received:
        return tr("← received");
    case ProtocolLogEntry::Kind::Stderr:
        return tr("stderr");
    case ProtocolLogEntry::Kind::Event:
        return tr("event");
    }
    return QString();
}

QString ProtocolLogModel::timeText(qint64 msecsSinceEpoch)
{
    return QDateTime::fromMSecsSinceEpoch(msecsSinceEpoch).toString(QStringLiteral("HH:mm:ss.zzz"));
}

void ProtocolLogModel::describe(ProtocolLogEntry &entry)
{
    QString preview = QString::fromUtf8(
            QByteArrayView(entry.text)
                    .first(std::min<qsizetype>(entry.text.size(), 4 * PreviewChars)));
    preview.replace(QLatin1Char('\n'), QLatin1Char(' '));
    preview.replace(QLatin1Char('\r'), QLatin1Char(' '));
    preview.replace(QLatin1Char('\t'), QLatin1Char(' '));
    entry.preview = preview.left(PreviewChars);
    if (entry.kind != ProtocolLogEntry::Kind::Sent
        && entry.kind != ProtocolLogEntry::Kind::Received)
        return;

    if (entry.truncated) {
        describeCutOff(entry);
        return;
    }
    const Mcp::Json message = Mcp::parseJson(
            std::string_view(entry.text.constData(), std::size_t(entry.text.size())));
    if (message.is_discarded()) {
        entry.summary = tr("(not JSON)");
        return;
    }
    if (!message.is_object()) {
        entry.summary = tr("(not JSON-RPC)");
        return;
    }
    const auto id = message.find("id");
    const QString idString = id != message.end() ? idText(*id) : QString();
    const QString method = stringAt(message, "method");
    if (!method.isEmpty()) {
        QString head = method;
        // Which tool, prompt or resource: the first thing one looks for in a log.
        const auto params = message.find("params");
        if (params != message.end() && params->is_object()) {
            QString target = stringAt(*params, "name");
            if (target.isEmpty())
                target = stringAt(*params, "uri");
            if (!target.isEmpty())
                head += QStringLiteral(" · ") + target;
        }
        entry.summary = joinSummary(head, idString);
        return;
    }
    if (message.contains("error")) {
        entry.isError = true;
        entry.summary = tr("error %1").arg(idString).trimmed();
        return;
    }
    const auto result = message.find("result");
    if (result != message.end()) {
        const auto isError = result->is_object() ? result->find("isError") : result->end();
        entry.isError = isError != result->end() && isError->is_boolean() && isError->get<bool>();
        entry.summary = tr("result %1").arg(idString).trimmed();
        return;
    }
    entry.summary = tr("(not JSON-RPC)");
}

QString ProtocolLogModel::copyLine(const ProtocolLogEntry &entry)
{
    QString text = QString::fromUtf8(entry.text);
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    if (entry.kind == ProtocolLogEntry::Kind::Event && !entry.summary.isEmpty())
        text = text.isEmpty() ? entry.summary : entry.summary + QStringLiteral(": ") + text;
    if (entry.truncated)
        text += QLatin1Char(' ') + tr("[truncated: %n bytes in all]", nullptr, int(entry.fullSize));
    return QStringList{timeText(entry.time), entry.server, kindText(entry.kind), text}.join(
            QLatin1Char('\t'));
}

} // namespace Gui
