#pragma once

#include "client.h"

#include <mcp/config/config.h>

#include <QString>

namespace Mcp {

// Which generation of MCP each server spoke last time (2026-07-28, basic/versioning: "cache
// the era per server"), so that a legacy server is not probed with server/discover at every
// start. Kept per server definition (how it is started, or its URL) in a small private file
// of the user's data folder; the definitions are stored as digests, never as text (a URL or an
// argument may hold a key). A wrong guess costs one more probe: the Client asks the server when
// the cached era fails.
class EraCache
{
public:
    // `file` empty: nothing is remembered. `workspaceDir` is where stdio servers run.
    EraCache(QString file, QString workspaceDir);

    Era era(const ServerConfig &server);
    // Writes the file (atomically, owner-only) when the era is new for this server.
    void remember(const ServerConfig &server, Era era);

    // How many servers a cache file keeps: the ones used least recently go first.
    static constexpr int MaxEntries = 256;

private:
    QString key(const ServerConfig &server) const;
    void load();

    QString m_file;
    QString m_workspaceDir;
    bool m_loaded = false;
    Json m_servers = Json::object(); // digest -> {"era": "modern"|"legacy", "used": seconds}
};

} // namespace Mcp
