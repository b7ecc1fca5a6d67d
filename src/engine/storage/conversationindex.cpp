// ConversationStore: what list() shows, and index.json, which remembers it between runs.
#include "conversationstore.h"

#include "conversationfile.h"
#include "privatefiles.h"

#include <mcp/wire/jsonparser.h>

#include <QDataStream>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTimer>

#include <algorithm>
#include <climits>
#include <cstring>
#include <string_view>
#include <utility>

namespace Engine {

using namespace ConversationFile;

namespace {

const char kIndexName[] = "index.json";
constexpr int kIndexVersion = 1;
const char kSearchIndexName[] = "search.idx";

// A 64-bit digest of search.idx's contents, to tell a damaged file (a cut-short write, a
// flipped byte) from a good one: not a defence against someone who can write the folder
// (they can write the conversations as well), only fast (several GB/s: this file may hold
// tens of MB that the first search reads).
quint64 digestOf(const QByteArray &bytes)
{
    constexpr quint64 Multiplier = 0x9E3779B97F4A7C15ULL;
    quint64 hash = quint64(bytes.size()) * Multiplier;
    const char *data = bytes.constData();
    const qsizetype words = bytes.size() / 8;
    for (qsizetype i = 0; i < words; ++i) {
        quint64 word;
        std::memcpy(&word, data + i * 8, 8);
        hash = (hash ^ word) * Multiplier;
        hash ^= hash >> 29;
    }
    for (qsizetype i = words * 8; i < bytes.size(); ++i)
        hash = (hash ^ quint64(quint8(data[i]))) * Multiplier;
    return hash ^ (hash >> 32);
}
constexpr quint32 kSearchMagic = 0x53425358; // "SBSX"
constexpr quint32 kSearchVersion = 1;
// Many appends in a row (a streamed turn with tool rounds) save the index once.
constexpr int kIndexSaveDelayMs = 250;

} // namespace

QString ConversationStore::indexPath() const
{
    return m_folder + u'/' + QLatin1String(kIndexName);
}

QString ConversationStore::searchIndexPath() const
{
    return m_folder + u'/' + QLatin1String(kSearchIndexName);
}

void ConversationStore::noteAppended(const QString &id, qint64 bytes, Record record,
                                     const QString &title, int messageCount,
                                     const ChatMessage *message)
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
    // The text is replaced by a changed copy: the worker may be writing the old one.
    const auto changedText = [&it, this](const auto &change) {
        if (!it->text)
            return; // list() reads the file for it
        auto text = std::make_shared<SearchText>(*it->text);
        change(*text);
        it->text = std::move(text);
        m_searchChanged = true;
    };
    switch (record) {
    case Record::Message:
        if (message)
            changedText([&](SearchText &text) { text.add(it->info->messageCount, *message); });
        ++it->info->messageCount;
        break;
    case Record::Title:
        it->info->title = title;
        break;
    case Record::Truncate:
        it->info->messageCount = std::min(it->info->messageCount, messageCount);
        changedText([&](SearchText &text) { text.truncate(messageCount); });
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
    if (!std::exchange(m_searchChanged, false))
        return;
    // The texts as they are now (shared, never changed), written out on the worker.
    struct Saved
    {
        QString id;
        qint64 size;
        qint64 modified;
        std::shared_ptr<const SearchText> text;
    };
    std::vector<Saved> saved;
    for (auto it = m_listCache.cbegin(); it != m_listCache.cend(); ++it) {
        if (it->text)
            saved.push_back({it.key(), it->size, it->modified.toMSecsSinceEpoch(), it->text});
    }
    m_worker.start([path = searchIndexPath(), saved = std::move(saved)] {
        QByteArray payload;
        QDataStream out(&payload, QIODevice::WriteOnly);
        out.setVersion(QDataStream::Qt_6_0);
        out << quint32(saved.size());
        for (const Saved &entry : saved) {
            out << entry.id << entry.size << entry.modified;
            entry.text->write(out);
        }
        // A digest of it, so that a damaged file is never believed.
        QByteArray bytes;
        QDataStream file(&bytes, QIODevice::WriteOnly);
        file.setVersion(QDataStream::Qt_6_0);
        file << kSearchMagic << kSearchVersion << payload << digestOf(payload);
        QString error;
        if (!PrivateFiles::write(path, bytes, &error))
            qCWarning(lcConversations) << "cannot save the search index:" << error;
    });
}

// Reads search.idx once, after index.json: a text is believed only for an entry whose file
// has the size and time it was written for; anything odd costs reading the files again.
void ConversationStore::loadSearchIndex() const
{
    QFile file(searchIndexPath());
    if (!file.open(QIODevice::ReadOnly) || file.size() > kMaxFileBytes)
        return;
    QDataStream stream(&file);
    stream.setVersion(QDataStream::Qt_6_0);
    quint32 magic = 0, version = 0;
    QByteArray payload;
    quint64 digest = 0;
    stream >> magic >> version;
    if (stream.status() != QDataStream::Ok || magic != kSearchMagic || version != kSearchVersion)
        return;
    stream >> payload >> digest;
    if (stream.status() != QDataStream::Ok || digest != digestOf(payload))
        return;
    QDataStream in(payload);
    in.setVersion(QDataStream::Qt_6_0);
    quint32 count = 0;
    in >> count;
    for (quint32 i = 0; i < count; ++i) {
        QString id;
        qint64 size = 0, modified = 0;
        in >> id >> size >> modified;
        auto text = std::make_shared<SearchText>();
        if (in.status() != QDataStream::Ok || !text->read(in))
            return; // the rest cannot be trusted either
        const auto it = m_listCache.find(id);
        if (it != m_listCache.end() && it->size == size
            && it->modified.toMSecsSinceEpoch() == modified)
            it->text = std::move(text);
    }
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
    loadSearchIndex();
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
            || entry.modified.toMSecsSinceEpoch() != fileInfo.lastModified().toMSecsSinceEpoch()
            || (entry.info && !entry.text)) {
            changed = true;
            entry.size = fileInfo.size();
            entry.modified = fileInfo.lastModified();
            entry.info.reset();
            entry.text.reset();
            QString error;
            ScanResult scanned;
            scanned.text = std::make_shared<SearchText>();
            const std::optional<QByteArray> data = readFile(fileInfo.filePath(), &error);
            if (data && scan(*data, fileInfo.filePath(), /*keepMessages=*/false, scanned, &error)) {
                entry.info = ConversationInfo{id,
                                              scanned.title,
                                              scanned.workspace,
                                              scanned.created,
                                              fileInfo.lastModified(),
                                              scanned.messageCount,
                                              scanned.origin};
                entry.text = std::move(scanned.text);
                m_searchChanged = true;
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
    if (cache.size() != m_listCache.size())
        m_searchChanged = true; // a file is gone
    m_listCache = cache;        // forgets removed files

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

QList<SearchHit> ConversationStore::search(const QString &text, int limit) const
{
    return search(text, list(), limit);
}

QList<SearchHit> ConversationStore::search(const QString &text,
                                           const QList<ConversationInfo> &listed, int limit) const
{
    QList<SearchHit> hits;
    const SearchPattern pattern(text);
    if (pattern.isEmpty())
        return hits;
    for (const ConversationInfo &info : listed) {
        const CacheEntry entry = m_listCache.value(info.id);
        if (!entry.text)
            continue;
        if (const std::optional<SearchText::Match> match = entry.text->find(pattern)) {
            hits.append({info.id, match->message, match->line, match->count});
            if (hits.size() >= limit)
                break;
        }
    }
    return hits;
}

} // namespace Engine
