// ConversationStore: what list() shows, and index.json, which remembers it between runs.
#include "conversationstore.h"

#include "conversationfile.h"
#include "privatefiles.h"

#include <mcp/wire/jsonparser.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTimer>

#include <algorithm>
#include <climits>
#include <string_view>
#include <utility>

namespace Engine {

using namespace ConversationFile;

namespace {

const char kIndexName[] = "index.json";
constexpr int kIndexVersion = 1;
// Many appends in a row (a streamed turn with tool rounds) save the index once.
constexpr int kIndexSaveDelayMs = 250;

} // namespace

QString ConversationStore::indexPath() const
{
    return m_folder + u'/' + QLatin1String(kIndexName);
}

void ConversationStore::noteAppended(const QString &id, qint64 bytes, Record record,
                                     const QString &title, int messageCount)
{
    const auto it = m_listCache.find(id);
    if (it == m_listCache.end())
        return;
    const QFileInfo file(filePath(id));
    // Another writer (a second window, the CLI) may have appended too: then only a new read
    // knows what the file holds.
    if (!it->info || it->size < 0 || it->size + bytes != file.size()) {
        m_listCache.erase(it);
        indexChanged();
        return;
    }
    it->size = file.size();
    it->modified = file.lastModified();
    it->info->updated = it->modified;
    switch (record) {
    case Record::Message:
        ++it->info->messageCount;
        break;
    case Record::Title:
        it->info->title = title;
        break;
    case Record::Truncate:
        it->info->messageCount = std::min(it->info->messageCount, messageCount);
        break;
    }
    indexChanged();
}

void ConversationStore::indexChanged() const
{
    if (m_indexSaveQueued)
        return;
    m_indexSaveQueued = true;
    QTimer::singleShot(kIndexSaveDelayMs, this, [this] {
        saveQueuedIndex(); // nothing if flush() saved it already
    });
}

// Hands the index, as it is now, to the worker to write (atomically) if a save is queued.
void ConversationStore::saveQueuedIndex() const
{
    if (!std::exchange(m_indexSaveQueued, false))
        return;
    m_worker.start([path = indexPath(), bytes = indexBytes()] {
        QString error;
        if (!PrivateFiles::write(path, bytes, &error))
            qCWarning(lcConversations) << "cannot save the conversation index:" << error;
    });
}

QByteArray ConversationStore::indexBytes() const
{
    OrderedJson conversations = OrderedJson::object();
    for (auto it = m_listCache.cbegin(); it != m_listCache.cend(); ++it) {
        OrderedJson entry;
        entry["size"] = it->size;
        entry["modified"] = it->modified.toMSecsSinceEpoch();
        if (it->info) {
            entry["title"] = it->info->title.toStdString();
            entry["workspace"] = it->info->workspace.toStdString();
            if (!it->info->origin.isEmpty())
                entry["origin"] = it->info->origin.toStdString();
            entry["created"] = it->info->created.toString(Qt::ISODateWithMs).toStdString();
            entry["messages"] = it->info->messageCount;
        } else {
            entry["unreadable"] = true;
        }
        conversations[it.key().toStdString()] = std::move(entry);
    }
    OrderedJson index;
    index["version"] = kIndexVersion;
    index["conversations"] = std::move(conversations);
    return toBytes(dumpJson(index)) + '\n';
}

// Reads index.json once. Anything odd in it (another version, a hand edit, a cut-short write)
// only costs reading the conversation files again: every entry is checked against its file's
// size and modification time before it is believed.
void ConversationStore::loadIndex() const
{
    if (m_indexLoaded)
        return;
    m_indexLoaded = true;
    QFile file(indexPath());
    if (!file.open(QIODevice::ReadOnly) || file.size() > kMaxFileBytes)
        return;
    const QByteArray data = file.readAll();
    const Json index = Mcp::parseJson(std::string_view(data.constData(), size_t(data.size())));
    if (!index.is_object() || index.value("version", Json()) != Json(kIndexVersion))
        return;
    const auto conversations = index.find("conversations");
    if (conversations == index.end() || !conversations->is_object())
        return;
    for (auto it = conversations->begin(); it != conversations->end(); ++it) {
        const QString id = QString::fromStdString(it.key());
        const Json &value = it.value();
        if (!isValidId(id) || !value.is_object())
            continue;
        const auto size = value.find("size");
        const auto modified = value.find("modified");
        if (size == value.end() || !size->is_number_integer() || modified == value.end()
            || !modified->is_number_integer())
            continue;
        CacheEntry entry;
        entry.size = size->get<qint64>();
        entry.modified = QDateTime::fromMSecsSinceEpoch(modified->get<qint64>());
        const auto unreadable = value.find("unreadable");
        if (unreadable == value.end() || *unreadable != Json(true)) {
            const auto messages = value.find("messages");
            if (messages == value.end() || !messages->is_number_integer())
                continue;
            entry.info = ConversationInfo{
                    id,
                    stringMember(value, "title"),
                    stringMember(value, "workspace"),
                    QDateTime::fromString(stringMember(value, "created"), Qt::ISODateWithMs),
                    entry.modified,
                    int(std::clamp<qint64>(messages->get<qint64>(), 0, INT_MAX)),
                    stringMember(value, "origin")};
        }
        m_listCache.insert(id, entry);
    }
}

QList<ConversationInfo> ConversationStore::list() const
{
    loadIndex();
    bool changed = false;
    QList<ConversationInfo> result;
    QHash<QString, CacheEntry> cache;
    const QFileInfoList files = QDir(m_folder).entryInfoList(
            {QLatin1String("*") + QLatin1String(kSuffix)}, QDir::Files);
    for (const QFileInfo &fileInfo : files) {
        const QString id = fileInfo.completeBaseName();
        if (!isValidId(id))
            continue;
        CacheEntry entry = m_listCache.value(id);
        if (entry.size != fileInfo.size()
            || entry.modified.toMSecsSinceEpoch() != fileInfo.lastModified().toMSecsSinceEpoch()) {
            changed = true;
            entry.size = fileInfo.size();
            entry.modified = fileInfo.lastModified();
            entry.info.reset();
            QString error;
            ScanResult scanned;
            const std::optional<QByteArray> data = readFile(fileInfo.filePath(), &error);
            if (data && scan(*data, fileInfo.filePath(), /*keepMessages=*/false, scanned, &error)) {
                entry.info = ConversationInfo{id,
                                              scanned.title,
                                              scanned.workspace,
                                              scanned.created,
                                              fileInfo.lastModified(),
                                              scanned.messageCount,
                                              scanned.origin};
            } else {
                qCWarning(lcConversations) << "skipping conversation:" << error;
            }
        }
        if (entry.info)
            result.append(*entry.info);
        cache.insert(id, entry);
    }
    if (changed || cache.size() != m_listCache.size())
        indexChanged();
    m_listCache = cache; // forgets removed files

    std::sort(result.begin(), result.end(),
              [](const ConversationInfo &a, const ConversationInfo &b) {
                  if (a.updated != b.updated)
                      return a.updated > b.updated;
                  if (a.created != b.created)
                      return a.created > b.created;
                  return a.id < b.id;
              });
    return result;
}

} // namespace Engine
