#pragma once

#include <QProcess>
#include <QString>

#include <optional>

// For tests of what is kept in the OS keychain. Under tests/keychain-session.sh (a private
// Secret Service) SWITCHBOARD_REQUIRE_KEYCHAIN is set: there the keychain must work, and what
// Switchboard stored is looked up from another process, as any keychain client would.
inline bool keychainRequired()
{
    return qEnvironmentVariableIsSet("SWITCHBOARD_REQUIRE_KEYCHAIN");
}

// The value the Secret Service holds for qtkeychain's entry `key` of `service` (qtkeychain's
// libsecret schema keeps them as the attributes "server" and "user"), read by secret-tool;
// nullopt when there is none (or no secret-tool).
inline std::optional<QString> secretServiceValue(const QString &service, const QString &key)
{
    QProcess lookup;
    lookup.start(QStringLiteral("secret-tool"), {QStringLiteral("lookup"), QStringLiteral("server"),
                                                 service, QStringLiteral("user"), key});
    if (!lookup.waitForFinished(10000) || lookup.exitStatus() != QProcess::NormalExit
        || lookup.exitCode() != 0)
        return std::nullopt;
    return QString::fromUtf8(lookup.readAllStandardOutput());
}
