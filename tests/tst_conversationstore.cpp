// Tests for Engine::ConversationStore: JSONL round trips, listing, renames, removal, hostile
// ids, damaged files, and a process killed with SIGKILL in the middle of appending.

#include "filemode.h"

#include <engine/storage/conversationstore.h>
#include <engine/storage/searchtext.h>

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

using namespace Engine;

class tst_ConversationStore : public QObject
{
    Q_OBJECT

private slots:
    void roundTrip();
    void createdAndUpdated();
    void originIsKept();
    void bigAttachmentsGoToBlobFiles();
    void listNewestFirst();
    void rename();
    void remove();
    void invalidIds_data();
    void invalidIds();
    void missingConversation();
    void truncatedLastLine_data();
    void truncatedLastLine();
    void garbledLinesInTheMiddle();
    void damagedHeader();
    void appendAfterTruncation();
    void fileRemovedBehindOpenHandle();
    void killedWhileAppending();
    void filesArePrivate();
    void listReadsTheIndexNotTheFiles();
    void indexFollowsAppendsAndRenames();
    void anotherWriterIsNoticed();
    void damagedIndexIsIgnored_data();
    void damagedIndexIsIgnored();
    void truncateKeepsTheFirstMessages();
    void searchFindsWordsInMessages();
    void searchIndexFollowsTheFiles();
    void searchIsBounded();
};

namespace {

// The helper mode of this executable (killedWhileAppending): appends until it is killed.
const char kChildFolderVariable[] = "SWITCHBOARD_TST_CONVERSATIONSTORE_CHILD";
// What the parent waits for before killing the child.
constexpr int kMessagesBeforeKill = 50;

ChatMessage numberedMessage(int i)
{
    ChatMessage message;
    message.role = ChatMessage::Role::Assistant;
    // Long enough that the kill is likely to land while a write is in progress.
    message.text = QStringLiteral("message %1 ").arg(i) + QString(2000, u'x');
    ToolCallRequest call;
    call.id = QStringLiteral("call_%1").arg(i);
    call.name = QStringLiteral("read_file");
    call.arguments = {{"i", i}};
    call.argumentsText = QStringLiteral("{\"i\":%1}").arg(i);
    message.toolCalls.push_back(call);
    return message;
}

bool isIntactNumberedMessage(const ChatMessage &message, int i)
{
    const ChatMessage expected = numberedMessage(i);
    return message.role == expected.role && message.text == expected.text
           && message.toolCalls.size() == 1 && message.toolCalls[0].id == expected.toolCalls[0].id
           && message.toolCalls[0].arguments == expected.toolCalls[0].arguments;
}

int runChild(const QString &folder)
{
    ConversationStore store(folder);
    QString error;
    const QString id = store.create(QStringLiteral("killed"), QString(), &error);
    if (id.isEmpty()) {
        std::fprintf(stderr, "create failed: %s\n", qPrintable(error));
        return 1;
    }
    std::printf("id %s\n", qPrintable(id));
    std::fflush(stdout);
    for (int i = 1;; ++i) {
        if (!store.append(id, numberedMessage(i), &error)) {
            std::fprintf(stderr, "append failed: %s\n", qPrintable(error));
            return 1;
        }
        std::printf("appended %d\n", i);
        std::fflush(stdout);
    }
}

void writeFile(const QString &path, const QByteArray &data)
{
    QFile file(path);
    if (file.open(QIODevice::WriteOnly))
        file.write(data);
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

ChatMessage textMessage(ChatMessage::Role role, const QString &text)
{
    ChatMessage message;
    message.role = role;
    message.text = text;
    return message;
}

} // namespace

void tst_ConversationStore::roundTrip()
{
    QTemporaryDir dir;
    ConversationStore store(dir.path() + QStringLiteral("/nested/conversations"));
    QSignalSpy changed(&store, &ConversationStore::conversationsChanged);
    QString error;
    const QString title = QString::fromUtf8("Réparer le build — 修复 😀");
    const QString workspace = QString::fromUtf8("/home/ü/projekt");
    const QString id = store.create(title, workspace, &error);
    QVERIFY2(!id.isEmpty(), qPrintable(error));
    QVERIFY(ConversationStore::isValidId(id));
    QCOMPARE(id.size(), 36); // a UUID without braces
    QCOMPARE(changed.count(), 1);

    std::vector<ChatMessage> messages;
    messages.push_back(textMessage(ChatMessage::Role::System, QStringLiteral("be brief")));
    messages.push_back(textMessage(ChatMessage::Role::User,
                                   QString::fromUtf8("line one\nline \"two\"\t\\ — 你好 🎉")));
    ChatMessage assistant = textMessage(ChatMessage::Role::Assistant, QStringLiteral("calling"));
    assistant.toolCalls.push_back(
            {QStringLiteral("call_1"), QStringLiteral("mcp__files__read"),
             Json{{"path", "a/ü.txt"}, {"n", 3}, {"deep", {1, 2, {{"x", nullptr}}}}},
             QStringLiteral("{\"path\":\"a/ü.txt\",\"n\":3}")});
    assistant.toolCalls.push_back({QStringLiteral("toolu_2"), QStringLiteral("bash"), Json(),
                                   QStringLiteral("{not json")});
    messages.push_back(assistant);
    ChatMessage tool = textMessage(ChatMessage::Role::Tool, QString::fromUtf8("ошибка\r\n"));
    tool.toolCallId = QStringLiteral("call_1");
    tool.toolName = QStringLiteral("mcp__files__read");
    tool.isError = true;
    messages.push_back(tool);
    messages.push_back(textMessage(ChatMessage::Role::Assistant, QString()));

    for (const ChatMessage &message : messages)
        QVERIFY2(store.append(id, message, &error), qPrintable(error));
    QCOMPARE(changed.count(), 1 + int(messages.size()));

    // A second store (a restarted application) reads the same.
    const ConversationStore reader(store.folder());
    const std::optional<Conversation> loaded = reader.load(id, &error);
    QVERIFY2(loaded, qPrintable(error));
    QCOMPARE(loaded->id, id);
    QCOMPARE(loaded->title, title);
    QCOMPARE(loaded->workspace, workspace);
    QCOMPARE(loaded->skippedLines, 0);
    QCOMPARE(loaded->messages.size(), messages.size());
    for (size_t i = 0; i < messages.size(); ++i) {
        const ChatMessage &a = loaded->messages[i];
        const ChatMessage &b = messages[i];
        QCOMPARE(int(a.role), int(b.role));
        QCOMPARE(a.text, b.text);
        QCOMPARE(a.toolCallId, b.toolCallId);
        QCOMPARE(a.toolName, b.toolName);
        QCOMPARE(a.isError, b.isError);
        QCOMPARE(a.toolCalls.size(), b.toolCalls.size());
        for (size_t j = 0; j < a.toolCalls.size(); ++j) {
            QCOMPARE(a.toolCalls[j].id, b.toolCalls[j].id);
            QCOMPARE(a.toolCalls[j].name, b.toolCalls[j].name);
            QCOMPARE(a.toolCalls[j].argumentsText, b.toolCalls[j].argumentsText);
            QVERIFY(a.toolCalls[j].arguments == b.toolCalls[j].arguments);
        }
    }

    // The file format (Engine::ConversationStore): a header, then one line per message,
    // nothing else.
    const QList<QByteArray> lines = readFile(store.filePath(id)).split('\n');
    QCOMPARE(lines.size(), 1 + qsizetype(messages.size()) + 1); // the last one is empty
    QVERIFY(lines.first().startsWith("{\"type\":\"conversation\",\"version\":1,\"id\":\""));
    QVERIFY(lines.at(1).startsWith("{\"type\":\"message\",\"time\":\""));
    QVERIFY(lines.last().isEmpty());
}

void tst_ConversationStore::createdAndUpdated()
{
    QTemporaryDir dir;
    ConversationStore store(dir.path());
    const QDateTime before = QDateTime::currentDateTimeUtc().addSecs(-1);
    const QString id = store.create(QStringLiteral("t"), QString());
    QVERIFY(!id.isEmpty());
    const std::optional<Conversation> loaded = store.load(id);
    QVERIFY(loaded);
    QVERIFY(loaded->created.isValid());
    QVERIFY(loaded->created >= before);
    QVERIFY(loaded->created <= QDateTime::currentDateTimeUtc().addSecs(1));
    QVERIFY(loaded->updated.isValid());
    QVERIFY(loaded->messages.empty());
}

// A conversation a remote agent started says so: in its file, in list() (from the file and
// from the index) and when loaded; the user's own have no origin.
// A tool result's screenshot (or any attachment over 64 KiB) is kept in blobs/<sha256>, named
// on the message's line; it loads back whole, and a blob changed behind the store's back is
// left out rather than trusted.
void tst_ConversationStore::bigAttachmentsGoToBlobFiles()
{
    QTemporaryDir dir;
    ConversationStore store(dir.path());
    const QString id = store.create(QStringLiteral("shots"), QStringLiteral("/ws"));
    QByteArray big(200 * 1024, '\0');
    for (int i = 0; i < big.size(); ++i)
        big[i] = char(i * 7);
    ChatMessage result;
    result.role = ChatMessage::Role::Tool;
    result.toolCallId = QStringLiteral("c1");
    result.toolName = QStringLiteral("shot");
    result.text = QStringLiteral("[image image/png]");
    result.attachments.push_back(
            {QStringLiteral("shot image 1"), QStringLiteral("image/png"), big});
    result.attachments.push_back(
            {QStringLiteral("small"), QStringLiteral("image/png"), QByteArray("PNG!")});
    QString error;
    QVERIFY2(store.append(id, result, &error), qPrintable(error));
    store.flush();
    const QString digest = QString::fromLatin1(
            QCryptographicHash::hash(big, QCryptographicHash::Sha256).toHex());
    QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("blobs/") + digest)));
    QFile file(dir.filePath(id + QStringLiteral(".jsonl")));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.size() < 10 * 1024); // the line names the blob, the small one stays inline
    file.close();
    const auto loaded = store.load(id);
    QVERIFY(loaded);
    QCOMPARE(loaded->messages.size(), std::size_t(1));
    QCOMPARE(loaded->messages[0].attachments.size(), std::size_t(2));
    QCOMPARE(loaded->messages[0].attachments[0].data, big);
    QCOMPARE(loaded->messages[0].attachments[1].data, QByteArray("PNG!"));
    QCOMPARE(store.list().front().messageCount, 1);

    QFile blob(dir.filePath(QStringLiteral("blobs/") + digest));
    QVERIFY(blob.open(QIODevice::ReadWrite));
    blob.seek(10);
    blob.write("tampered");
    blob.close();
    const auto again = ConversationStore(dir.path()).load(id);
    QVERIFY(again);
    QCOMPARE(again->messages.size(), std::size_t(1));                // the message stays
    QCOMPARE(again->messages[0].attachments.size(), std::size_t(1)); // without the altered blob
    QCOMPARE(again->messages[0].attachments[0].name, QStringLiteral("small"));
}

void tst_ConversationStore::originIsKept()
{
    QTemporaryDir dir;
    QString inbound;
    {
        ConversationStore store(dir.path());
        store.list(); // the index is in use: create() records the new one there
        inbound = store.create(QStringLiteral("asked"), QStringLiteral("/ws"), nullptr,
                               QStringLiteral("a2a-inbound"));
        const QString mine = store.create(QStringLiteral("mine"), QStringLiteral("/ws"));
        QVERIFY(!inbound.isEmpty() && !mine.isEmpty());
        QCOMPARE(store.load(inbound)->origin, QStringLiteral("a2a-inbound"));
        QCOMPARE(store.load(mine)->origin, QString());
        for (const ConversationInfo &info : store.list())
            QCOMPARE(info.origin, info.id == inbound ? QStringLiteral("a2a-inbound") : QString());
        store.flush();
    }
    QFile file(dir.filePath(inbound + QStringLiteral(".jsonl")));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readLine().contains("\"origin\":\"a2a-inbound\""));
    ConversationStore again(dir.path()); // reads the index this time
    bool found = false;
    for (const ConversationInfo &info : again.list())
        found = found || (info.id == inbound && info.origin == QLatin1String("a2a-inbound"));
    QVERIFY(found);
}

void tst_ConversationStore::listNewestFirst()
{
    QTemporaryDir dir;
    ConversationStore store(dir.path());
    QVERIFY(store.list().isEmpty());
    const QString first = store.create(QStringLiteral("first"), QStringLiteral("/w1"));
    const QString second = store.create(QStringLiteral("second"), QStringLiteral("/w2"));
    const QString third = store.create(QStringLiteral("third"), QStringLiteral("/w3"));
    QVERIFY(!first.isEmpty() && !second.isEmpty() && !third.isEmpty());
    QVERIFY(store.append(second, textMessage(ChatMessage::Role::User, QStringLiteral("a"))));
    QVERIFY(store.append(second, textMessage(ChatMessage::Role::Assistant, QStringLiteral("b"))));

    // Modification times decide the order; set them instead of sleeping.
    const QDateTime now = QDateTime::currentDateTime();
    const auto setTime = [&](const QString &id, int secondsAgo) {
        QFile file(store.filePath(id));
        return file.open(QIODevice::ReadWrite)
               && file.setFileTime(now.addSecs(-secondsAgo), QFileDevice::FileModificationTime);
    };
    QVERIFY(setTime(first, 30));
    QVERIFY(setTime(second, 10));
    QVERIFY(setTime(third, 20));
    // Not a conversation: ignored.
    writeFile(dir.filePath(QStringLiteral("notes.txt")), "hello");
    writeFile(dir.filePath(QStringLiteral("bad name.jsonl")), "{}");

    QList<ConversationInfo> infos = store.list();
    QCOMPARE(infos.size(), 3);
    QCOMPARE(infos.at(0).id, second);
    QCOMPARE(infos.at(0).title, QStringLiteral("second"));
    QCOMPARE(infos.at(0).workspace, QStringLiteral("/w2"));
    QCOMPARE(infos.at(0).messageCount, 2);
    QCOMPARE(infos.at(1).id, third);
    QCOMPARE(infos.at(1).messageCount, 0);
    QCOMPARE(infos.at(2).id, first);
    QVERIFY(infos.at(0).created.isValid());

    // Appending moves a conversation to the top and is seen even by a cached list.
    QVERIFY(store.append(first, textMessage(ChatMessage::Role::User, QStringLiteral("c"))));
    infos = store.list();
    QCOMPARE(infos.at(0).id, first);
    QCOMPARE(infos.at(0).messageCount, 1);

    // A conversation with a damaged header is left out, not fatal.
    writeFile(store.filePath(third), "garbage\n");
    infos = store.list();
    QCOMPARE(infos.size(), 2);
}

void tst_ConversationStore::rename()
{
    QTemporaryDir dir;
    ConversationStore store(dir.path());
    const QString id = store.create(QStringLiteral("old"), QString());
    QVERIFY(store.append(id, textMessage(ChatMessage::Role::User, QStringLiteral("hi"))));
    const QByteArray before = readFile(store.filePath(id));
    QSignalSpy changed(&store, &ConversationStore::conversationsChanged);
    QString error;
    QVERIFY2(store.rename(id, QString::fromUtf8("nouveau titre ✓"), &error), qPrintable(error));
    QCOMPARE(changed.count(), 1);
    QVERIFY(store.rename(id, QStringLiteral("newest")));

    // Append-only: the file was extended, not rewritten.
    const QByteArray after = readFile(store.filePath(id));
    QVERIFY(after.startsWith(before));
    QCOMPARE(after.count('\n'), before.count('\n') + 2);

    const std::optional<Conversation> loaded = store.load(id);
    QVERIFY(loaded);
    QCOMPARE(loaded->title, QStringLiteral("newest"));
    QCOMPARE(loaded->messages.size(), size_t(1));
    QCOMPARE(loaded->skippedLines, 0);
    QCOMPARE(store.list().at(0).title, QStringLiteral("newest"));

    QVERIFY(!store.rename(QStringLiteral("00000000-0000-0000-0000-000000000000"),
                          QStringLiteral("x"), &error));
    QVERIFY(!error.isEmpty());
}

void tst_ConversationStore::remove()
{
    QTemporaryDir dir;
    ConversationStore store(dir.path());
    const QString keep = store.create(QStringLiteral("keep"), QString());
    const QString drop = store.create(QStringLiteral("drop"), QString());
    QVERIFY(store.append(drop, textMessage(ChatMessage::Role::User, QStringLiteral("x"))));
    QCOMPARE(store.list().size(), 2);
    QSignalSpy changed(&store, &ConversationStore::conversationsChanged);
    QString error;
    QVERIFY2(store.remove(drop, &error), qPrintable(error));
    QCOMPARE(changed.count(), 1);
    QVERIFY(!QFile::exists(store.filePath(drop)));
    QCOMPARE(store.list().size(), 1);
    QCOMPARE(store.list().at(0).id, keep);
    QVERIFY(!store.load(drop, &error));
    QVERIFY(!store.append(drop, textMessage(ChatMessage::Role::User, QStringLiteral("y"))));
    QVERIFY(!QFile::exists(store.filePath(drop))); // no headerless file appears
    QVERIFY(!store.remove(drop, &error));
    QVERIFY(!error.isEmpty());
}

void tst_ConversationStore::invalidIds_data()
{
    QTest::addColumn<QString>("id");
    QTest::newRow("empty") << QString();
    QTest::newRow("parent") << QStringLiteral("..");
    QTest::newRow("dot") << QStringLiteral(".");
    QTest::newRow("slash") << QStringLiteral("../victim");
    QTest::newRow("backslash") << QStringLiteral("..\\victim");
    QTest::newRow("absolute") << QStringLiteral("/etc/passwd");
    QTest::newRow("drive") << QStringLiteral("C:x");
    QTest::newRow("space") << QStringLiteral("a b");
    QTest::newRow("nul") << QStringLiteral("a") + QChar(0) + QStringLiteral("b");
    QTest::newRow("unicode") << QString::fromUtf8("ид");
    QTest::newRow("too long") << QString(200, u'a');
}

void tst_ConversationStore::invalidIds()
{
    QFETCH(QString, id);
    QTemporaryDir dir;
    // The victim a path escape would reach.
    writeFile(dir.filePath(QStringLiteral("victim.jsonl")), "precious\n");
    ConversationStore store(dir.path() + QStringLiteral("/store"));
    QVERIFY(!store.create(QStringLiteral("t"), QString()).isEmpty());
    QVERIFY(!ConversationStore::isValidId(id));
    QString error;
    QVERIFY(!store.append(id, textMessage(ChatMessage::Role::User, QStringLiteral("x")), &error));
    QVERIFY(error.contains(QStringLiteral("not a valid conversation id")));
    error.clear();
    QVERIFY(!store.load(id, &error));
    QVERIFY(!error.isEmpty());
    error.clear();
    QVERIFY(!store.rename(id, QStringLiteral("x"), &error));
    QVERIFY(!error.isEmpty());
    error.clear();
    QVERIFY(!store.remove(id, &error));
    QVERIFY(!error.isEmpty());
    QCOMPARE(readFile(dir.filePath(QStringLiteral("victim.jsonl"))), QByteArray("precious\n"));
}

void tst_ConversationStore::missingConversation()
{
    QTemporaryDir dir;
    const ConversationStore store(dir.path() + QStringLiteral("/never-created"));
    QString error;
    QVERIFY(!store.load(QStringLiteral("abc"), &error));
    QVERIFY(error.contains(QStringLiteral("abc.jsonl")));
    QVERIFY(store.list().isEmpty());
}

void tst_ConversationStore::truncatedLastLine_data()
{
    QTest::addColumn<int>("cut"); // bytes removed from the end of the file
    // 1: only the newline is gone (the line is complete JSON); the others cut into the JSON.
    for (int cut : {1, 2, 3, 10, 50, 100, 500})
        QTest::addRow("cut %d", cut) << cut;
}

void tst_ConversationStore::truncatedLastLine()
{
    QFETCH(int, cut);
    QTemporaryDir dir;
    ConversationStore store(dir.path());
    const QString id = store.create(QStringLiteral("t"), QString());
    for (int i = 1; i <= 5; ++i)
        QVERIFY(store.append(id, numberedMessage(i)));
    const QString path = store.filePath(id);
    const QByteArray full = readFile(path);
    writeFile(path, full.left(full.size() - cut));

    const ConversationStore reader(dir.path());
    QString error;
    const std::optional<Conversation> loaded = reader.load(id, &error);
    QVERIFY2(loaded, qPrintable(error));
    if (cut == 1) {
        QCOMPARE(loaded->messages.size(), size_t(5));
        QCOMPARE(loaded->skippedLines, 0);
    } else {
        QCOMPARE(loaded->messages.size(), size_t(4));
        QCOMPARE(loaded->skippedLines, 1);
    }
    for (size_t i = 0; i < loaded->messages.size(); ++i)
        QVERIFY(isIntactNumberedMessage(loaded->messages[i], int(i) + 1));
    QCOMPARE(reader.list().at(0).messageCount, int(loaded->messages.size()));
}

void tst_ConversationStore::garbledLinesInTheMiddle()
{
    QTemporaryDir dir;
    ConversationStore store(dir.path());
    const QString id = store.create(QStringLiteral("t"), QString());
    QVERIFY(store.append(id, numberedMessage(1)));
    const QString path = store.filePath(id);
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::Append));
        file.write("not json at all\n");
        file.write("{\"type\":\"message\",\"time\":\"x\",\"message\":{\"role\":\"wizard\"}}\n");
        file.write("{\"type\":\"message\",\"message\":{\"role\":\"user\",\"text\":5}}\n");
        file.write("{\"type\":\"future-record\",\"x\":1}\n");
        file.write("[1,2,3]\n");
        file.write("\n   \n"); // blank lines are not damage
        file.write(
                "{\"type\":\"message\",\"time\":\"x\",\"message\":{\"role\":\"user\",\"te\xff\xfe");
        file.write("\n");
    }
    QVERIFY(store.append(id, numberedMessage(2)));

    QString error;
    const std::optional<Conversation> loaded = store.load(id, &error);
    QVERIFY2(loaded, qPrintable(error));
    QCOMPARE(loaded->messages.size(), size_t(2));
    QVERIFY(isIntactNumberedMessage(loaded->messages[0], 1));
    QVERIFY(isIntactNumberedMessage(loaded->messages[1], 2));
    QCOMPARE(loaded->skippedLines, 6);
    QCOMPARE(store.list().at(0).messageCount, 2);
}

void tst_ConversationStore::damagedHeader()
{
    QTemporaryDir dir;
    const ConversationStore store(dir.path());
    QString error;
    writeFile(store.filePath(QStringLiteral("empty")), QByteArray());
    QVERIFY(!store.load(QStringLiteral("empty"), &error));
    QVERIFY(!error.isEmpty());
    writeFile(store.filePath(QStringLiteral("garbage")), "\x01\x02{{{\n{\"type\":\"message\"}\n");
    QVERIFY(!store.load(QStringLiteral("garbage"), &error));
    QVERIFY(error.contains(QStringLiteral("header")));
    writeFile(store.filePath(QStringLiteral("future")),
              "{\"type\":\"conversation\",\"version\":2,\"id\":\"future\"}\n");
    QVERIFY(!store.load(QStringLiteral("future"), &error));
    QVERIFY(error.contains(QStringLiteral("version 2")));
    QVERIFY(store.list().isEmpty());
}

// After a crash mid-write the file ends without a newline; the next message must not be glued
// to the damaged line.
void tst_ConversationStore::appendAfterTruncation()
{
    QTemporaryDir dir;
    QString id;
    {
        ConversationStore store(dir.path());
        id = store.create(QStringLiteral("t"), QString());
        QVERIFY(store.append(id, numberedMessage(1)));
        QVERIFY(store.append(id, numberedMessage(2)));
    }
    const QString path = QDir(dir.path()).filePath(id + QStringLiteral(".jsonl"));
    const QByteArray full = readFile(path);
    writeFile(path, full.left(full.size() - 40));

    ConversationStore store(dir.path());
    QVERIFY(store.append(id, numberedMessage(3)));
    QVERIFY(store.append(id, numberedMessage(4)));
    const std::optional<Conversation> loaded = store.load(id);
    QVERIFY(loaded);
    QCOMPARE(loaded->skippedLines, 1);
    QCOMPARE(loaded->messages.size(), size_t(3));
    QVERIFY(isIntactNumberedMessage(loaded->messages[0], 1));
    QVERIFY(isIntactNumberedMessage(loaded->messages[1], 3));
    QVERIFY(isIntactNumberedMessage(loaded->messages[2], 4));
}

void tst_ConversationStore::fileRemovedBehindOpenHandle()
{
    QTemporaryDir dir;
    ConversationStore store(dir.path());
    const QString id = store.create(QStringLiteral("t"), QString());
    QVERIFY(store.append(id, numberedMessage(1))); // the handle stays open
    QVERIFY(QFile::remove(store.filePath(id)));
    QString error;
    QVERIFY(!store.append(id, numberedMessage(2), &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(!QFile::exists(store.filePath(id)));
}

// Appends are crash-safe (Engine::ConversationStore). A child appends as fast as it can; once it
// has reported kMessagesBeforeKill finished appends it is killed (SIGKILL on POSIX,
// TerminateProcess on Windows), possibly in the middle of a write. Every reported message must be
// there, intact.
void tst_ConversationStore::killedWhileAppending()
{
    QTemporaryDir dir;
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QLatin1String(kChildFolderVariable), dir.path());
    child.setProcessEnvironment(env);
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    child.start(QCoreApplication::applicationFilePath(), {});
    QVERIFY2(child.waitForStarted(10000), qPrintable(child.errorString()));

    QString id;
    int reported = 0;
    QByteArray pending;
    QDeadlineTimer deadline(60000);
    while (reported < kMessagesBeforeKill && !deadline.hasExpired()) {
        if (!child.waitForReadyRead(1000) && child.state() != QProcess::Running)
            break;
        pending += child.readAllStandardOutput();
        qsizetype newline;
        while ((newline = pending.indexOf('\n')) >= 0) {
            const QByteArray line = pending.left(newline);
            pending.remove(0, newline + 1);
            if (line.startsWith("id "))
                id = QString::fromLatin1(line.mid(3));
            else if (line.startsWith("appended "))
                reported = line.mid(9).toInt();
        }
    }
    QCOMPARE(child.state(), QProcess::Running);
    child.kill();
    QVERIFY(child.waitForFinished(10000));
    QCOMPARE(child.exitStatus(), QProcess::CrashExit);
    QVERIFY(reported >= kMessagesBeforeKill);
    QVERIFY(!id.isEmpty());

    const ConversationStore store(dir.path());
    QString error;
    const std::optional<Conversation> loaded = store.load(id, &error);
    QVERIFY2(loaded, qPrintable(error));
    QVERIFY2(loaded->messages.size() >= size_t(reported),
             qPrintable(QStringLiteral("%1 messages on disk, %2 reported")
                                .arg(loaded->messages.size())
                                .arg(reported)));
    QVERIFY(loaded->skippedLines <= 1); // at most the line being written when killed
    for (size_t i = 0; i < loaded->messages.size(); ++i)
        QVERIFY2(isIntactNumberedMessage(loaded->messages[i], int(i) + 1),
                 qPrintable(QStringLiteral("message %1 is damaged").arg(i + 1)));
}

// Conversations hold what the user said and what tools returned: 0600 files in 0700 folders,
// and a file left readable by an older version is restricted when it is next written.
void tst_ConversationStore::filesArePrivate()
{
#ifndef Q_OS_UNIX
    QSKIP("POSIX permissions");
#else
    const auto ownerFile = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadUser
                           | QFileDevice::WriteUser;
    const auto ownerDir = ownerFile | QFileDevice::ExeOwner | QFileDevice::ExeUser;
    QTemporaryDir dir;
    const QString folder = dir.path() + QStringLiteral("/data/conversations");
    ConversationStore store(folder);
    QString error;
    const QString id = store.create(QStringLiteral("private"), QStringLiteral("/ws"), &error);
    QVERIFY2(!id.isEmpty(), qPrintable(error));
    const QString path = folder + QLatin1Char('/') + id + QStringLiteral(".jsonl");
    QVERIFY(QFileInfo::exists(path));
    QCOMPARE(posixMode(path), 0600);
    QCOMPARE(posixMode(folder), 0700);

    // An older version's world-readable file and folder.
    ConversationStore other(folder);
    QVERIFY(QFile::setPermissions(path,
                                  ownerFile | QFileDevice::ReadGroup | QFileDevice::ReadOther));
    QVERIFY(QFile::setPermissions(folder,
                                  ownerDir | QFileDevice::ReadOther | QFileDevice::ExeOther));
    QVERIFY2(other.append(id, textMessage(ChatMessage::Role::User, QStringLiteral("hi")), &error),
             qPrintable(error));
    QCOMPARE(posixMode(path), 0600);
    QCOMPARE(posixMode(folder), 0700);
#endif
}

namespace {

// Changes a file's bytes without changing its size or modification time: only a reader that
// opens the file can tell.
bool rewriteUnnoticed(const QString &path, const QByteArray &from, const QByteArray &to)
{
    Q_ASSERT(from.size() == to.size());
    const QDateTime modified = QFileInfo(path).lastModified();
    QByteArray data = readFile(path);
    if (!data.contains(from))
        return false;
    data.replace(from, to);
    QFile file(path);
    // Flushed before the time is set: a write at close would move it again.
    return file.open(QIODevice::WriteOnly) && file.write(data) == data.size() && file.flush()
           && file.setFileTime(modified, QFileDevice::FileModificationTime);
}

const ConversationInfo *findInfo(const QList<ConversationInfo> &infos, const QString &id)
{
    for (const ConversationInfo &info : infos) {
        if (info.id == id)
            return &info;
    }
    return nullptr;
}

} // namespace

// A restarted application lists conversations from index.json and a stat per file: a file
// whose size and time did not change is not read at all.
void tst_ConversationStore::listReadsTheIndexNotTheFiles()
{
    QTemporaryDir dir;
    QString first;
    QString second;
    {
        ConversationStore store(dir.path());
        QVERIFY(store.list().isEmpty());
        first = store.create(QStringLiteral("first title"), QStringLiteral("/w1"));
        second = store.create(QStringLiteral("second title"), QStringLiteral("/w2"));
        QVERIFY(store.append(first, textMessage(ChatMessage::Role::User, QStringLiteral("a"))));
        QVERIFY(store.append(first, textMessage(ChatMessage::Role::User, QStringLiteral("b"))));
        QCOMPARE(store.list().size(), 2);
    } // the destructor saves the index
    QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("index.json"))));
#ifdef Q_OS_UNIX
    QCOMPARE(posixMode(dir.filePath(QStringLiteral("index.json"))), 0600);
#endif

    QVERIFY(rewriteUnnoticed(dir.filePath(first + QStringLiteral(".jsonl")), "first title",
                             "FIRST TITLE"));
    {
        const ConversationStore store(dir.path());
        const QList<ConversationInfo> infos = store.list();
        QCOMPARE(infos.size(), 2);
        const ConversationInfo *info = findInfo(infos, first);
        QVERIFY(info);
        QCOMPARE(info->title, QStringLiteral("first title")); // from the index
        QCOMPARE(info->workspace, QStringLiteral("/w1"));
        QCOMPARE(info->messageCount, 2);
        QVERIFY(info->created.isValid());
        QVERIFY(findInfo(infos, second));
    }

    // A file that changed (its time moved) is read again.
    QFile file(dir.filePath(first + QStringLiteral(".jsonl")));
    QVERIFY(file.open(QIODevice::ReadWrite));
    QVERIFY(file.setFileTime(QDateTime::currentDateTime().addSecs(-100),
                             QFileDevice::FileModificationTime));
    file.close();
    const ConversationStore store(dir.path());
    const QList<ConversationInfo> infos = store.list(); // findInfo points into it
    const ConversationInfo *info = findInfo(infos, first);
    QVERIFY(info);
    QCOMPARE(info->title, QStringLiteral("FIRST TITLE"));
}

// What this store writes itself keeps the index current without reading the file back.
void tst_ConversationStore::indexFollowsAppendsAndRenames()
{
    QTemporaryDir dir;
    QString id;
    {
        ConversationStore store(dir.path());
        QVERIFY(store.list().isEmpty());
        id = store.create(QStringLiteral("t"), QStringLiteral("/w"));
        QCOMPARE(store.list().size(), 1);
        QCOMPARE(store.list().at(0).messageCount, 0);
        for (int i = 1; i <= 3; ++i)
            QVERIFY(store.append(id, numberedMessage(i)));
        QVERIFY(store.rename(id, QString::fromUtf8("renamed ✓")));
        const QList<ConversationInfo> infos = store.list();
        QCOMPARE(infos.size(), 1);
        QCOMPARE(infos.at(0).messageCount, 3);
        QCOMPARE(infos.at(0).title, QString::fromUtf8("renamed ✓"));
        QCOMPARE(infos.at(0).updated, QFileInfo(store.filePath(id)).lastModified());
    }
    // Not read back after the appends: a change the index cannot see stays unseen.
    QVERIFY(rewriteUnnoticed(dir.filePath(id + QStringLiteral(".jsonl")), "\"title\":\"renamed",
                             "\"title\":\"RENAMED"));
    const ConversationStore store(dir.path());
    const QList<ConversationInfo> infos = store.list();
    QCOMPARE(infos.size(), 1);
    QCOMPARE(infos.at(0).messageCount, 3);
    QCOMPARE(infos.at(0).title, QString::fromUtf8("renamed ✓"));
    QCOMPARE(infos.at(0).workspace, QStringLiteral("/w"));
    // load() always reads the file.
    const std::optional<Conversation> loaded = store.load(id);
    QVERIFY(loaded);
    QCOMPARE(loaded->title, QString::fromUtf8("RENAMED ✓"));
}

// A second writer (another window, switchboard-cli run) appends to a conversation this store
// has listed: the next list() counts its messages too.
void tst_ConversationStore::anotherWriterIsNoticed()
{
    QTemporaryDir dir;
    ConversationStore mine(dir.path());
    ConversationStore theirs(dir.path());
    const QString id = mine.create(QStringLiteral("shared"), QString());
    QCOMPARE(mine.list().at(0).messageCount, 0);
    QVERIFY(theirs.append(id, numberedMessage(1)));
    QVERIFY(theirs.append(id, numberedMessage(2)));
    QCOMPARE(mine.list().at(0).messageCount, 2);
    // Both write now; each one's own bookkeeping must not hide the other's message.
    QVERIFY(mine.append(id, numberedMessage(3)));
    QVERIFY(theirs.append(id, numberedMessage(4)));
    QVERIFY(mine.append(id, numberedMessage(5)));
    QCOMPARE(mine.list().at(0).messageCount, 5);
    QCOMPARE(theirs.list().at(0).messageCount, 5);
}

void tst_ConversationStore::damagedIndexIsIgnored_data()
{
    QTest::addColumn<QByteArray>("index");
    QTest::newRow("garbage") << QByteArray("not json at all");
    QTest::newRow("cut short") << QByteArray("{\"version\":1,\"conversations\":{\"a");
    QTest::newRow("newer version") << QByteArray("{\"version\":9,\"conversations\":{}}");
    QTest::newRow("wrong types") << QByteArray(
            "{\"version\":1,\"conversations\":{\"ID\":{\"size\":\"x\","
            "\"modified\":[],\"messages\":{},\"unreadable\":\"no\"}}}");
    QTest::newRow("array") << QByteArray("[1,2,3]");
    QTest::newRow("empty") << QByteArray();
}

// A damaged index costs reading the files again, nothing more.
void tst_ConversationStore::damagedIndexIsIgnored()
{
    QFETCH(QByteArray, index);
    QTemporaryDir dir;
    QString id;
    {
        ConversationStore store(dir.path());
        id = store.create(QStringLiteral("kept"), QStringLiteral("/w"));
        QVERIFY(store.append(id, numberedMessage(1)));
        QCOMPARE(store.list().size(), 1);
    }
    index.replace("ID", id.toUtf8());
    writeFile(dir.filePath(QStringLiteral("index.json")), index);
    {
        const ConversationStore store(dir.path());
        const QList<ConversationInfo> infos = store.list();
        QCOMPARE(infos.size(), 1);
        QCOMPARE(infos.at(0).title, QStringLiteral("kept"));
        QCOMPARE(infos.at(0).messageCount, 1);
    }
    // ... and the next run has a good index again.
    QVERIFY(readFile(dir.filePath(QStringLiteral("index.json"))).startsWith("{\"version\":1,"));
}

// An edited or retried turn: a truncate record drops what followed, the file keeps it all;
// a hand-edited record with a hostile count never drops more than there is or crashes.
void tst_ConversationStore::truncateKeepsTheFirstMessages()
{
    QTemporaryDir dir;
    ConversationStore store(dir.path());
    QVERIFY(store.list().isEmpty());
    const QString id = store.create(QStringLiteral("t"), QString());
    for (int i = 1; i <= 4; ++i)
        QVERIFY(store.append(id, numberedMessage(i)));
    QVERIFY(store.truncate(id, 2));
    QVERIFY(store.append(id, numberedMessage(5)));
    QCOMPARE(store.list().at(0).messageCount, 3);
    std::optional<Conversation> loaded = store.load(id);
    QVERIFY(loaded);
    QCOMPARE(loaded->messages.size(), size_t(3));
    QVERIFY(isIntactNumberedMessage(loaded->messages[1], 2));
    QVERIFY(isIntactNumberedMessage(loaded->messages[2], 5));
    QVERIFY(readFile(store.filePath(id)).contains("message 4 "));

    QFile file(store.filePath(id));
    QVERIFY(file.open(QIODevice::Append));
    file.write("{\"type\":\"truncate\",\"messages\":-5}\n"
               "{\"type\":\"truncate\",\"messages\":\"all\"}\n"
               "{\"type\":\"truncate\",\"messages\":99999999999999}\n");
    file.close();
    loaded = ConversationStore(dir.path()).load(id);
    QVERIFY(loaded);
    QCOMPARE(loaded->messages.size(), size_t(3));
    QCOMPARE(loaded->skippedLines, 2); // the negative and the string one
    QCOMPARE(ConversationStore(dir.path()).list().at(0).messageCount, 3);
}

// Search looks in what the user and the assistant wrote (not tool results), ASCII letters in
// either case, Chinese as typed; a hit names the message and shows its line.
void tst_ConversationStore::searchFindsWordsInMessages()
{
    QTemporaryDir dir;
    ConversationStore store(dir.path());
    const QString a = store.create(QStringLiteral("fruit"), QString());
    const QString b = store.create(QStringLiteral("other"), QString());
    QVERIFY(store.append(a,
                         textMessage(ChatMessage::Role::User, QStringLiteral("I like banana7."))));
    QVERIFY(store.append(a, textMessage(ChatMessage::Role::Assistant,
                                        QStringLiteral("First line\nNeedle-250 is here\n"
                                                       "香蕉 and banana7 again"))));
    ChatMessage tool = textMessage(ChatMessage::Role::Tool, QStringLiteral("toolonly result"));
    tool.toolCallId = QStringLiteral("c1");
    QVERIFY(store.append(a, tool));
    QVERIFY(store.append(b, textMessage(ChatMessage::Role::User, QStringLiteral("nothing here"))));
    store.flush();
    // b is the newer, whatever the clock's granularity: appends in one millisecond tie.
    {
        QFile file(store.filePath(b));
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.setFileTime(QDateTime::currentDateTime().addSecs(60),
                                 QFileDevice::FileModificationTime));
    }

    QList<SearchHit> hits = store.search(QStringLiteral("BANANA7"));
    QCOMPARE(hits.size(), 1);
    QCOMPARE(hits[0].id, a);
    QCOMPARE(hits[0].message, 0);
    QCOMPARE(hits[0].line, QStringLiteral("I like banana7."));
    QCOMPARE(hits[0].count, 2);
    hits = store.search(QStringLiteral("  needle-250 "));
    QCOMPARE(hits.size(), 1);
    QCOMPARE(hits[0].message, 1);
    QCOMPARE(hits[0].line, QStringLiteral("Needle-250 is here"));
    hits = store.search(QStringLiteral("香蕉"));
    QCOMPARE(hits.size(), 1);
    QCOMPARE(hits[0].line, QStringLiteral("香蕉 and banana7 again"));
    QVERIFY(store.search(QStringLiteral("toolonly")).isEmpty());
    QVERIFY(store.search(QStringLiteral("banana7.\u0000First")).isEmpty()); // never across
    QVERIFY(store.search(QString()).isEmpty());
    QCOMPARE(store.search(QStringLiteral("here")).size(), 2); // newest first
    QCOMPARE(store.search(QStringLiteral("here")).at(0).id, b);
    QCOMPARE(store.search(QStringLiteral("here"), 1).size(), 1);

    // An edit that drops the answer drops its words.
    QVERIFY(store.truncate(a, 1));
    QVERIFY(store.search(QStringLiteral("needle-250")).isEmpty());
    QCOMPARE(store.search(QStringLiteral("banana7")).at(0).count, 1);
}

// search.idx is written beside index.json and read by the next store; a file changed behind
// the store's back, or a damaged search.idx, costs reading the files again, never a wrong hit.
void tst_ConversationStore::searchIndexFollowsTheFiles()
{
    QTemporaryDir dir;
    QString id;
    {
        ConversationStore store(dir.path());
        id = store.create(QStringLiteral("t"), QString());
        QVERIFY(store.append(id, textMessage(ChatMessage::Role::User, QStringLiteral("alpha1"))));
        QCOMPARE(store.search(QStringLiteral("alpha1")).size(), 1);
        store.flush();
    }
    QVERIFY(QFileInfo::exists(QDir(dir.path()).filePath(QStringLiteral("search.idx"))));
    {
        ConversationStore store(dir.path());
        QCOMPARE(store.search(QStringLiteral("alpha1")).size(), 1);
        // Another writer appends: the next search sees it.
        ConversationStore other(dir.path());
        QVERIFY(other.append(id,
                             textMessage(ChatMessage::Role::Assistant, QStringLiteral("beta2"))));
        QCOMPARE(store.search(QStringLiteral("beta2")).size(), 1);
        store.flush();
        other.flush();
    }
    // A damaged search index: read again from the files.
    const QString index = QDir(dir.path()).filePath(QStringLiteral("search.idx"));
    QByteArray bytes = readFile(index);
    QVERIFY(bytes.size() > 20);
    for (const QByteArray &damaged : {QByteArray("garbage"), bytes.left(bytes.size() / 2),
                                      QByteArray(bytes).replace("beta2", "gamma")}) {
        writeFile(index, damaged);
        ConversationStore store(dir.path());
        QCOMPARE(store.search(QStringLiteral("beta2")).size(), 1);
        QCOMPARE(store.search(QStringLiteral("alpha1")).size(), 1);
    }
}

// Each message is searched in its first 16 KiB, a conversation in its first 512 KiB; a cut
// line says so.
void tst_ConversationStore::searchIsBounded()
{
    QTemporaryDir dir;
    ConversationStore store(dir.path());
    const QString id = store.create(QStringLiteral("big"), QString());
    const QString long1 = QString(300, u'a') + QStringLiteral(" target1 ") + QString(300, u'b');
    QVERIFY(store.append(id, textMessage(ChatMessage::Role::User, long1)));
    const QList<SearchHit> hits = store.search(QStringLiteral("target1"));
    QCOMPARE(hits.size(), 1);
    QVERIFY(hits[0].line.startsWith(QChar(0x2026)) && hits[0].line.endsWith(QChar(0x2026)));
    QVERIFY(hits[0].line.size() <= SearchText::MaxLineChars + 2);
    QVERIFY(hits[0].line.contains(QLatin1String("target1")));

    const QString late = QString(SearchText::MaxMessageBytes, u'x') + QStringLiteral(" late1");
    QVERIFY(store.append(id, textMessage(ChatMessage::Role::Assistant, late)));
    QVERIFY(store.search(QStringLiteral("late1")).isEmpty());
    QCOMPARE(store.search(QStringLiteral("xxxx")).size(), 1);
    for (int i = 0; i < 40; ++i)
        QVERIFY(store.append(id, textMessage(ChatMessage::Role::User, QString(16000, u'y'))));
    QVERIFY(store.append(id, textMessage(ChatMessage::Role::User, QStringLiteral("after1"))));
    QVERIFY(store.search(QStringLiteral("after1")).isEmpty());
    // Read from the file, the same bounds hold.
    QVERIFY(ConversationStore(dir.path()).search(QStringLiteral("after1")).isEmpty());
    QCOMPARE(ConversationStore(dir.path()).search(QStringLiteral("target1")).size(), 1);
}

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QString childFolder = qEnvironmentVariable(kChildFolderVariable);
    if (!childFolder.isEmpty())
        return runChild(childFolder);
    tst_ConversationStore test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_conversationstore.moc"
