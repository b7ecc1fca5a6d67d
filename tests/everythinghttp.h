#pragma once

#include "nodepeer.h"

// server-everything in one of its HTTP modes (`node …/dist/index.js streamableHttp`, or `sse`
// for the legacy HTTP+SSE transport) on a port of 127.0.0.1 it picks itself, from the repository's
// node_modules, for as long as this object lives.
class EverythingHttp : public NodePeer
{
public:
    explicit EverythingHttp(QString mode = QStringLiteral("streamableHttp"))
        : m_mode(std::move(mode))
    {
    }

    static QString entryPoint()
    {
        return sourcePath("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    }

    // Starts it and waits until it listens (the event loop runs meanwhile).
    bool start()
    {
        // "… listening on port 0" (streamableHttp), "Server is running on port 0" (sse): it
        // prints PORT as given, so only the port NodePeer reads tells which it got.
        return startNode({entryPoint(), m_mode}, QStringLiteral("on port 0"));
    }

    // The endpoint: /mcp (streamableHttp), or the event stream's /sse.
    QString url() const
    {
        return QStringLiteral("http://127.0.0.1:%1/%2")
                .arg(port())
                .arg(m_mode == QLatin1String("sse") ? QStringLiteral("sse")
                                                    : QStringLiteral("mcp"));
    }

private:
    QString m_mode;
};
