#include "elicitation.h"

#include <mcp/wire/jsonmember.h>

#include <QCoreApplication>

namespace Engine::Elicitation {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Engine::Elicitation", text);
}

Mcp::Response action(const char *name, Json content = nullptr)
{
    Json result = {{"action", name}};
    if (!content.is_null())
        result["content"] = std::move(content);
    return Mcp::Response::success(std::move(result));
}

} // namespace

std::string oversize(const Json &params)
{
    const Json &schema = Mcp::jsonMember(params, "requestedSchema");
    const Json &properties = Mcp::jsonMember(schema, "properties");
    if (properties.is_object() && properties.size() > std::size_t(MaxFields))
        return "the elicitation asks for " + std::to_string(properties.size()) + " fields; at most "
               + std::to_string(MaxFields) + " are asked";
    const Json &url = Mcp::jsonMember(params, "url");
    if (url.is_string() && url.get_ref<const std::string &>().size() > std::size_t(MaxUrlChars))
        return "the elicitation URL is over " + std::to_string(MaxUrlChars) + " characters";
    return {};
}

QString messageOf(const Json &params)
{
    const QString message = Mcp::stringMember(params, "message");
    if (message.size() <= MaxMessageChars)
        return message;
    return message.left(MaxMessageChars) + tr(" [… cut]");
}

std::optional<Policy> policyFromName(const QString &name)
{
    if (name == QLatin1String("decline"))
        return Policy::Decline;
    if (name == QLatin1String("cancel"))
        return Policy::Cancel;
    if (name == QLatin1String("accept-defaults"))
        return Policy::AcceptDefaults;
    return std::nullopt;
}

std::optional<Json> defaults(const Json &schema, QString *missing)
{
    Json content = Json::object();
    const Json properties
            = schema.is_object() ? schema.value("properties", Json::object()) : Json::object();
    if (!properties.is_object())
        return content;
    for (const auto &[name, property] : properties.items()) {
        if (property.is_object() && property.contains("default")
            && (property["default"].is_primitive() && !property["default"].is_null()))
            content[name] = property["default"];
    }
    const Json required
            = schema.is_object() ? schema.value("required", Json::array()) : Json::array();
    for (const Json &name : required.is_array() ? required : Json::array()) {
        if (name.is_string() && !content.contains(name.get<std::string>())) {
            *missing = QString::fromStdString(name.get<std::string>());
            return std::nullopt;
        }
    }
    return content;
}

Mcp::Response answer(const Json &params, Policy policy, QString *note)
{
    const std::string mode
            = params.is_object() ? params.value("mode", std::string("form")) : std::string("form");
    switch (policy) {
    case Policy::Decline:
        *note = tr("declined");
        return action("decline");
    case Policy::Cancel:
        *note = tr("cancelled");
        return action("cancel");
    case Policy::AcceptDefaults:
        break;
    }
    if (mode != "form") {
        *note = tr("declined: a link is never opened without a person to say yes");
        return action("decline");
    }
    QString missing;
    const std::optional<Json> content = defaults(
            params.is_object() ? params.value("requestedSchema", Json::object()) : Json::object(),
            &missing);
    if (!content) {
        *note = tr("declined: the required field '%1' has no default").arg(missing);
        return action("decline");
    }
    *note = tr("accepted with the defaults");
    return action("accept", *content);
}

} // namespace Engine::Elicitation
