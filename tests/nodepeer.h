#pragma once

#include "pinnednode.h"

#include <QByteArray>
#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

// A Node.js test peer (a script from the repository or its node_modules) on a port of
// 127.0.0.1 that it picks itself, for as long as this object lives.
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
    // Runs the pinned Node (PinnedNode::program()) with `arguments`, PORT=0 in its environment
    // and tests/listenport.mjs preloaded, which prints the port the system gave its server:
    // the peer binds it itself, so no other process can take it between a probe and the
    // peer's listen. Waits (the event loop runs meanwhile) until that port is known and the
    // output matches `ready`, in which "%1" stands for the port.
    bool startNode(const QStringList &arguments, const QString &ready)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PORT"), QStringLiteral("0"));
        m_node.setProcessEnvironment(env);
        m_node.setProcessChannelMode(QProcess::MergedChannels);
        QObject::connect(&m_node, &QProcess::readyRead, &m_node,
                         [this] { m_log += m_node.readAll(); });
        m_node.start(PinnedNode::program(),
                     QStringList{QStringLiteral("--import"), sourcePath("tests/listenport.mjs")}
                             + arguments);
        if (!m_node.waitForStarted(10000))
            return false;
        static const QRegularExpression reported(QStringLiteral("^nodepeer: port (\\d+)$"),
                                                 QRegularExpression::MultilineOption);
        const auto readPort = [this] {
            const QRegularExpressionMatch match = reported.match(QString::fromUtf8(m_log));
            m_port = match.hasMatch() ? quint16(match.captured(1).toUInt()) : 0;
            return m_port != 0;
        };
        return QTest::qWaitFor(
                [&] {
                    return readPort()
                           && m_log.contains(
                                   (ready.contains(QLatin1String("%1")) ? ready.arg(m_port) : ready)
                                           .toUtf8());
                },
                30000);
    }

private:
    QProcess m_node;
    QByteArray m_log;
    quint16 m_port = 0;
};
