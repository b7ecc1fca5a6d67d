#include "llm.h"

#include <QCoreApplication>
#include <QHash>
#include <QSet>

namespace Engine {

namespace {

// The role names are part of the conversation file format: never rename them.
const char *roleName(ChatMessage::Role role)
{
    switch (role) {
    case ChatMessage::Role::System:
        return "system";
    case ChatMessage::Role::User:
        return "user";
    case ChatMessage::Role::Assistant:
        return "assistant";
    case ChatMessage::Role::Tool:
        return "tool";
    }
    return "user";
}

std::optional<ChatMessage::Role> roleFromName(const std::string &name)
{
    if (name == "system")
        return ChatMessage::Role::System;
    if (name == "user")
        return ChatMessage::Role::User;
    if (name == "assistant")
        return ChatMessage::Role::Assistant;
    if (name == "tool")
        return ChatMessage::Role::Tool;
    return std::nullopt;
}

// An optional string member: absent or null is "", anything else but a string is malformed.
bool readString(const Json &object, const char *key, QString *out)
{
    const auto it = object.find(key);
    if (it == object.end() || it->is_null())
        return true;
    if (!it->is_string())
        return false;
    *out = QString::fromStdString(it->get_ref<const std::string &>());
    return true;
}

} // namespace

QString Attachment::modelText() const
{
    if (isAudio() || isImage()) {
        return QCoreApplication::translate("Engine::Attachment", "[%1 %2, %n bytes]", nullptr,
                                           int(data.size()))
                .arg(name, mimeType);
    }
    return QStringLiteral("[attached file %1]\n%2\n[end of %1]").arg(name, QString::fromUtf8(data));
}

bool Attachment::isModelImageType(const QString &mimeType)
{
    static const QStringList types{QStringLiteral("image/png"), QStringLiteral("image/jpeg"),
                                   QStringLiteral("image/gif"), QStringLiteral("image/webp")};
    return types.contains(mimeType);
}

Json ChatMessage::toJson() const
{
    Json json = Json::object();
    json["role"] = roleName(role);
    json["text"] = text.toStdString();
    if (!toolCalls.empty()) {
        Json calls = Json::array();
        for (const ToolCallRequest &call : toolCalls) {
            calls.push_back({{"id", call.id.toStdString()},
                             {"name", call.name.toStdString()},
                             {"arguments", call.arguments},
                             {"argumentsText", call.argumentsText.toStdString()}});
        }
        json["toolCalls"] = std::move(calls);
    }
    if (role == Role::Tool) {
        json["toolCallId"] = toolCallId.toStdString();
        json["toolName"] = toolName.toStdString();
        json["isError"] = isError;
        if (denied)
            json["denied"] = true;
    }
    if (!interruption.isEmpty())
        json["interruption"] = interruption.toStdString();
    if (!result.is_null())
        json["result"] = result;
    if (!resultNote.isEmpty())
        json["resultNote"] = resultNote.toStdString();
    if (change.is_object())
        json["change"] = change;
    if (!attachments.empty()) {
        Json list = Json::array();
        for (const Attachment &attachment : attachments) {
            list.push_back({{"name", attachment.name.toStdString()},
                            {"mimeType", attachment.mimeType.toStdString()},
                            {"data", attachment.data.toBase64().toStdString()}});
        }
        json["attachments"] = std::move(list);
    }
    return json;
}

std::optional<ChatMessage> ChatMessage::fromJson(const Json &json)
{
    if (!json.is_object())
        return std::nullopt;
    const auto roleIt = json.find("role");
    if (roleIt == json.end() || !roleIt->is_string())
        return std::nullopt;
    const auto role = roleFromName(roleIt->get_ref<const std::string &>());
    if (!role)
        return std::nullopt;

    ChatMessage message;
    message.role = *role;
    if (!readString(json, "text", &message.text)
        || !readString(json, "toolCallId", &message.toolCallId)
        || !readString(json, "toolName", &message.toolName)
        || !readString(json, "interruption", &message.interruption)
        || !readString(json, "resultNote", &message.resultNote)) {
        return std::nullopt;
    }
    if (const auto it = json.find("isError"); it != json.end() && !it->is_null()) {
        if (!it->is_boolean())
            return std::nullopt;
        message.isError = it->get<bool>();
    }
    if (const auto it = json.find("result"); it != json.end() && it->is_object()
                                             && it->contains("content")
                                             && (*it)["content"].is_array())
        message.result = *it; // anything else: not kept (the card shows the model's share)
    if (const auto it = json.find("change"); it != json.end() && it->is_object())
        message.change = *it; // read (and checked) by FileChange::fromJson
    if (const auto it = json.find("denied"); it != json.end() && !it->is_null()) {
        if (!it->is_boolean())
            return std::nullopt;
        message.denied = it->get<bool>();
    }
    if (const auto it = json.find("toolCalls"); it != json.end() && !it->is_null()) {
        if (!it->is_array())
            return std::nullopt;
        for (const Json &entry : *it) {
            if (!entry.is_object())
                return std::nullopt;
            ToolCallRequest call;
            if (!readString(entry, "id", &call.id) || !readString(entry, "name", &call.name)
                || !readString(entry, "argumentsText", &call.argumentsText)) {
                return std::nullopt;
            }
            if (const auto args = entry.find("arguments"); args != entry.end())
                call.arguments = *args;
            message.toolCalls.push_back(std::move(call));
        }
    }
    if (const auto it = json.find("attachments"); it != json.end() && !it->is_null()) {
        if (!it->is_array())
            return std::nullopt;
        for (const Json &entry : *it) {
            Attachment attachment;
            QString data;
            const auto present = [&entry](const char *key) {
                const auto it = entry.find(key);
                return it != entry.end() && it->is_string();
            };
            if (!entry.is_object() || !present("name") || !present("mimeType") || !present("data")
                || !readString(entry, "name", &attachment.name)
                || !readString(entry, "mimeType", &attachment.mimeType)
                || !readString(entry, "data", &data)) {
                return std::nullopt;
            }
            auto decoded = QByteArray::fromBase64Encoding(data.toLatin1(),
                                                          QByteArray::AbortOnBase64DecodingErrors);
            if (!decoded)
                return std::nullopt;
            attachment.data = std::move(*decoded);
            message.attachments.push_back(std::move(attachment));
        }
    }
    return message;
}

std::vector<ChatMessage> withUniqueToolCallIds(std::vector<ChatMessage> messages)
{
    QSet<QString> used;
    // Of the latest assistant turn: each original id → the ids its calls got, in order, for
    // the tool messages that follow it (they answer in the calls' order).
    QHash<QString, QStringList> answers;
    for (ChatMessage &message : messages) {
        if (message.role == ChatMessage::Role::Assistant) {
            answers.clear();
            for (ToolCallRequest &call : message.toolCalls) {
                QString id = call.id;
                for (int n = 2; id.isEmpty() || used.contains(id); ++n)
                    id = QStringLiteral("%1_%2")
                                 .arg(call.id.isEmpty() ? QStringLiteral("call") : call.id)
                                 .arg(n);
                used.insert(id);
                answers[call.id] << id;
                call.id = id;
            }
        } else if (message.role == ChatMessage::Role::Tool) {
            QStringList &ids = answers[message.toolCallId];
            if (!ids.isEmpty())
                message.toolCallId = ids.takeFirst();
        }
    }
    return messages;
}

} // namespace Engine
