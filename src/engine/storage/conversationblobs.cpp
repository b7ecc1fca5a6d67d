// ConversationStore: attachments and whole results kept beside the conversations, in blobs/.
#include "conversationfile.h"

#include "conversationstore.h"
#include "privatefiles.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace Engine::ConversationFile {

namespace {

// Attachments bigger than this are kept in a file of their own (blobs/<sha256> beside the
// conversations) and named by their digest on the message's line, so a conversation file with
// screenshots stays quick to scan.
constexpr qsizetype BlobThreshold = 64 * 1024;

QString blobPath(const QString &folder, const QString &digest)
{
    return folder + QLatin1String("/blobs/") + digest;
}

// Writes a blob once: its name is its digest.
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

} // namespace

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

} // namespace Engine::ConversationFile
