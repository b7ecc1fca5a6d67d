#include "conversationstore.h"

#include "conversationfile.h"
#include "privatefiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QMutexLocker>
#include <QStandardPaths>
#include <QUuid>

#include <algorithm>
#include <cerrno>
#include <cstring>
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

using namespace ConversationFile;

namespace {

// Ids are UUIDs (36 characters); the cap only bounds what a hostile caller can pass.
constexpr qsizetype kMaxIdLength = 128;
// Appending to many conversations in one session must not exhaust file descriptors; past this
// many open handles the others are closed (and reopened on their next append).
constexpr int kMaxOpenFiles = 16;

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
    return appendMessage(id, message, nowText(), error);
}

bool ConversationStore::appendMessage(const QString &id, const ChatMessage &message,
                                      const QString &time, QString *error)
{
    Json json = message.toJson();
    if (!moveBlobsOut(m_folder, message, json, error))
        return false;
    const QByteArray line
            = "{\"type\":\"message\",\"time\":" + toBytes(dumpJson(Json(time.toStdString())))
              + ",\"message\":" + toBytes(dumpJson(json)) + "}\n";
    if (!appendLine(id, line, error))
        return false;
    noteAppended(id, line.size(), Record::Message, QString(), 0, &message);
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

QString ConversationStore::fork(const Conversation &source, int messageCount, const QString &title,
                                QString *error)
{
    const QString copy = create(title, source.workspace, error);
    if (copy.isEmpty())
        return {};
    const size_t count = std::min(source.messages.size(), size_t(std::max(0, messageCount)));
    for (size_t i = 0; i < count; ++i) {
        const ChatMessage &message = source.messages[i];
        const QString time = message.time.isValid()
                                     ? message.time.toUTC().toString(Qt::ISODateWithMs)
                                     : nowText();
        if (!appendMessage(copy, message, time, error)) {
            remove(copy);
            return {};
        }
    }
    return copy;
}

bool ConversationStore::remove(const QString &id, QString *error)
{
    if (!isValidId(id)) {
        if (error)
            *error = invalidIdError(id);
        return false;
    }
    closeFile(id); // Windows cannot delete an open file
    if (m_listCache.remove(id) > 0) {
        m_searchChanged = true;
        indexChanged();
    }
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

} // namespace Engine
