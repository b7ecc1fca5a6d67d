#pragma once

#include "nodepeer.h"

// An A2A agent built on the official @a2a-js/sdk (tests/a2a/sdkserver.mjs, model-free) on a
// port of 127.0.0.1 it picks itself, for as long as this object lives. `arguments`: the script's
// mode options (--compat, --v03-only, --stale-card, --token T). Its log has "request POST / 1.0
// SendMessage" per request and "canceled TASK" per canceled task.
class SdkAgent : public NodePeer
{
public:
    explicit SdkAgent(QStringList arguments = {})
        : m_arguments(std::move(arguments))
    {
    }

    // Starts it and waits until it listens (the event loop runs meanwhile).
    bool start()
    {
        return startNode(QStringList{sourcePath("tests/a2a/sdkserver.mjs"), QStringLiteral("0")}
                                 + m_arguments,
                         QStringLiteral("listening on %1 ("));
    }

    QString url() const { return QStringLiteral("http://127.0.0.1:%1/").arg(port()); }
    int count(const QByteArray &needle) { return int(log().count(needle)); }

private:
    QStringList m_arguments;
};
