#include "features.h"

#include "client.h"
#include "listing.h"

#include <QObject>

namespace Mcp {

namespace {

QString firstOf(const QString &a, const QString &b, const std::string &c)
{
    return !a.isEmpty() ? a : !b.isEmpty() ? b : QString::fromStdString(c);
}

bool hasObject(const Json &object, const char *key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_object();
}

bool isTrue(const Json &object, const char *key)
{
    const auto it = object.find(key);
    return it != object.end() && *it == true;
}

std::string stdString(const Json &object, const char *key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Reads every page of `method`, each item parsed by T::fromJson (items it refuses are
// skipped).
template<typename T>
void listTyped(Client *client, const char *method, const char *member, QObject *context,
               ListCallback<T> done)
{
    listAll(client, method, member, context,
            [done = std::move(done)](std::vector<Json> items, const QString &error) {
                std::vector<T> typed;
                typed.reserve(items.size());
                for (Json &item : items) {
                    if (auto value = T::fromJson(item))
                        typed.push_back(std::move(*value));
                }
                done(std::move(typed), error);
            });
}

Json stringObject(const std::map<std::string, std::string> &values)
{
    Json object = Json::object();
    for (const auto &[key, value] : values)
        object[key] = value;
    return object;
}

// What a resource and a template both carry.
template<typename T>
void readNames(const Json &entry, T &out)
{
    out.name = stringMember(entry, "name");
    out.title = stringMember(entry, "title");
    out.description = stringMember(entry, "description");
    out.mimeType = stringMember(entry, "mimeType");
    out.json = entry;
}

} // namespace

ServerCapabilities ServerCapabilities::fromJson(const Json &capabilities)
{
    ServerCapabilities out;
    if (!capabilities.is_object())
        return out;
    out.json = capabilities;
    out.tools = hasObject(capabilities, "tools");
    out.toolsListChanged = out.tools && isTrue(capabilities["tools"], "listChanged");
    out.resources = hasObject(capabilities, "resources");
    out.resourcesSubscribe = out.resources && isTrue(capabilities["resources"], "subscribe");
    out.resourcesListChanged = out.resources && isTrue(capabilities["resources"], "listChanged");
    out.prompts = hasObject(capabilities, "prompts");
    out.promptsListChanged = out.prompts && isTrue(capabilities["prompts"], "listChanged");
    out.logging = hasObject(capabilities, "logging");
    out.completions = hasObject(capabilities, "completions");
    out.tasks = hasObject(capabilities, "tasks");
    if (hasObject(capabilities, "extensions")) {
        for (const auto &[name, settings] : capabilities["extensions"].items())
            out.extensions.push_back(name);
    }
    return out;
}

bool ServerCapabilities::hasExtension(std::string_view name) const
{
    for (const std::string &extension : extensions) {
        if (extension == name)
            return true;
    }
    return false;
}

std::optional<Resource> Resource::fromJson(const Json &entry)
{
    if (!entry.is_object() || !entry.contains("uri") || !entry["uri"].is_string())
        return std::nullopt;
    Resource out;
    out.uri = entry["uri"].get<std::string>();
    readNames(entry, out);
    if (const auto size = entry.find("size"); size != entry.end() && size->is_number_integer())
        out.size = size->get<qint64>();
    return out;
}

QString Resource::displayName() const
{
    return firstOf(title, name, uri);
}

std::optional<ResourceTemplate> ResourceTemplate::fromJson(const Json &entry)
{
    if (!entry.is_object() || !entry.contains("uriTemplate") || !entry["uriTemplate"].is_string())
        return std::nullopt;
    ResourceTemplate out;
    out.uriTemplate = entry["uriTemplate"].get<std::string>();
    readNames(entry, out);
    return out;
}

QString ResourceTemplate::displayName() const
{
    return firstOf(title, name, uriTemplate);
}

ResourceContents ResourceContents::fromJson(const Json &item)
{
    ResourceContents out;
    if (!item.is_object())
        return out;
    out.uri = stdString(item, "uri");
    out.mimeType = stringMember(item, "mimeType");
    if (const auto text = item.find("text"); text != item.end() && text->is_string())
        out.text = QString::fromStdString(text->get<std::string>());
    else
        out.blob = QByteArray::fromBase64(QByteArray::fromStdString(stdString(item, "blob")));
    out.json = item;
    return out;
}

QString ResourceContents::describe() const
{
    return describeContent(json);
}

QString PromptMessage::describe() const
{
    return describeContent(content);
}

std::optional<Prompt> Prompt::fromJson(const Json &entry)
{
    if (!entry.is_object() || !entry.contains("name") || !entry["name"].is_string())
        return std::nullopt;
    Prompt out;
    out.name = stringMember(entry, "name");
    out.title = stringMember(entry, "title");
    out.description = stringMember(entry, "description");
    if (const auto arguments = entry.find("arguments");
        arguments != entry.end() && arguments->is_array()) {
        for (const Json &argument : *arguments) {
            if (!argument.is_object())
                continue;
            PromptArgument typed;
            typed.name = stringMember(argument, "name");
            typed.title = stringMember(argument, "title");
            typed.description = stringMember(argument, "description");
            typed.required = isTrue(argument, "required");
            out.arguments.push_back(std::move(typed));
        }
    }
    out.json = entry;
    return out;
}

void listResources(Client *client, QObject *context, ListCallback<Resource> done)
{
    listTyped<Resource>(client, "resources/list", "resources", context, std::move(done));
}

void listResourceTemplates(Client *client, QObject *context, ListCallback<ResourceTemplate> done)
{
    listTyped<ResourceTemplate>(client, "resources/templates/list", "resourceTemplates", context,
                                std::move(done));
}

void listPrompts(Client *client, QObject *context, ListCallback<Prompt> done)
{
    listTyped<Prompt>(client, "prompts/list", "prompts", context, std::move(done));
}

std::int64_t readResource(Client *client, const std::string &uri, QObject *context,
                          std::function<void(ReadResourceResult)> done)
{
    return client->request("resources/read", Json{{"uri", uri}}, context,
                           [done = std::move(done)](Response response) {
                               ReadResourceResult result;
                               result.error = std::move(response.error);
                               if (result.error)
                                   return done(std::move(result));
                               const auto contents = response.result.find("contents");
                               result.wellFormed = response.result.is_object()
                                                   && contents != response.result.end()
                                                   && contents->is_array();
                               if (result.wellFormed) {
                                   for (const Json &item : *contents)
                                       result.contents.push_back(ResourceContents::fromJson(item));
                               }
                               result.json = std::move(response.result);
                               done(std::move(result));
                           });
}

void getPrompt(Client *client, const std::string &name,
               const std::map<std::string, std::string> &arguments, QObject *context,
               std::function<void(GetPromptResult)> done)
{
    Json params{{"name", name}};
    if (!arguments.empty())
        params["arguments"] = stringObject(arguments);
    client->request(
            "prompts/get", std::move(params), context, [done = std::move(done)](Response response) {
                GetPromptResult result;
                result.error = std::move(response.error);
                if (result.error)
                    return done(std::move(result));
                result.description = stringMember(response.result, "description");
                const auto messages = response.result.is_object() ? response.result.find("messages")
                                                                  : response.result.end();
                if (messages != response.result.end() && messages->is_array()) {
                    for (const Json &message : *messages) {
                        if (!message.is_object())
                            continue;
                        result.messages.push_back({stringMember(message, "role"),
                                                   message.value("content", Json::object())});
                    }
                }
                result.json = std::move(response.result);
                done(std::move(result));
            });
}

void complete(Client *client, const CompletionReference &reference, const std::string &argument,
              const std::string &value, const std::map<std::string, std::string> &others,
              QObject *context, std::function<void(Completion)> done)
{
    const bool prompt = reference.kind == CompletionReference::Kind::Prompt;
    Json params{{"ref",
                 {{"type", prompt ? "ref/prompt" : "ref/resource"},
                  {prompt ? "name" : "uri", reference.nameOrUri}}},
                {"argument", {{"name", argument}, {"value", value}}}};
    if (!others.empty())
        params["context"] = {{"arguments", stringObject(others)}};
    client->request("completion/complete", std::move(params), context,
                    [done = std::move(done)](Response response) {
                        Completion completion;
                        completion.error = std::move(response.error);
                        const Json &result = response.result;
                        const auto it
                                = result.is_object() ? result.find("completion") : result.end();
                        if (completion.error || it == result.end() || !it->is_object())
                            return done(std::move(completion));
                        if (const auto values = it->find("values");
                            values != it->end() && values->is_array()) {
                            for (const Json &v : *values) {
                                if (v.is_string() && completion.values.size() < MaxCompletionValues)
                                    completion.values.push_back(
                                            QString::fromStdString(v.get<std::string>()));
                            }
                        }
                        if (const auto total = it->find("total");
                            total != it->end() && total->is_number_integer())
                            completion.total = total->get<int>();
                        completion.hasMore = isTrue(*it, "hasMore");
                        done(std::move(completion));
                    });
}

} // namespace Mcp
