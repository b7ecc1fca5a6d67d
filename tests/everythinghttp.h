#pragma once

#include <QByteArray>
#include <QDir>
#include <QProcess>
#include <QTcpServer>
#include <QTest>

// server-everything in its Streamable HTTP mode (`node …/dist/index.js streamableHttp`) on a
// free port of 127.0.0.1, from the repository's node_modules, for as long as this object lives.
class EverythingHttp
{
public:
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
        m_node.start(QStringLiteral("node"), {entryPoint(), QStringLiteral("streamableHttp")});
        return m_node.waitForStarted(10000)
               && QTest::qWaitFor([this] { return m_log.contains("listening on port"); }, 30000);
    }

    quint16 port() const { return m_port; }
    QString url() const { return QStringLiteral("http://127.0.0.1:%1/mcp").arg(m_port); }
    // What it printed so far (it logs sessions, streams and terminations).
    const QByteArray &log() const { return m_log; }

private:
    QProcess m_node;
    QByteArray m_log;
    quint16 m_port = 0;
};
