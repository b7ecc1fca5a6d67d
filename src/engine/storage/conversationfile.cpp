// ConversationStore: what a conversation file holds, read back the same way by load() and list().
#include "conversationfile.h"

#include "conversationstore.h"

#include <mcp/wire/jsonparser.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <exception>
#include <string_view>

namespace Engine::ConversationFile {

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

namespace {

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

} // namespace

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
                if (result.text)
                    result.text->add(result.messageCount, *message);
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
            if (result.text)
                result.text->truncate(int(keep));
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

} // namespace Engine::ConversationFile
