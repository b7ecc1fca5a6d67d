#pragma once

#include "nodepeer.h"

// server-everything in one of its HTTP modes (`node …/dist/index.js streamableHttp`, or `sse`
// for the legacy HTTP+SSE transport) on a free port of 127.0.0.1, from the repository's
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
        // "… listening on port N" (streamableHttp), "Server is running on port N" (sse)
        return startNode(
                [this](quint16) {
                    return QStringList{entryPoint(), m_mode};
                },
                [](quint16 port) { return "on port " + QByteArray::number(port); });
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
