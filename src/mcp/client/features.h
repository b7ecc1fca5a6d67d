#pragma once

#include <mcp/wire/jsonrpc.h>

#include <QString>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

class QObject;

// What a server offers besides tools, as typed values and typed requests: resources, resource
// templates, prompts, completions, and the server's capabilities. The faces use these; they
// never build a method name or read the protocol's JSON themselves. Each value is parsed once,
// where the reply arrives, and keeps the server's object whole in `json` (for --json output
// and for members a newer revision adds).
namespace Mcp {

class Client;

// What the server said it can do (initialize or server/discover), read once.
struct ServerCapabilities
{
    bool tools = false;
    bool toolsListChanged = false;
    bool resources = false;
    bool resourcesSubscribe = false;
    bool resourcesListChanged = false;
    bool prompts = false;
    bool promptsListChanged = false;
    bool logging = false;
    bool completions = false;
    bool tasks = false;                  // 2025-11-25: task-augmented requests
    std::vector<std::string> extensions; // 2026-07-28: capabilities.extensions' names
    Json json = Json::object();

    static ServerCapabilities fromJson(const Json &capabilities);
    bool hasExtension(std::string_view name) const;
};

// One entry of resources/list.
struct Resource
{
    std::string uri;
    QString name;
    QString title;
    QString description;
    QString mimeType;
    std::optional<qint64> size;
    Json json = Json::object();

    static std::optional<Resource> fromJson(const Json &entry); // none without a string uri
    // The title, else the name, else the uri.
    QString displayName() const;
};

// One entry of resources/templates/list.
struct ResourceTemplate
{
    std::string uriTemplate;
    QString name;
    QString title;
    QString description;
    QString mimeType;
    Json json = Json::object();

    static std::optional<ResourceTemplate> fromJson(const Json &entry);
    QString displayName() const;
};

// One item of a resources/read result: text, or base64 binary.
struct ResourceContents
{
    std::string uri;
    QString mimeType;
    std::optional<QString> text;
    QByteArray blob; // decoded
    Json json = Json::object();

    static ResourceContents fromJson(const Json &item);
    bool isText() const { return text.has_value(); }
    // For a person: the text, or "[blob image/png, 1234 bytes] URI".
    QString describe() const;
};

struct ReadResourceResult
{
    std::vector<ResourceContents> contents;
    std::optional<RpcError> error; // the read failed
    bool wellFormed = true;        // false: the answer had no "contents" list
    Json json;                     // the whole result, as sent

    bool ok() const { return !error; }
};

struct PromptArgument
{
    QString name;
    QString title;
    QString description;
    bool required = false;
};

// One entry of prompts/list.
struct Prompt
{
    QString name;
    QString title;
    QString description;
    std::vector<PromptArgument> arguments;
    Json json = Json::object();

    static std::optional<Prompt> fromJson(const Json &entry); // none without a string name
};

struct PromptMessage
{
    QString role;
    Json content; // one content block
    // For a person: the text, or a line naming the image, audio or resource.
    QString describe() const;
};

struct GetPromptResult
{
    QString description;
    std::vector<PromptMessage> messages;
    std::optional<RpcError> error;
    Json json; // the whole result, as sent

    bool ok() const { return !error; }
};

// What completion/complete completes: a prompt's argument or a resource template's variable.
struct CompletionReference
{
    enum class Kind { Prompt, ResourceTemplate };
    Kind kind = Kind::Prompt;
    std::string nameOrUri; // the prompt's name, or the template's uriTemplate
};

struct Completion
{
    std::vector<QString> values; // at most MaxCompletionValues
    std::optional<int> total;
    bool hasMore = false;
    std::optional<RpcError> error;

    bool ok() const { return !error; }
};
inline constexpr std::size_t MaxCompletionValues = 100; // what a server may send at once

// Every request below calls back exactly once, unless `context` is destroyed first. A list
// is read whole (all pages, bounded as listAll()); `error` is empty on success.
template<typename T>
using ListCallback = std::function<void(std::vector<T> items, const QString &error)>;

void listResources(Client *client, QObject *context, ListCallback<Resource> done);
void listResourceTemplates(Client *client, QObject *context, ListCallback<ResourceTemplate> done);
// Returns the request's id (for Client::cancel()).
std::int64_t readResource(Client *client, const std::string &uri, QObject *context,
                          std::function<void(ReadResourceResult)> done);
void listPrompts(Client *client, QObject *context, ListCallback<Prompt> done);
// A prompt's arguments are strings.
void getPrompt(Client *client, const std::string &name,
               const std::map<std::string, std::string> &arguments, QObject *context,
               std::function<void(GetPromptResult)> done);
// Values for `argument` as typed so far; `others` are the arguments already filled in.
void complete(Client *client, const CompletionReference &reference, const std::string &argument,
              const std::string &value, const std::map<std::string, std::string> &others,
              QObject *context, std::function<void(Completion)> done);

} // namespace Mcp
