#include "cli.h"
#include "cliinternal.h"

#include <engine/approval/auditlog.h>
#include <mcp/config/redaction.h>

#include <QUrl>

using namespace Mcp;

namespace Cli {

using namespace Internal;

// The servers and tools commands take only --json; then they connect every server and print
// once all have settled.
int Application::connectAndPrint(const QString &command, void (Application::*print)())
{
    for (const QString &arg : std::as_const(m_args)) {
        if (arg == QLatin1String("--json"))
            m_json = true;
        else
            return usageError(QStringLiteral("%1: unexpected argument '%2'").arg(command, arg));
    }
    if (!loadConfig())
        return InvalidConfig;
    startServers();
    whenSettled([this, print] { (this->*print)(); });
    return -1;
}

int Application::cmdServers()
{
    return connectAndPrint(QStringLiteral("servers"), &Application::printServers);
}

void Application::printServers()
{
    bool anyFailed = false;
    const QStringList names = m_session->manager()->serverNames();
    if (m_json) {
        Json list = Json::array();
        for (const QString &name : names) {
            const ServerStatus s = m_session->manager()->status(name);
            Json entry{{"name", name.toStdString()},
                       {"state", serverStateName(s.state).toStdString()},
                       {"tools", s.toolCount}};
            if (const ServerConfig *config = m_session->manager()->serverConfig(name)) {
                entry["transport"] = transportTypeName(config->type).toStdString();
                if (config->type != TransportType::Stdio)
                    entry["url"] = QUrl(config->url)
                                           .toDisplayString(QUrl::RemoveUserInfo | QUrl::RemoveQuery
                                                            | QUrl::RemoveFragment)
                                           .toStdString();
            }
            if (!s.reason.isEmpty())
                entry["reason"] = s.reason.toStdString();
            if (Client *client = m_session->manager()->client(name)) {
                entry["protocolVersion"] = client->protocolVersion();
                entry["era"] = eraName(client->era()).toStdString();
                entry["serverInfo"] = client->serverInfo();
            }
            list.push_back(std::move(entry));
            anyFailed = anyFailed || s.state == ServerState::Failed
                        || s.state == ServerState::Untrusted;
        }
        out(jsonText(list) + QLatin1Char('\n'));
    } else {
        int width = 4;
        for (const QString &name : names)
            width = std::max(width, int(name.size()));
        for (const QString &name : names) {
            const ServerStatus s = m_session->manager()->status(name);
            QString line = QStringLiteral("%1 %2 %3")
                                   .arg(name, -width)
                                   .arg(serverStateName(s.state), -10)
                                   .arg(s.toolCount, 5);
            if (!s.reason.isEmpty())
                line += QLatin1Char(' ') + s.reason;
            if (s.state == ServerState::Untrusted)
                line += QStringLiteral(" (%1)").arg(trustHint(name));
            out(line.trimmed() + QLatin1Char('\n'));
            anyFailed = anyFailed || s.state == ServerState::Failed
                        || s.state == ServerState::Untrusted;
        }
        if (names.isEmpty())
            err(QStringLiteral("no servers configured (looked for %1/.mcp.json and %2)")
                        .arg(m_workspace, ConfigLoader::userConfigPath()));
    }
    finish(anyFailed ? ServerFailed : Ok);
}

int Application::cmdTools()
{
    return connectAndPrint(QStringLiteral("tools"), &Application::printTools);
}

void Application::printTools()
{
    bool anyFailed = false;
    for (const QString &name : m_session->manager()->serverNames()) {
        const ServerStatus s = m_session->manager()->status(name);
        if (s.state == ServerState::Failed) {
            anyFailed = true;
            err(QStringLiteral("server '%1' failed: %2").arg(name, s.reason));
        } else if (s.state == ServerState::Untrusted) {
            err(QStringLiteral("server '%1' is not trusted yet: %2").arg(name, trustHint(name)));
        }
    }
    Json list = Json::array();
    QString lines; // written in one go: 10,000 tools are 10,000 lines
    for (const auto &tool : registry()->tools()) {
        const QString risk = Engine::riskName(tool->risk());
        if (m_json) {
            list.push_back({{"name", tool->name().toStdString()},
                            {"risk", risk.toStdString()},
                            {"source", tool->source().toStdString()},
                            {"tool", tool->originalName().toStdString()},
                            {"description", tool->description().toStdString()}});
        } else {
            lines += tool->name() + QLatin1Char(' ') + risk + QLatin1Char('\n');
        }
    }
    out(m_json ? jsonText(list) + QLatin1Char('\n') : lines);
    finish(anyFailed ? ServerFailed : Ok);
}

int Application::cmdCall()
{
    QStringList positional;
    for (int i = 0; i < m_args.size(); ++i) {
        const QString &arg = m_args.at(i);
        QString value;
        bool ok = true;
        if (arg == QLatin1String("--json")) {
            m_json = true;
        } else if (takeValue(m_args, i, QStringLiteral("--timeout"), &value)) {
            const double seconds = value.toDouble(&ok);
            if (!ok || seconds <= 0)
                return usageError(QStringLiteral("--timeout needs a positive number of seconds"));
            m_callTimeoutMs = int(seconds * 1000);
        } else if (takeValue(m_args, i, QStringLiteral("--repeat"), &value)) {
            m_repeat = value.toInt(&ok);
            if (!ok || m_repeat < 1)
                return usageError(QStringLiteral("--repeat needs a positive whole number"));
        } else if (takeValue(m_args, i, QStringLiteral("--concurrency"), &value)) {
            m_concurrency = value.toInt(&ok);
            if (!ok || m_concurrency < 1)
                return usageError(QStringLiteral("--concurrency needs a positive whole number"));
        } else if (takeValue(m_args, i, QStringLiteral("--approve"), &value)) {
            if (!setApprove(value)) // what a server's sampling request gets
                return Usage;
        } else if (arg.startsWith(QLatin1String("--"))) {
            return usageError(QStringLiteral("call: unknown or incomplete option '%1'").arg(arg));
        } else {
            positional << arg;
        }
    }
    if (positional.size() < 2 || positional.size() > 3)
        return usageError(QStringLiteral("call needs SERVER TOOL [ARGS_JSON]"));
    m_callServer = positional.at(0);
    m_callTool = positional.at(1).toStdString();
    m_callArgs = Json::object();
    if (positional.size() == 3) {
        const QByteArray text = positional.at(2).toUtf8();
        m_callArgs = Json::parse(text.begin(), text.end(), nullptr, false);
        if (m_callArgs.is_discarded() || !m_callArgs.is_object())
            return usageError(QStringLiteral("ARGS_JSON must be a JSON object, got: %1")
                                      .arg(positional.at(2)));
    }
    m_callArgsText.text = m_callArgs.dump(); // once, however often the call repeats

    QElapsedTimer connectClock;
    connectClock.start();
    return connectOne(m_callServer, [this, connectClock](Client *) {
        if (m_repeat > 0)
            out(QStringLiteral("connect_s=%1\n")
                        .arg(double(connectClock.nsecsElapsed()) / 1e9, 0, 'f', 3));
        runCalls();
    });
}

void Application::runCalls()
{
    m_callClock.start();
    const int total = std::max(1, m_repeat);
    const int inFlight = std::min(m_concurrency, total);
    for (int i = 0; i < inFlight; ++i)
        issueCall();
}

void Application::issueCall()
{
    Client *client = m_session->manager()->client(m_callServer);
    if (!client) {
        err(QStringLiteral("server '%1' is no longer connected: %2")
                    .arg(m_callServer, m_session->manager()->status(m_callServer).reason));
        finish(ServerFailed);
        return;
    }
    ++m_issued;
    RequestOptions options;
    options.timeoutMs = m_callTimeoutMs;
    if (m_repeat == 0) {
        options.onProgress = [](const Progress &p) {
            QString line = QStringLiteral("progress %1").arg(p.progress);
            if (p.total)
                line += QStringLiteral("/%1").arg(*p.total);
            if (!p.message.isEmpty())
                line += QStringLiteral(": ") + p.message;
            err(line);
        };
    }
    client->callTool(
            m_callTool, m_callArgsText, this,
            [this](ToolResult result) {
                ++m_completed;
                if (result.error) {
                    if (result.error->is(ErrorCode::RequestTimeout))
                        ++m_timeouts;
                    else
                        ++m_otherErrors;
                    if (m_firstError.isEmpty())
                        m_firstError = result.error->toString();
                } else if (result.isError) {
                    ++m_toolErrors;
                    if (m_firstError.isEmpty())
                        m_firstError = result.text();
                }

                if (m_repeat == 0) { // a single call: print what it returned
                    auditCall(result);
                    if (result.error) {
                        // Local failures already name the server; the server's own errors do not.
                        err(result.error->local
                                    ? QStringLiteral("tool '%1': %2")
                                              .arg(QString::fromStdString(m_callTool),
                                                   QString::fromStdString(result.error->message))
                                    : QStringLiteral("server '%1', tool '%2': %3")
                                              .arg(m_callServer, QString::fromStdString(m_callTool),
                                                   result.error->toString()));
                        const bool closed = result.error->is(ErrorCode::ConnectionClosed);
                        finish(result.error->is(ErrorCode::RequestTimeout) ? Timeout
                               : closed                                    ? ServerFailed
                                                                           : ToolError);
                        return;
                    }
                    // Secrets the app knows never reach the terminal (or a CI log) either.
                    const Mcp::Redactor redactor(m_session->secrets());
                    out(redactor.redactKnownText(m_json ? jsonText(result.raw) : result.text())
                        + QLatin1Char('\n'));
                    finish(result.isError ? ToolError : Ok);
                    return;
                }

                if (m_issued < m_repeat) {
                    issueCall();
                    return;
                }
                if (m_completed < m_repeat)
                    return;
                const double seconds = double(m_callClock.nsecsElapsed()) / 1e9;
                out(QStringLiteral("calls=%1 seconds=%2 calls_per_s=%3\n")
                            .arg(m_completed)
                            .arg(seconds, 0, 'f', 3)
                            .arg(seconds > 0 ? m_completed / seconds : 0.0, 0, 'f', 0));
                const int failures = m_timeouts + m_otherErrors + m_toolErrors;
                if (failures > 0) {
                    err(QStringLiteral("%1 of %2 calls failed (%3 timed out); first: %4")
                                .arg(failures)
                                .arg(m_completed)
                                .arg(m_timeouts)
                                .arg(m_firstError));
                }
                finish(m_timeouts > 0 ? Timeout : failures > 0 ? ToolError : Ok);
            },
            options);
}

// `call` bypasses the ToolRunner (no approval: the user typed the call), but it still ran.
void Application::auditCall(const ToolResult &result)
{
    const QString outcome
            = !result.error ? (result.isError ? QStringLiteral("error") : QStringLiteral("ok"))
              : result.error->is(ErrorCode::RequestTimeout) ? QStringLiteral("timeout")
                                                            : QStringLiteral("error");
    m_session->auditLog()->recordDirectCall(m_callServer, QString::fromStdString(m_callTool),
                                            m_callArgs, outcome,
                                            m_callClock.isValid() ? m_callClock.elapsed() : 0);
}

} // namespace Cli
