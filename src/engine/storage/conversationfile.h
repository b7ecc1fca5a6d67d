#pragma once

// Internal to src/engine/storage: what ConversationStore's files share. The format of a
// conversation file and reading one back (conversationfile.cpp), the blobs kept beside the
// files (conversationblobs.cpp); the store itself is conversationstore.cpp, and what list()
// remembers in index.json is conversationindex.cpp.

#include "searchtext.h"

#include <engine/llm/llm.h>

#include <QByteArray>
#include <QDateTime>
#include <QLoggingCategory>
#include <QString>

#include <memory>
#include <optional>
#include <string>
#include <vector>

Q_DECLARE_LOGGING_CATEGORY(lcConversations)

namespace Engine::ConversationFile {

using OrderedJson = nlohmann::ordered_json;

// The format written by this version; files with another version are refused rather than
// misread.
constexpr int kFormatVersion = 1;
// A conversation with many images (base64 in tool results) can reach tens of MiB; a file
// larger than this is not read into memory at all.
constexpr qint64 kMaxFileBytes = qint64(512) * 1024 * 1024;

inline constexpr char kSuffix[] = ".jsonl";

template<typename JsonType>
std::string dumpJson(const JsonType &json)
{
    // Replace rather than throw: a tool's output may carry bytes that are not UTF-8.
    return json.dump(-1, ' ', false, JsonType::error_handler_t::replace);
}

QByteArray toBytes(const std::string &s);
QString nowText();
QString stringMember(const Json &object, const char *key);

// What a file holds; load() and list() read through the same code so they always agree on
// which lines count.
struct ScanResult
{
    QString title;
    QString workspace;
    QString origin;
    QDateTime created;
    std::vector<ChatMessage> messages; // only if asked for
    std::shared_ptr<SearchText> text;  // only if set before: what search looks in
    int messageCount = 0;
    int skippedLines = 0;
};

// false (and *error) if the header is unreadable; damaged lines after it are only counted.
bool scan(const QByteArray &data, const QString &path, bool keepMessages, ScanResult &result,
          QString *error);
std::optional<QByteArray> readFile(const QString &path, QString *error);

// The message's line with its big attachments swapped for their blob's name; each blob is
// written (once: the name is its digest) before the line that names it.
bool moveBlobsOut(const QString &folder, const ChatMessage &message, Json &json, QString *error);
// The other way: a named blob read back and checked against its name; a missing or altered
// one leaves the attachment out (the message stays).
void bringBlobsIn(const QString &folder, Json &message);

} // namespace Engine::ConversationFile
