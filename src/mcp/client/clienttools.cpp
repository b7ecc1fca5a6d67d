// Client: tools. Listing them (paginated, checked, re-listed on list_changed) and calling
// them; the results of a call.
#include "clientinternal.h"

#include <mcp/apps/appmeta.h>
#include <mcp/transport/parameterheaders.h>
#include <mcp/wire/jsonmember.h>

#include <memory>
#include <set>
#include <string_view>

namespace Mcp {

using namespace ClientInternal;

namespace {
// A server that pages forever (or repeats a cursor) must not keep us listing: 10,000 pages
// is far beyond any real tool list.
constexpr int MaxListPages = 10000;
} // namespace

const Json &ToolResult::content() const
{
    static const Json empty = Json::array();
    const Json &c = jsonMember(raw, "content");
    return c.is_array() ? c : empty;
}

const Json &ToolResult::structuredContent() const
{
    return jsonMember(raw, "structuredContent");
}

QString ToolResult::text() const
{
    if (error)
        return QString::fromStdString(error->message);
    QStringList parts;
    for (const Json &block : content()) {
        if (block.is_object() && block.value("type", "") == "text") {
            if (auto it = block.find("text"); it != block.end() && it->is_string())
                parts << QString::fromStdString(it->get<std::string>());
        }
    }
    return parts.join(QLatin1Char('\n'));
}

void Client::refreshTools()
{
    if (m_state != State::Initializing && m_state != State::Ready)
        return;
    if (m_listingTools) {
        m_relistRequested = true;
        return;
    }
    m_listingTools = true;
    m_relistRequested = false;
    listToolsPage({}, nullptr, 0);
}

void Client::listToolsPage(std::vector<Json> collected, Json cursor, int pages)
{
    Json params = Json::object();
    if (!cursor.is_null())
        params["cursor"] = cursor;
    request("tools/list", std::move(params), this,
            [this, collected = std::move(collected), cursor, pages](Response r) mutable {
                auto done = [this](const QString &error) {
                    m_listingTools = false;
                    if (!error.isEmpty()) {
                        if (m_state == State::Initializing)
                            fail(error);
                        else
                            emit warning(error);
                        return;
                    }
                    if (m_relistRequested) {
                        refreshTools();
                        return;
                    }
                    if (m_state == State::Initializing)
                        setState(State::Ready);
                };
                qCDebug(lcClient) << "tools/list reply" << m_options.serverName;
                if (!r.ok()) {
                    done(tr("tools/list failed: %1").arg(r.error->toString()));
                    return;
                }
                Json result = std::move(r.result);
                auto tools = result.find("tools");
                if (!result.is_object() || tools == result.end() || !tools->is_array()) {
                    done(tr("tools/list returned no tools array"));
                    return;
                }
                std::size_t index = 0;
                for (Json &tool : *tools) {
                    auto name = tool.is_object() ? tool.find("name") : Json::iterator{};
                    if (!tool.is_object() || name == tool.end() || !name->is_string()) {
                        emit warning(tr("tools/list: entry %1 has no name; skipped").arg(index));
                    } else {
                        collected.push_back(std::move(tool));
                    }
                    ++index;
                }
                const auto next = result.find("nextCursor");
                if (next != result.end() && !next->is_null()) {
                    if (*next == cursor || pages + 1 >= MaxListPages) {
                        done(tr("tools/list keeps paging (cursor %1 after %2 pages); stopped")
                                     .arg(qs(next->dump()))
                                     .arg(pages + 1));
                        return;
                    }
                    listToolsPage(std::move(collected), *next, pages + 1);
                    return;
                }
                // Duplicate names would make calls ambiguous: the first definition wins.
                std::set<std::string_view> names;
                std::vector<Json> unique;
                unique.reserve(collected.size());
                // Over HTTP in 2026-07-28, parameters marked x-mcp-header travel as
                // headers too; a tool whose marks are invalid must not be called at all.
                const bool headers
                        = m_era == Era::Rev2026_07_28 && m_transport->sendsParameterHeaders();
                auto parameters = std::make_shared<ParameterHeaders>();
                for (Json &tool : collected) {
                    const auto &name = tool["name"].get_ref<const std::string &>();
                    if (!names.insert(name).second) {
                        emit warning(tr("tools/list: duplicate tool '%1'; kept the first")
                                             .arg(qs(name)));
                        continue;
                    }
                    if (headers) {
                        QString problem;
                        auto declared = parameterHeaders(jsonMember(tool, "inputSchema"), &problem);
                        if (!declared) {
                            emit warning(tr("tools/list: tool '%1' left out: %2")
                                                 .arg(qs(name), problem));
                            continue;
                        }
                        if (!declared->empty())
                            (*parameters)[name] = std::move(*declared);
                    }
                    if (QString note = Apps::toolUiNote(tool); !note.isEmpty())
                        emit warning(note);
                    unique.push_back(std::move(tool));
                }
                if (headers)
                    m_transport->setParameterHeaders(std::move(parameters));
                m_tools = std::make_shared<const std::vector<Json>>(std::move(unique));
                emit toolsChanged();
                done(QString());
            });
}

const Json *Client::findTool(std::string_view name) const
{
    for (const Json &tool : *m_tools) {
        if (tool["name"].get_ref<const std::string &>() == name)
            return &tool;
    }
    return nullptr;
}

ToolResult toolResultFrom(Response r)
{
    ToolResult result;
    if (!r.ok()) {
        result.error = std::move(r.error);
    } else if (!r.result.is_object()) {
        result.error = RpcError{ErrorCode::InvalidResult, "tools/call result is not an object",
                                nullptr, true};
    } else {
        result.raw = std::move(r.result);
        const Json &content = jsonMember(result.raw, "content");
        if (!content.is_null() && !content.is_array())
            result.error = RpcError{ErrorCode::InvalidResult, "tools/call content is not an array",
                                    nullptr, true};
        const Json &isError = jsonMember(result.raw, "isError");
        result.isError = isError.is_boolean() && isError.get<bool>();
    }
    return result;
}

RequestId Client::callTool(const std::string &name, Json arguments, QObject *context,
                           ToolCallback callback, RequestOptions options)
{
    RawJson raw;
    if (!arguments.is_null())
        raw.text = arguments.dump(-1, ' ', false, Json::error_handler_t::replace);
    return callTool(name, raw, context, std::move(callback), std::move(options));
}

RequestId Client::callTool(std::string_view name, const RawJson &arguments, QObject *context,
                           ToolCallback callback, RequestOptions options)
{
    const RequestId id = m_nextId++;
    std::string params;
    params.reserve(64 + name.size() + arguments.text.size() + m_metaMembers.size());
    params += R"({"name":)";
    appendJsonString(params, name);
    if (!arguments.text.empty()) {
        params += R"(,"arguments":)";
        params += arguments.text;
    }
    if (asksForTask(name)) {
        // How long the server keeps the task after it ends: long enough to fetch its result.
        params += R"(,"task":{"ttl":600000})";
    }
    if (options.onProgress || m_sendMeta) {
        params += R"(,"_meta":{)";
        params += m_metaMembers;
        if (options.onProgress) {
            if (!m_metaMembers.empty())
                params += ',';
            params += R"("progressToken":)";
            params += std::to_string(id);
        }
        params += '}';
    }
    params += '}';
    Callback wrapped = taskAwareCallback(id, std::move(callback), context, options);
    return sendRequest("tools/call", params, context, std::move(wrapped), std::move(options), id);
}

} // namespace Mcp
