// Other clients' MCP files (Claude Desktop, VS Code, Cursor) converted to `.mcp.json`: JSONC
// read as JSON, their ${...} forms rewritten into ours, every server checked as parse() does.
#include "configinternal.h"

#include <QMap>

namespace Mcp::ConfigLoader {

using namespace Internal;

namespace {

// The index after the string whose opening quote is at `i` (past `n` when it is not closed).
qsizetype skipString(const char *d, qsizetype n, qsizetype i)
{
    ++i;
    while (i < n && d[i] != '"')
        i += d[i] == '\\' ? 2 : 1;
    return i + 1;
}

// JSONC (VS Code's settings.json and mcp.json) → JSON, byte for byte the same length so that
// positions stay right: comments and trailing commas become spaces, newlines are kept.
QByteArray stripJsonc(const QByteArray &input)
{
    QByteArray text = input;
    const qsizetype n = text.size();
    char *d = text.data();

    // Pass 1: comments.
    for (qsizetype i = 0; i < n;) {
        if (d[i] == '"') {
            i = skipString(d, n, i);
        } else if (d[i] == '/' && i + 1 < n && d[i + 1] == '/') {
            while (i < n && d[i] != '\n')
                d[i++] = ' ';
        } else if (d[i] == '/' && i + 1 < n && d[i + 1] == '*') {
            d[i++] = ' ';
            d[i++] = ' ';
            while (i < n && !(d[i] == '*' && i + 1 < n && d[i + 1] == '/')) {
                if (d[i] != '\n')
                    d[i] = ' ';
                ++i;
            }
            for (int k = 0; k < 2 && i < n; ++k)
                d[i++] = ' ';
        } else {
            ++i;
        }
    }
    // Pass 2: trailing commas.
    for (qsizetype i = 0; i < n;) {
        if (d[i] == '"') {
            i = skipString(d, n, i);
        } else if (d[i] == ',') {
            qsizetype next = i + 1;
            while (next < n
                   && (d[next] == ' ' || d[next] == '\t' || d[next] == '\n' || d[next] == '\r'))
                ++next;
            if (next < n && (d[next] == '}' || d[next] == ']'))
                d[i] = ' ';
            i = next;
        } else {
            ++i;
        }
    }
    return text;
}

// "github-token" → "GITHUB_TOKEN": a name ${...} accepts.
QString inputVariableName(const QString &id)
{
    QString name;
    for (const QChar c : id) {
        const bool alnum
                = (c >= u'A' && c <= u'Z') || (c >= u'a' && c <= u'z') || (c >= u'0' && c <= u'9');
        name += alnum ? c.toUpper() : QChar(u'_');
    }
    if (name.isEmpty() || name.at(0).isDigit())
        name.prepend(u'_');
    return name;
}

// Rewrites the other clients' ${...} forms into ours inside every string of `value`.
struct VariableRewriter
{
    ConfigLoader::ImportKind kind;
    QMap<QString, QString> inputDefaults; // VS Code input id → default value
    QMap<QString, QString> usedInputs;    // input id → variable name

    QString rewrite(const QString &text)
    {
        QString out;
        qsizetype i = 0;
        while (i < text.size()) {
            const qsizetype start = text.indexOf(QLatin1String("${"), i);
            const qsizetype close = start < 0 ? -1 : text.indexOf(u'}', start + 2);
            if (close < 0) { // nothing (more) to rewrite; checkServer reports a bad "${"
                out += QStringView(text).mid(i);
                break;
            }
            out += QStringView(text).mid(i, start - i);
            const QString inner = text.mid(start + 2, close - start - 2);
            if (kind == ConfigLoader::ImportKind::ClaudeDesktop) {
                out += QStringView(text).mid(start, close + 1 - start);
            } else if (inner.startsWith(QLatin1String("env:"))) {
                out += QStringLiteral("${%1}").arg(inner.mid(4));
            } else if (inner == QLatin1String("workspaceFolder")) {
                out += u'.';
            } else if (inner == QLatin1String("userHome")) {
                out += QStringLiteral("${HOME}");
            } else if (kind == ConfigLoader::ImportKind::VsCode
                       && inner.startsWith(QLatin1String("input:"))) {
                const QString id = inner.mid(6);
                const QString variable = inputVariableName(id);
                usedInputs.insert(id, variable);
                const QString fallback = inputDefaults.value(id);
                // A default containing '}' would end the reference early; leave it out.
                if (!fallback.isEmpty() && !fallback.contains(u'}'))
                    out += QStringLiteral("${%1:-%2}").arg(variable, fallback);
                else
                    out += QStringLiteral("${%1}").arg(variable);
            } else {
                out += QStringView(text).mid(start, close + 1 - start);
            }
            i = close + 1;
        }
        return out;
    }

    json rewrite(const json &value)
    {
        if (value.is_string())
            return rewrite(fromStd(value.get<std::string>())).toStdString();
        if (value.is_array() || value.is_object()) {
            json copy = value;
            for (auto &item : copy)
                item = rewrite(item);
            return copy;
        }
        return value;
    }
};

} // namespace

std::optional<ImportKind> importKindFromName(QStringView name)
{
    for (const ImportKind kind :
         {ImportKind::ClaudeDesktop, ImportKind::VsCode, ImportKind::Cursor}) {
        if (name == importKindName(kind))
            return kind;
    }
    return std::nullopt;
}

QString importKindName(ImportKind kind)
{
    switch (kind) {
    case ImportKind::ClaudeDesktop:
        return QStringLiteral("claude-desktop");
    case ImportKind::VsCode:
        return QStringLiteral("vscode");
    case ImportKind::Cursor:
        break;
    }
    return QStringLiteral("cursor");
}

ImportResult importConfig(ImportKind kind, const QByteArray &text, const QString &fileName,
                          const ServerCheck &check)
{
    ImportResult result;
    json output = {{"mcpServers", json::object()}};
    const auto finish = [&]() {
        sortErrors(result.errors);
        // Strings were validated as UTF-8 by the parser; `replace` only guarantees no throw.
        result.text = QByteArray::fromStdString(
                              output.dump(2, ' ', false, json::error_handler_t::replace))
                      + '\n';
        return result;
    };

    const QByteArray clean = text.size() > kMaxConfigBytes ? text : stripJsonc(text);
    const PositionIndex index(text.size() > kMaxConfigBytes ? QByteArray() : clean);
    Context ctx{index, fileName, result.errors};
    ctx.preciseStringOffsets = false;
    json root;
    if (!parseJson(clean, ctx, root))
        return finish();
    if (!root.is_object()) {
        ctx.add({}, QString(),
                Text::tr("the top level must be an object, not %1").arg(jsonTypeName(root)));
        return finish();
    }

    // Where the servers live: Claude Desktop and Cursor use "mcpServers"; VS Code's mcp.json
    // uses "servers" (+ "inputs"), its settings.json "mcp": {"servers"} or "mcp.servers".
    std::string serversPointer;
    std::string inputsPointer;
    if (kind == ImportKind::VsCode) {
        if (root.contains("servers")) {
            serversPointer = "/servers";
            inputsPointer = "/inputs";
        } else if (root.contains("mcp") && root["mcp"].is_object()) {
            serversPointer = "/mcp/servers";
            inputsPointer = "/mcp/inputs";
        } else if (root.contains("mcp.servers")) {
            serversPointer = "/mcp.servers";
            inputsPointer = "/mcp.inputs";
        }
    } else if (root.contains("mcpServers")) {
        serversPointer = "/mcpServers";
    }
    const json::json_pointer servers(serversPointer.empty() ? "/mcpServers" : serversPointer);
    if (serversPointer.empty() || !root.contains(servers)) {
        ctx.add({}, QString(),
                kind == ImportKind::VsCode
                        ? Text::tr("no \"servers\" object (mcp.json) or \"mcp\": "
                                   "{\"servers\"} (settings.json): is this a VS Code file?")
                        : Text::tr("no \"mcpServers\" object: is this a %1 file?")
                                  .arg(kind == ImportKind::Cursor
                                               ? QStringLiteral("Cursor")
                                               : QStringLiteral("Claude Desktop")));
        return finish();
    }
    const json &serversNode = root.at(servers);
    if (!serversNode.is_object()) {
        ctx.add(serversPointer, QString(),
                Text::tr("'%1' must be an object mapping server names to their settings, "
                         "not %2")
                        .arg(fromStd(servers.back()), jsonTypeName(serversNode)));
        return finish();
    }

    VariableRewriter rewriter{kind, {}, {}};
    QMap<QString, QString> inputDescriptions;
    if (!inputsPointer.empty() && root.contains(json::json_pointer(inputsPointer))) {
        const json &inputs = root.at(json::json_pointer(inputsPointer));
        if (!inputs.is_array()) {
            ctx.add(inputsPointer, QString(),
                    Text::tr("'inputs' must be a list, not %1").arg(jsonTypeName(inputs)));
        } else {
            for (const json &input : inputs) {
                if (!input.is_object() || !input.contains("id") || !input["id"].is_string())
                    continue;
                const QString id = fromStd(input["id"].get<std::string>());
                if (input.contains("description") && input["description"].is_string())
                    inputDescriptions[id] = fromStd(input["description"].get<std::string>());
                if (input.contains("default") && input["default"].is_string())
                    rewriter.inputDefaults[id] = fromStd(input["default"].get<std::string>());
            }
        }
    }

    const QProcessEnvironment noVariables;
    for (const auto &[name, value] : serversNode.items()) {
        const json converted = rewriter.rewrite(value);
        if (checkServer(ctx, name, converted, childPointer(serversPointer, name), noVariables,
                        check))
            output["mcpServers"][name] = converted;
    }
    for (auto it = rewriter.usedInputs.cbegin(); it != rewriter.usedInputs.cend(); ++it) {
        const QString description = inputDescriptions.value(it.key());
        result.notes.append(
                Text::tr("input '%1'%2 is now the environment variable %3; set it before "
                         "starting Switchboard")
                        .arg(it.key(),
                             description.isEmpty() ? QString()
                                                   : QStringLiteral(" (%1)").arg(description),
                             it.value()));
    }
    return finish();
}

} // namespace Mcp::ConfigLoader
