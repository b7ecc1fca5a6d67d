#pragma once

#include <engine/llm/llm.h>

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QMutex>
#include <QObject>
#include <QSet>
#include <QString>
#include <QThreadPool>

#include <memory>
#include <optional>
#include <vector>

class QFile;

namespace Engine {

class SearchText;

/// A whole conversation as read back from its file.
struct Conversation
{
    QString id;
    QString title; ///< the latest rename, or the title given at creation
    QString workspace;
    QDateTime created;
    QDateTime updated; ///< the file's modification time
    std::vector<ChatMessage> messages;
    QString origin; ///< who started it when not the user: "a2a-inbound" (a remote agent)
    /// Lines that could not be read (a write cut short by a crash, a garbled edit, a record
    /// type from a newer version); they are left out, never fatal.
    int skippedLines = 0;
};

/// What the conversation list shows, without the messages.
struct ConversationInfo
{
    QString id;
    QString title;
    QString workspace;
    QDateTime created;
    QDateTime updated; ///< the file's modification time
    int messageCount = 0;
    QString origin; ///< as Conversation::origin
};

/// A conversation whose messages hold what was searched for.
struct SearchHit
{
    QString id;
    int message = -1; ///< the first match's message (as load() numbers them)
    QString line;     ///< its line, cut around the match
    int count = 0;    ///< how many matches the conversation has (at most 999)
};

/// Persists conversations so that a crash loses no completed message: one append-only JSONL file
/// per conversation, `<folder>/<id>.jsonl`. Line 1 is a header
/// `{"type":"conversation","version":1,"id","title","created","workspace"}`, then one
/// `{"type":"message","time","message"}` line per message, a `{"type":"title","title"}`
/// line per rename and a `{"type":"truncate","messages":N}` line where an edit or a retry
/// dropped what followed the first N messages. Appends are crash-safe: a line is written with one
/// write call and synced to the file (the OS) before append() returns, so a finished message
/// survives a killed process; the fsync that makes it survive a power loss as well runs on a worker
/// thread, so the window never waits for the disk. A line cut short by a crash is skipped when
/// reading.
///
/// `<folder>/index.json` remembers what list() shows (title, workspace, dates, message count)
/// with each file's size and modification time, so listing reads that one small file and a
/// stat per conversation, and reads a conversation file only when it changed behind the
/// store's back. `<folder>/search.idx` keeps beside it the text search() looks in (the user's
/// and the assistant's messages, bounded: SearchText), checked against the same size and time
/// and updated on each append. Owned by whoever shows or records conversations (the main window,
/// the CLI's `run`); files stay open between appends.
class ConversationStore : public QObject
{
    Q_OBJECT
public:
    /// Stores in defaultFolder().
    explicit ConversationStore(QObject *parent = nullptr);
    /// Stores in `folder` (created on first write); tests pass a temporary folder.
    explicit ConversationStore(const QString &folder, QObject *parent = nullptr);
    ~ConversationStore() override;

    /// QStandardPaths::AppDataLocation + "/conversations".
    static QString defaultFolder();
    QString folder() const { return m_folder; }

    /// Ids are what create() returns (a UUID without braces); anything containing other than
    /// letters, digits, '-' and '_' (a path separator, "..") is refused before touching files.
    static bool isValidId(const QString &id);

    /// Starts a conversation file; returns its id, or an empty string (and *error) on failure.
    /// `origin` marks a conversation nobody at this machine started ("a2a-inbound").
    QString create(const QString &title, const QString &workspace, QString *error = nullptr,
                   const QString &origin = {});
    /// Appends one message; true once it is on disk.
    bool append(const QString &id, const ChatMessage &message, QString *error = nullptr);
    /// Reads a conversation. Unreadable lines are skipped and counted; std::nullopt (and
    /// *error) only if the id is invalid, the file is missing or its header is unreadable.
    std::optional<Conversation> load(const QString &id, QString *error = nullptr) const;
    /// Every readable conversation, most recently updated first.
    QList<ConversationInfo> list() const;
    /// The conversations (most recently updated first, as list()) whose messages contain `text`
    /// (ASCII letters in either case), at most `limit`.
    QList<SearchHit> search(const QString &text, int limit = 200) const;
    /// The same among `listed` (what list() returned lately), without looking at the files again:
    /// for a search box that searches on each keystroke.
    QList<SearchHit> search(const QString &text, const QList<ConversationInfo> &listed,
                            int limit = 200) const;
    /// Appends a title record (the file is never rewritten).
    bool rename(const QString &id, const QString &title, QString *error = nullptr);
    /// Keeps only the first `messageCount` messages (an edited or retried turn replaces what
    /// followed): appends a truncate record, so the file still holds everything ever said.
    bool truncate(const QString &id, int messageCount, QString *error = nullptr);
    bool remove(const QString &id, QString *error = nullptr);
    /// A new conversation (same workspace, `title`) with the first `messageCount` messages of
    /// `source` (as load() gave it) as they were said (their times kept); its id, or empty (and
    /// *error).
    QString fork(const Conversation &source, int messageCount, const QString &title,
                 QString *error = nullptr);

    /// Where the conversation with this id is (or would be) stored.
    QString filePath(const QString &id) const;
    /// Where list() keeps what it learnt from the files, and search() the messages' text.
    QString indexPath() const;
    QString searchIndexPath() const;

    /// Returns once everything appended so far is synced to disk and the index is saved (the
    /// destructor does the same).
    void flush();

signals:
    /// A conversation was created, renamed, removed or got a message.
    void conversationsChanged();
    /// A message reached the file but the disk did not confirm it (fsync failed: a full or
    /// failing disk). Emitted from the worker thread; connect with a queued or auto connection.
    void syncFailed(const QString &id, const QString &error);

private:
    enum class Record { Message, Title, Truncate };
    bool appendLine(const QString &id, const QByteArray &line, QString *error);
    bool appendMessage(const QString &id, const ChatMessage &message, const QString &time,
                       QString *error);
    QFile *openForAppend(const QString &id, QString *error, bool *addedNewline);
    void closeFile(const QString &id);
    // Keeps the list's entry for `id` in step with what this store just wrote, so the next
    // list() does not read the file again.
    void noteAppended(const QString &id, qint64 bytes, Record record, const QString &title = {},
                      int messageCount = 0, const ChatMessage *message = nullptr);
    void queueSync(const QString &id);
    void loadIndex() const;
    void loadSearchIndex() const;
    void indexChanged() const;
    void saveQueuedIndex() const;
    QByteArray indexBytes() const;

    QString m_folder;
    QHash<QString, std::shared_ptr<QFile>> m_open; // append handles, by id

    // list() reparses a file only when its size or modification time changed; the same
    // entries are what index.json keeps between runs.
    struct CacheEntry
    {
        qint64 size = -1;
        QDateTime modified;
        std::optional<ConversationInfo> info; // nullopt: unreadable header
        // What search() looks in; replaced, never changed, so that the worker may write it.
        std::shared_ptr<const SearchText> text;
    };
    mutable QHash<QString, CacheEntry> m_listCache;
    mutable bool m_indexLoaded = false;
    mutable bool m_indexSaveQueued = false;
    mutable bool m_searchChanged = false; // search.idx is written with the next index save

    // The worker: one thread, so syncs and index saves happen in the order they were asked.
    mutable QThreadPool m_worker;
    QMutex m_syncMutex;
    QSet<QString> m_pendingSyncs; // paths, under m_syncMutex
};

} // namespace Engine
