// switchboard-cli secret set|delete|list: the servers' keychain secrets (`${secret:NAME}`).
#include "cli.h"
#include "cliinternal.h"
#include "terminalgate.h"

#include <engine/secrets/serversecrets.h>

#include <QFile>
#include <QMap>

#include <cstdio>
#include <iostream>
#include <string>

#ifdef Q_OS_UNIX
#include <termios.h>
#include <unistd.h>
#endif

namespace Cli {

using namespace Internal;
using Mcp::Json;

std::optional<QString> Internal::readHidden(const QString &prompt)
{
    std::fputs(prompt.toLocal8Bit().constData(), stderr);
    std::fflush(stderr);
#ifdef Q_OS_UNIX
    termios saved{};
    const bool restore = ::tcgetattr(STDIN_FILENO, &saved) == 0;
    if (restore) {
        termios hidden = saved;
        hidden.c_lflag &= ~tcflag_t(ECHO);
        hidden.c_lflag |= ECHONL; // the newline still shows, so the next line starts fresh
        ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &hidden);
    }
#endif
    std::string line;
    const bool got = bool(std::getline(std::cin, line));
#ifdef Q_OS_UNIX
    if (restore)
        ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
#endif
    if (!got)
        return std::nullopt;
    if (!line.empty() && line.back() == '\r')
        line.pop_back();
    return QString::fromStdString(line);
}

namespace {

// All of standard input, less one final line break ("echo $TOKEN |" adds one). At most
// ServerSecrets::MaxValueChars characters and a few more: set() says it is too long.
QString readInput()
{
    QFile input;
    if (!input.open(stdin, QIODevice::ReadOnly))
        return {};
    QString text = QString::fromUtf8(input.read(4 * Engine::ServerSecrets::MaxValueChars + 4));
    if (text.endsWith(QLatin1Char('\n')))
        text.chop(1);
    if (text.endsWith(QLatin1Char('\r')))
        text.chop(1);
    return text;
}

} // namespace

// The name argument of `secret set|delete NAME`, or an exit code.
int Application::secretName(const QString &sub, QString *name)
{
    if (m_args.size() != 1 || m_args.constFirst().startsWith(QLatin1Char('-')))
        return usageError(QStringLiteral("secret %1: name one secret").arg(sub));
    *name = m_args.takeFirst();
    if (const QString problem = Engine::ServerSecrets::nameProblem(*name); !problem.isEmpty()) {
        err(problem);
        return Usage;
    }
    // A broken configuration does not stop a secret from being stored: its errors are shown.
    loadConfig();
    return Ok;
}

// secret set NAME: the value typed without echo at a terminal, else all of standard input.
int Application::cmdSecretSet()
{
    QString name;
    if (const int code = secretName(QStringLiteral("set"), &name); code != Ok)
        return code;
    QString value;
    if (TerminalApprovalGate::hasTerminal()) {
        const std::optional<QString> typed = readHidden(tr("Value of %1 (not shown): ").arg(name));
        if (!typed) {
            err(tr("nothing was typed: %1 is unchanged").arg(name));
            return Usage;
        }
        value = *typed;
    } else {
        value = readInput();
    }
    m_session->serverSecrets()->set(
            name, value, this, [this, name](const Engine::ServerSecrets::Outcome &outcome) {
                if (!outcome.ok) {
                    err(outcome.error);
                    finish(Usage);
                } else if (outcome.sessionOnly) {
                    // The CLI's session ends now: a value kept in memory would be lost at once.
                    err(tr("no keychain answered (%1): nothing was stored. Where there is no "
                           "keychain, export the value as an environment variable and write "
                           "${%2} instead of ${secret:%2}")
                                .arg(outcome.error, name));
                    finish(ServerFailed);
                } else {
                    if (!outcome.error.isEmpty())
                        err(outcome.error);
                    out(tr("%1 is stored in the keychain; a server reads it as ${secret:%1}")
                                .arg(name)
                        + QLatin1Char('\n'));
                    finish(Ok);
                }
            });
    return -1;
}

// secret delete NAME
int Application::cmdSecretDelete()
{
    QString name;
    if (const int code = secretName(QStringLiteral("delete"), &name); code != Ok)
        return code;
    m_session->serverSecrets()->remove(
            name, this, [this, name](const Engine::ServerSecrets::Outcome &outcome) {
                if (!outcome.ok) {
                    err(tr("%1 could not be deleted: %2").arg(name, outcome.error));
                    finish(ServerFailed);
                    return;
                }
                if (!outcome.error.isEmpty())
                    err(outcome.error);
                out(tr("%1 is deleted from the keychain").arg(name) + QLatin1Char('\n'));
                finish(Ok);
            });
    return -1;
}

// secret list [--json]: the names stored, each with the servers that read it, and the names
// the servers read that are not stored.
int Application::cmdSecretList()
{
    bool json = false;
    for (const QString &arg : std::as_const(m_args)) {
        if (arg == QLatin1String("--json"))
            json = true;
        else
            return usageError(QStringLiteral("secret list: unexpected '%1'").arg(arg));
    }
    loadConfig();
    Engine::ServerSecrets *secrets = m_session->serverSecrets();
    if (!secrets->indexError().isEmpty())
        err(secrets->indexError());
    const QStringList stored = secrets->names(); // reads the index file
    QMap<QString, QStringList> users;
    for (const QString &name : stored)
        users[name];
    for (const Mcp::ServerConfig &server : m_session->config().servers) {
        for (const Mcp::SecretReference &reference : server.secretReferences) {
            if (!users[reference.name].contains(server.name))
                users[reference.name] << server.name;
        }
    }
    if (json) {
        Json list = Json::array();
        for (auto it = users.cbegin(); it != users.cend(); ++it) {
            Json servers = Json::array();
            for (const QString &server : it.value())
                servers.push_back(server.toStdString());
            list.push_back({{"name", it.key().toStdString()},
                            {"stored", stored.contains(it.key())},
                            {"servers", std::move(servers)}});
        }
        out(jsonText(list) + QLatin1Char('\n'));
        return Ok;
    }
    if (users.isEmpty())
        out(tr("no secrets stored; store one with: switchboard-cli secret set NAME") + u'\n');
    for (auto it = users.cbegin(); it != users.cend(); ++it) {
        const QString used = it.value().isEmpty()
                                     ? tr("used by no server")
                                     : tr("used by %1").arg(it.value().join(QLatin1String(", ")));
        const QString state = stored.contains(it.key()) ? QString() : tr(" (not stored)");
        out(QStringLiteral("%1%2  %3\n").arg(it.key(), state, used));
    }
    return Ok;
}

} // namespace Cli
