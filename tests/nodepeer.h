#pragma once

#include "pinnednode.h"

#include <QByteArray>
#include <QDir>
#include <QProcess>
#include <QTcpServer>
#include <QTest>

// A Node.js test peer (a script from the repository or its node_modules) on a free port of
// 127.0.0.1, for as long as this object lives.
class NodePeer
{
public:
    ~NodePeer()
    {
        if (m_node.state() == QProcess::NotRunning)
            return;
        m_node.terminate();
        if (!m_node.waitForFinished(5000))
            m_node.kill();
    }

    // A path below the repository.
    static QString sourcePath(const char *path)
    {
        return QDir(QStringLiteral(SWITCHBOARD_SOURCE_DIR)).filePath(QString::fromUtf8(path));
    }

    quint16 port() const { return m_port; }
    // What it printed so far.
    QByteArray log()
    {
        m_log += m_node.readAll();
        return m_log;
    }

protected:
    // Picks a free port, runs the pinned Node (PinnedNode::program()) with the arguments made for
    // it (and `env` with PORT set), and waits until the output contains `ready` made for it (the
    // event loop runs meanwhile).
    bool startNode(const std::function<QStringList(quint16 port)> &arguments,
                   const std::function<QByteArray(quint16 port)> &ready)
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
        m_node.start(PinnedNode::program(), arguments(m_port));
        const QByteArray line = ready(m_port);
        return m_node.waitForStarted(10000)
               && QTest::qWaitFor([this, line] { return m_log.contains(line); }, 30000);
    }

private:
    QProcess m_node;
    QByteArray m_log;
    quint16 m_port = 0;
};
