#pragma once

#include <QByteArray>
#include <QDir>
#include <QProcess>
#include <QTcpServer>
#include <QTest>

// server-everything in one of its HTTP modes (`node …/dist/index.js streamableHttp`, or `sse`
// for the legacy HTTP+SSE transport) on a free port of 127.0.0.1, from the repository's
// node_modules, for as long as this object lives.
class EverythingHttp
{
public:
    explicit EverythingHttp(QString mode = QStringLiteral("streamableHttp"))
        : m_mode(std::move(mode))
    {
    }

    ~EverythingHttp()
    {
        if (m_node.state() == QProcess::NotRunning)
            return;
        m_node.terminate();
        if (!m_node.waitForFinished(5000))
            m_node.kill();
    }

    static QString entryPoint()
    {
        return QDir(QStringLiteral(SWITCHBOARD_SOURCE_DIR))
                .filePath(QStringLiteral(
                        "node_modules/@modelcontextprotocol/server-everything/dist/index.js"));
    }

    // Starts it and waits until it listens (the event loop runs meanwhile).
    bool start()
    {
        QTcpServer probe;
        if (!probe.listen(QHostAddress::LocalHost, 0))
            return false;
        m_port = probe.serverPort();
        probe.close();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PORT"), QString::number(m_port));
        m_node.setProcessEnvironment(env);
        m_node.setProcessChannelMode(QProcess::MergedChannels);
        QObject::connect(&m_node, &QProcess::readyRead, &m_node,
                         [this] { m_log += m_node.readAll(); });
        m_node.start(QStringLiteral("node"), {entryPoint(), m_mode});
        // "… listening on port N" (streamableHttp), "Server is running on port N" (sse)
        const QByteArray ready = "on port " + QByteArray::number(m_port);
        return m_node.waitForStarted(10000)
               && QTest::qWaitFor([this, ready] { return m_log.contains(ready); }, 30000);
    }

    quint16 port() const { return m_port; }
    // The endpoint: /mcp (streamableHttp), or the event stream's /sse.
    QString url() const
    {
        return QStringLiteral("http://127.0.0.1:%1/%2")
                .arg(m_port)
                .arg(m_mode == QLatin1String("sse") ? QStringLiteral("sse")
                                                    : QStringLiteral("mcp"));
    }
    // What it printed so far (it logs sessions, streams and terminations).
    const QByteArray &log() const { return m_log; }

private:
    QString m_mode;
    QProcess m_node;
    QByteArray m_log;
    quint16 m_port = 0;
};
