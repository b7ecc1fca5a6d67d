#include "conversationstore.h"

#include "privatefiles.h"

#include <mcp/wire/jsonparser.h>

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QMutexLocker>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTimer>
#include <QUuid>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>
#include <utility>

#ifdef Q_OS_WIN
#include <fcntl.h>
#include <io.h>
#include <sys/stat.h>
#else
#include <fcntl.h>
#include <unistd.h>
#endif

Q_LOGGING_CATEGORY(lcConversations, "switchboard.engine.conversations", QtWarningMsg)

namespace Engine {

namespace {

using OrderedJson = nlohmann::ordered_json;

// The format written by this version; files with another version are refused rather than
// misread.
constexpr int kFormatVersion = 1;
// Ids are UUIDs (36 characters); the cap only bounds what a hostile caller can pass.
constexpr qsizetype kMaxIdLength = 128;
// A conversation with many images (base64 in tool results) can reach tens of MiB; a file
// larger than this is not read into memory at all.
constexpr qint64 kMaxFileBytes = qint64(512) * 1024 * 1024;
// Appending to many conversations in one session must not exhaust file descriptors; past this
// many open handles the others are closed (and reopened on their next append).
constexpr int kMaxOpenFiles = 16;

const char kSuffix[] = ".jsonl";
const char kIndexName[] = "index.json";
constexpr int kIndexVersion = 1;
// Many appends in a row (a streamed turn with tool rounds) save the index once.
constexpr int kIndexSaveDelayMs = 250;

template<typename JsonType>
std::string dumpJson(const JsonType &json)
{
    // Replace rather than throw: a tool's output may carry bytes that are not UTF-8.
    return json.dump(-1, ' ', false, JsonType::error_handler_t::replace);
}

QByteArray toBytes(const std::string &s)
{
    return QByteArray(s.data(), qsizetype(s.size()));
}

QString nowText()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}

QString stringMember(const Json &object, const char *key)
{
    const auto it = object.find(key);
    if (it == object.end() || !it->is_string())
        return QString();
    return QString::fromStdString(it->get_ref<const std::string &>());
}

// What a file holds; load() and list() read through the same code so they always agree on
// which lines count.
struct ScanResult
{
    QString title;
    QString workspace;
    QString origin;
    QDateTime created;
    std::vector<ChatMessage> messages; // only if asked for
    int messageCount = 0;
    int skippedLines = 0;
};

// Attachments bigger than this are kept in a file of their own (blobs/<sha256> beside the
// conversations) and named by their digest on the message's line, so a conversation file with
// screenshots stays quick to scan.
constexpr qsizetype BlobThreshold = 64 * 1024;

QString blobPath(const QString &folder, const QString &digest)
{
    return folder + QLatin1String("/blobs/") + digest;
}

// The message's line with its big attachments swapped for their blob's name; each blob is
// written (once: the name is its digest) before the line that names it.
bool writeBlob(const QString &folder, const QByteArray &data, QString *digest, QString *error)
{
    *digest = QString::fromLatin1(
            QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex());
    const QString path = blobPath(folder, *digest);
    return QFileInfo::exists(path)
           || (PrivateFiles::ensureDir(folder + QLatin1String("/blobs"), error)
               && PrivateFiles::write(path, data, error));
}

// A blob named on a line, read back and checked against its name; empty when it is missing,
// too big or altered.
std::optional<QByteArray> readBlob(const QString &folder, const Json &name)
{
    static const QRegularExpression hex(QStringLiteral("^[0-9a-f]{64}$"));
    const QString digest
            = name.is_string() ? QString::fromStdString(name.get<std::string>()) : QString();
    QFile file(blobPath(folder, digest));
    if (!hex.match(digest).hasMatch() || !file.open(QIODevice::ReadOnly)
        || file.size() > 64 * 1024 * 1024) {
        qCWarning(lcConversations) << "blob missing:" << digest;
        return std::nullopt;
    }
    const QByteArray data = file.readAll();
    if (QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex() != digest.toLatin1()) {
        qCWarning(lcConversations) << "blob altered:" << digest;
        return std::nullopt;
    }
    return data;
}

bool moveBlobsOut(const QString &folder, const ChatMessage &message, Json &json, QString *error)
{
    // A tool's whole result, as its JSON text.
    if (auto result = json.find("result"); result != json.end()) {
        const QByteArray text = QByteArray::fromStdString(
                result->dump(-1, ' ', false, Json::error_handler_t::replace));
        if (text.size() > BlobThreshold) {
            QString digest;
            if (!writeBlob(folder, text, &digest, error))
                return false;
            json.erase(result);
            json["resultBlob"] = digest.toStdString();
        }
    }
    auto it = json.find("attachments");
    if (it == json.end() || !it->is_array())
        return true;
    for (std::size_t i = 0; i < it->size() && i < message.attachments.size(); ++i) {
        const QByteArray &data = message.attachments[i].data;
        if (data.size() <= BlobThreshold)
            continue;
        QString digest;
        if (!writeBlob(folder, data, &digest, error))
            return false;
        Json &entry = (*it)[i];
        entry.erase("data");
        entry["blob"] = digest.toStdString();
    }
    return true;
}

// The other way: a named blob read back and checked against its name; a missing or altered
// one leaves the attachment out (the message stays).
void bringBlobsIn(const QString &folder, Json &message)
{
    // A whole result kept apart: read and parsed only when the conversation is opened; a
    // missing or altered one leaves the card with the model's share and says so.
    if (const auto blob = message.find("resultBlob"); blob != message.end()) {
        const Json name = *blob;
        message.erase(blob);
        if (!folder.isEmpty()) {
            const std::optional<QByteArray> text = readBlob(folder, name);
            Json result = text ? Json::parse(text->toStdString(), nullptr, false) : Json();
            if (result.is_object())
                message["result"] = std::move(result);
            else
                message["resultNote"]
                        = ConversationStore::tr("The whole result kept with this conversation "
                                                "is missing or was altered; only the model's "
                                                "share is shown.")
                                  .toStdString();
        }
    }
    auto it = message.find("attachments");
    if (it == message.end() || !it->is_array())
        return;
    Json kept = Json::array();
    for (Json &entry : *it) {
        const auto blob = entry.is_object() ? entry.find("blob") : entry.end();
        if (!entry.is_object() || blob == entry.end()) {
            kept.push_back(std::move(entry));
            continue;
        }
        if (folder.isEmpty()) { // only counting messages: the blob is not read
            entry.erase("blob");
            entry["data"] = "";
            kept.push_back(std::move(entry));
            continue;
        }
        const std::optional<QByteArray> data = readBlob(folder, *blob);
        if (!data)
            continue;
        entry.erase("blob");
        entry["data"] = data->toBase64().toStdString();
        kept.push_back(std::move(entry));
    }
    *it = std::move(kept);
}

std::optional<ChatMessage> messageFromLine(Json &line, const QString &folder)
{
    const auto it = line.find("message");
    if (it == line.end())
        return std::nullopt;
    try {
        if (it->is_object())
            bringBlobsIn(folder, *it);
        return ChatMessage::fromJson(*it);
    } catch (const std::exception &e) {
        // fromJson validates, but a type error deep inside a hand-edited line must not take
        // the whole conversation down.
        qCWarning(lcConversations) << "unreadable message:" << e.what();
        return std::nullopt;
    }
}

// false (and *error) if the header is unreadable; damaged lines after it are only counted.
bool scan(const QByteArray &data, const QString &path, bool keepMessages, ScanResult &result,
          QString *error)
{
    const std::string_view text(data.constData(), size_t(data.size()));
    bool haveHeader = false;
    size_t begin = 0;
    while (begin < text.size()) {
        size_t end = text.find('\n', begin);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(begin, end - begin);
        begin = end + 1;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (line.find_first_not_of(" \t") == std::string_view::npos)
            continue;

        Json json = Mcp::parseJson(line);
        const QString type = json.is_object() ? stringMember(json, "type") : QString();
        if (!haveHeader) {
            const auto version = json.is_object() ? json.find("version") : json.end();
            if (type != QLatin1String("conversation") || version == json.end()
                || !version->is_number_integer()) {
                if (error) {
                    *error = ConversationStore::tr("The conversation file %1 is damaged: its "
                                                   "first line is not a conversation header.")
                                     .arg(QDir::toNativeSeparators(path));
                }
                return false;
            }
            if (version->get<qint64>() != kFormatVersion) {
                if (error) {
                    *error = ConversationStore::tr("The conversation file %1 has format version "
                                                   "%2, which this version of Switchboard "
                                                   "cannot read.")
                                     .arg(QDir::toNativeSeparators(path))
                                     .arg(version->get<qint64>());
                }
                return false;
            }
            result.title = stringMember(json, "title");
            result.workspace = stringMember(json, "workspace");
            result.origin = stringMember(json, "origin");
            result.created
                    = QDateTime::fromString(stringMember(json, "created"), Qt::ISODateWithMs);
            haveHeader = true;
        } else if (type == QLatin1String("message")) {
            if (std::optional<ChatMessage> message = messageFromLine(
                        json, keepMessages ? QFileInfo(path).absolutePath() : QString())) {
                ++result.messageCount;
                if (keepMessages) {
                    message->time
                            = QDateTime::fromString(stringMember(json, "time"), Qt::ISODateWithMs);
                    result.messages.push_back(std::move(*message));
                }
            } else {
                ++result.skippedLines;
            }
        } else if (type == QLatin1String("title") && json.contains("title")
                   && json["title"].is_string()) {
            result.title = stringMember(json, "title");
        } else if (type == QLatin1String("truncate") && json.contains("messages")
                   && json["messages"].is_number_integer() && json["messages"].get<qint64>() >= 0) {
            const auto keep = size_t(
                    std::min<qint64>(json["messages"].get<qint64>(), qint64(result.messageCount)));
            result.messageCount = int(keep);
            if (keepMessages)
                result.messages.resize(keep);
        } else {
            // A write cut short by a crash, a garbled edit, or a record from a newer version.
            ++result.skippedLines;
        }
    }
    if (!haveHeader) {
        if (error) {
            *error = ConversationStore::tr("The conversation file %1 is empty.")
                             .arg(QDir::toNativeSeparators(path));
        }
        return false;
    }
    if (result.skippedLines > 0)
        qCWarning(lcConversations) << path << "has" << result.skippedLines << "unreadable lines";
    return true;
}

std::optional<QByteArray> readFile(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error) {
            *error = file.exists()
                             ? ConversationStore::tr("Cannot read the conversation file %1: %2")
                                       .arg(QDir::toNativeSeparators(path), file.errorString())
                             : ConversationStore::tr("There is no conversation file %1.")
                                       .arg(QDir::toNativeSeparators(path));
        }
        return std::nullopt;
    }
    if (file.size() > kMaxFileBytes) {
        if (error) {
            *error = ConversationStore::tr("The conversation file %1 is larger than %2 MiB.")
                             .arg(QDir::toNativeSeparators(path))
                             .arg(kMaxFileBytes / (1024 * 1024));
        }
        return std::nullopt;
    }
    return file.readAll();
}

// Makes what was written reach the disk, not only the OS cache: a message must survive a power
// loss as well as a killed process (the latter only needs the write() to have returned).
bool syncToDisk(int fd)
{
#ifdef Q_OS_WIN
    return ::_commit(fd) == 0;
#else
    return ::fsync(fd) == 0;
#endif
}

// Syncs a file through a descriptor of its own (the append handle may be closed meanwhile);
// fsync makes the file's data durable whichever descriptor wrote it.
bool syncPath(const QString &path)
{
#ifdef Q_OS_WIN
    const int fd
            = ::_wopen(reinterpret_cast<const wchar_t *>(QDir::toNativeSeparators(path).utf16()),
                       _O_WRONLY | _O_APPEND | _O_BINARY | _O_NOINHERIT);
    if (fd < 0)
        return false;
    const bool ok = syncToDisk(fd);
    ::_close(fd);
#else
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool ok = syncToDisk(fd);
    ::close(fd);
#endif
    return ok;
}

// A new file's name is only durable once its folder is synced too (POSIX; Windows has no way
// to sync a folder and does not need one on NTFS).
void syncFolder(const QString &folder)
{
#ifndef Q_OS_WIN
    const int fd = ::open(QFile::encodeName(folder).constData(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
#else
    Q_UNUSED(folder);
#endif
}

// Opens for appending with a C runtime descriptor, which fsync/_commit need (QFile on Windows
// opens through CreateFile and has no descriptor). -1 on failure.
int openAppendDescriptor(const QString &path)
{
#ifdef Q_OS_WIN
    return ::_wopen(reinterpret_cast<const wchar_t *>(QDir::toNativeSeparators(path).utf16()),
                    _O_WRONLY | _O_APPEND | _O_BINARY | _O_NOINHERIT);
#else
    return ::open(QFile::encodeName(path).constData(), O_WRONLY | O_APPEND | O_CLOEXEC);
#endif
}

QString invalidIdError(const QString &id)
{
    return ConversationStore::tr("'%1' is not a valid conversation id.").arg(id);
}

bool endsWithNewline(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly) || file.size() == 0)
        return true;
    if (!file.seek(file.size() - 1))
        return true;
    return file.read(1) == "\n";
}

} // namespace

ConversationStore::ConversationStore(QObject *parent)
    : ConversationStore(defaultFolder(), parent)
{
}

ConversationStore::ConversationStore(const QString &folder, QObject *parent)
    : QObject(parent)
    , m_folder(folder)
{
    m_worker.setMaxThreadCount(1);
    m_worker.setObjectName(QStringLiteral("ConversationStore"));
}

ConversationStore::~ConversationStore()
{
    flush();
}

void ConversationStore::flush()
{
    saveQueuedIndex();
    m_worker.waitForDone();
}

QString ConversationStore::indexPath() const
{
    return m_folder + u'/' + QLatin1String(kIndexName);
}

void ConversationStore::queueSync(const QString &id)
{
    const QString path = filePath(id);
    QMutexLocker locker(&m_syncMutex);
    const bool idle = m_pendingSyncs.isEmpty();
    m_pendingSyncs.insert(path);
    if (!idle)
        return; // the running drain picks it up
    locker.unlock();
    // A set that was not empty has a task queued that has not taken it yet.
    m_worker.start([this] {
        QSet<QString> paths;
        {
            QMutexLocker drainLocker(&m_syncMutex);
            paths.swap(m_pendingSyncs);
        }
        for (const QString &path : std::as_const(paths)) {
            if (syncPath(path))
                continue;
            const QString error = tr("The disk did not confirm the write of %1: %2")
                                          .arg(QDir::toNativeSeparators(path),
                                               QString::fromLocal8Bit(std::strerror(errno)));
            qCWarning(lcConversations) << error;
            emit syncFailed(QFileInfo(path).completeBaseName(), error);
        }
    });
}

QString ConversationStore::defaultFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)
           + QLatin1String("/conversations");
}

bool ConversationStore::isValidId(const QString &id)
{
    if (id.isEmpty() || id.size() > kMaxIdLength)
        return false;
    return std::all_of(id.cbegin(), id.cend(), [](QChar c) {
        return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9')
               || c == u'-' || c == u'_';
    });
}

QString ConversationStore::filePath(const QString &id) const
{
    return m_folder + u'/' + id + QLatin1String(kSuffix);
}

QString ConversationStore::create(const QString &title, const QString &workspace, QString *error,
                                  const QString &origin)
{
    if (!PrivateFiles::ensureDir(m_folder, error))
        return QString();
    const QString id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    OrderedJson header;
    header["type"] = "conversation";
    header["version"] = kFormatVersion;
    header["id"] = id.toStdString();
    header["title"] = title.toStdString();
    header["created"] = nowText().toStdString();
    header["workspace"] = workspace.toStdString();
    if (!origin.isEmpty())
        header["origin"] = origin.toStdString();

    // All or nothing: a crash during create() leaves no file rather than a headerless one.
    if (!PrivateFiles::write(filePath(id), toBytes(dumpJson(header)) + '\n', error))
        return QString();
    syncFolder(m_folder);
    if (m_indexLoaded) { // else list() finds the new file when it first reads the folder
        const QFileInfo file(filePath(id));
        CacheEntry entry;
        entry.size = file.size();
        entry.modified = file.lastModified();
        entry.info = ConversationInfo{
                id,
                title,
                workspace,
                QDateTime::fromString(QString::fromStdString(header["created"].get<std::string>()),
                                      Qt::ISODateWithMs),
                entry.modified,
                0,
                origin};
        m_listCache.insert(id, entry);
        indexChanged();
    }
    emit conversationsChanged();
    return id;
}

QFile *ConversationStore::openForAppend(const QString &id, QString *error, bool *addedNewline)
{
    *addedNewline = false;
    const QString path = filePath(id);
    // A handle kept open on a file that was deleted meanwhile would swallow messages silently.
    if (!QFileInfo::exists(path)) {
        closeFile(id);
        if (error)
            *error = tr("There is no conversation file %1.").arg(QDir::toNativeSeparators(path));
        return nullptr;
    }
    if (const auto it = m_open.constFind(id); it != m_open.constEnd())
        return it->get();

    // A file (and folder) written by an older version may be readable by others: not any more.
    if (!PrivateFiles::ensureDir(m_folder, error) || !PrivateFiles::restrict(path, error))
        return nullptr;
    // A crash in the middle of a write leaves a line without its newline; start on a fresh
    // line so the next message is not glued to (and lost with) the damaged one.
    const bool needsNewline = !endsWithNewline(path);
    const int fd = openAppendDescriptor(path);
    auto file = std::make_shared<QFile>();
    if (fd < 0
        || !file->open(fd, QIODevice::WriteOnly | QIODevice::Append | QIODevice::Unbuffered,
                       QFileDevice::AutoCloseHandle)) {
        if (fd >= 0) {
#ifdef Q_OS_WIN
            ::_close(fd);
#else
            ::close(fd);
#endif
        }
        if (error) {
            *error = tr("Cannot open the conversation file %1 for writing.")
                             .arg(QDir::toNativeSeparators(path));
        }
        return nullptr;
    }
    if (needsNewline) {
        if (file->write("\n", 1) != 1) {
            if (error) {
                *error = tr("Cannot write the conversation file %1: %2")
                                 .arg(QDir::toNativeSeparators(path), file->errorString());
            }
            return nullptr;
        }
        *addedNewline = true;
    }
    if (m_open.size() >= kMaxOpenFiles)
        m_open.clear();
    m_open.insert(id, file);
    return file.get();
}

void ConversationStore::closeFile(const QString &id)
{
    m_open.remove(id);
}

bool ConversationStore::appendLine(const QString &id, const QByteArray &line, QString *error)
{
    if (!isValidId(id)) {
        if (error)
            *error = invalidIdError(id);
        return false;
    }
    bool addedNewline = false;
    QFile *file = openForAppend(id, error, &addedNewline);
    if (!file)
        return false;
    // One write call per line: with O_APPEND the line lands whole at the end of the file, and
    // a reader (or a crash) never sees half of one line followed by another. Once write()
    // returned the line is the OS's, which a killed process cannot take back; the fsync for
    // power losses follows on the worker.
    const qint64 written = file->write(line);
    const bool ok = written == line.size() && file->flush();
    if (ok) {
        queueSync(id);
        if (addedNewline) // the list's entry no longer matches the file: read it again
            m_listCache.remove(id);
    }
    if (!ok) {
        if (error) {
            *error = tr("Cannot write the conversation file %1: %2")
                             .arg(QDir::toNativeSeparators(filePath(id)), file->errorString());
        }
        // Reopening checks the end of the file again, so a partial line gets its newline.
        closeFile(id);
        return false;
    }
    return true;
}

bool ConversationStore::append(const QString &id, const ChatMessage &message, QString *error)
{
    Json json = message.toJson();
    if (!moveBlobsOut(m_folder, message, json, error))
        return false;
    const QByteArray line
            = "{\"type\":\"message\",\"time\":" + toBytes(dumpJson(Json(nowText().toStdString())))
              + ",\"message\":" + toBytes(dumpJson(json)) + "}\n";
    if (!appendLine(id, line, error))
        return false;
    noteAppended(id, line.size(), Record::Message, QString());
    emit conversationsChanged();
    return true;
}

bool ConversationStore::rename(const QString &id, const QString &title, QString *error)
{
    OrderedJson record;
    record["type"] = "title";
    record["title"] = title.toStdString();
    record["time"] = nowText().toStdString();
    const QByteArray line = toBytes(dumpJson(record)) + '\n';
    if (!appendLine(id, line, error))
        return false;
    noteAppended(id, line.size(), Record::Title, title);
    emit conversationsChanged();
    return true;
}

bool ConversationStore::truncate(const QString &id, int messageCount, QString *error)
{
    OrderedJson record;
    record["type"] = "truncate";
    record["messages"] = std::max(0, messageCount);
    record["time"] = nowText().toStdString();
    const QByteArray line = toBytes(dumpJson(record)) + '\n';
    if (!appendLine(id, line, error))
        return false;
    noteAppended(id, line.size(), Record::Truncate, QString(), std::max(0, messageCount));
    emit conversationsChanged();
    return true;
}

bool ConversationStore::remove(const QString &id, QString *error)
{
    if (!isValidId(id)) {
        if (error)
            *error = invalidIdError(id);
        return false;
    }
    closeFile(id); // Windows cannot delete an open file
    if (m_listCache.remove(id) > 0)
        indexChanged();
    QFile file(filePath(id));
    if (!file.remove()) {
        if (error) {
            *error = tr("Cannot delete the conversation file %1: %2")
                             .arg(QDir::toNativeSeparators(file.fileName()), file.errorString());
        }
        return false;
    }
    emit conversationsChanged();
    return true;
}

std::optional<Conversation> ConversationStore::load(const QString &id, QString *error) const
{
    if (!isValidId(id)) {
        if (error)
            *error = invalidIdError(id);
        return std::nullopt;
    }
    const QString path = filePath(id);
    const std::optional<QByteArray> data = readFile(path, error);
    if (!data)
        return std::nullopt;
    ScanResult scanned;
    if (!scan(*data, path, /*keepMessages=*/true, scanned, error))
        return std::nullopt;
    Conversation conversation;
    conversation.id = id;
    conversation.title = scanned.title;
    conversation.workspace = scanned.workspace;
    conversation.origin = scanned.origin;
    conversation.created = scanned.created;
    conversation.updated = QFileInfo(path).lastModified();
    conversation.messages = std::move(scanned.messages);
    conversation.skippedLines = scanned.skippedLines;
    return conversation;
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
