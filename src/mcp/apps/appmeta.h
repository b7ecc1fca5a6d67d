#pragma once

#include <mcp/wire/jsonrpc.h>

#include <QString>
#include <QStringList>

#include <optional>
#include <string>

// MCP Apps (the extension io.modelcontextprotocol/ui, stable 2026-01-26): a tool may name an
// HTML view (a ui:// resource of its server) that shows its results. What a tool's and a view's
// `_meta.ui` say, read defensively: everything here comes from a server.
namespace Mcp::Apps {

// The extension's name in capabilities.extensions (both eras).
inline constexpr const char *Extension = "io.modelcontextprotocol/ui";
// The one view format the extension defines; what a client that shows views advertises and
// what a view's resources/read content must say it is.
inline constexpr const char *ViewMimeType = "text/html;profile=mcp-app";
// The bridge protocol's version (ui/initialize), independent of MCP's own.
inline constexpr const char *BridgeProtocolVersion = "2026-01-26";

// What a client that shows views puts under capabilities.extensions[Extension].
Json clientCapability();

// Whether `mimeType` is ViewMimeType (case and spaces around ';' and '=' do not matter).
bool isViewMimeType(const QString &mimeType);

// A tool's `_meta.ui`.
struct ToolUi
{
    // The ui:// resource that shows this tool's results; empty when the tool has none (or
    // names something that is not a ui:// uri).
    std::string resourceUri;
    // The uri came from the deprecated flat `_meta["ui/resourceUri"]` (no `_meta.ui` one).
    bool fromFlatKey = false;
    // `_meta.ui.visibility`: who may call the tool. Absent: both.
    bool model = true; // offered to the model
    bool app = true;   // callable by a view of the same server

    bool hasView() const { return !resourceUri.empty(); }
    static ToolUi fromTool(const Json &tool);
};

// What a server says wrong about a tool's `_meta.ui`, for the protocol log (a deprecated key,
// a uri that is not ui://, an unknown visibility); empty when nothing.
QString toolUiNote(const Json &tool);

// A view's `_meta.ui` (on its resources/read content, else on its resources/list entry).
struct ViewMeta
{
    // `csp`: the origins a view declares. Each list as the server sent it (cleaned later by
    // ContentPolicy, which drops what it cannot use).
    QStringList connectDomains;  // fetch, XHR, WebSocket
    QStringList resourceDomains; // scripts, styles, images, fonts, media
    QStringList frameDomains;    // nested frames
    QStringList baseUriDomains;  // <base href>
    // `permissions`: what the view would like (asked of the person; never granted unasked).
    bool camera = false;
    bool microphone = false;
    bool geolocation = false;
    bool clipboardWrite = false;
    // `domain`: the dedicated origin a web host would give the view. Shown, not obeyed: a
    // native host gives every view an origin of its own anyway.
    QString domain;
    std::optional<bool> prefersBorder;
    bool declared = false;    // the server sent a `_meta.ui` object at all
    bool cspDeclared = false; // … with a `csp` object (else the spec's restrictive default)

    // From a `_meta` object (or anything else: then nothing declared). Lists are bounded
    // (MaxDomains) and non-string entries skipped.
    static ViewMeta fromMeta(const Json &meta);
    Json toJson() const; // the `ui` object, for the protocol log and hostCapabilities.sandbox
    bool operator==(const ViewMeta &) const = default;
};

// A view that declares more origins than this is declaring a web crawl, not a widget; the
// rest are dropped (and the view fails to load what they serve). Generous for real apps,
// which name a CDN or two.
inline constexpr int MaxDomains = 64;

} // namespace Mcp::Apps
