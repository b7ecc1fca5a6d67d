#include "childenvironment.h"

namespace Mcp::ChildEnvironment {

const QStringList &allowedNames()
{
    // What the TypeScript SDK's getDefaultEnvironment() passes (HOME LOGNAME PATH SHELL TERM
    // USER), plus locale, time zone, temporary folder, the desktop session (a server may open
    // a browser or a notification), and the proxy and CA settings a server behind a corporate
    // proxy needs to reach anything. Proxies are read in both cases by curl, Python and Node.
    static const QStringList names = {
            QStringLiteral("HOME"),
            QStringLiteral("LOGNAME"),
            QStringLiteral("PATH"),
            QStringLiteral("SHELL"),
            QStringLiteral("TERM"),
            QStringLiteral("USER"),
            QStringLiteral("LANG"),
            QStringLiteral("LANGUAGE"),
            QStringLiteral("TZ"),
            QStringLiteral("TMPDIR"),
            QStringLiteral("XDG_RUNTIME_DIR"),
            QStringLiteral("DISPLAY"),
            QStringLiteral("WAYLAND_DISPLAY"),
            QStringLiteral("DBUS_SESSION_BUS_ADDRESS"),
            QStringLiteral("http_proxy"),
            QStringLiteral("HTTP_PROXY"),
            QStringLiteral("https_proxy"),
            QStringLiteral("HTTPS_PROXY"),
            QStringLiteral("no_proxy"),
            QStringLiteral("NO_PROXY"),
            QStringLiteral("all_proxy"),
            QStringLiteral("ALL_PROXY"),
            QStringLiteral("NODE_EXTRA_CA_CERTS"),
            QStringLiteral("SSL_CERT_FILE"),
            QStringLiteral("SSL_CERT_DIR"),
    };
    return names;
}

bool isAllowed(const QString &name)
{
    return name.startsWith(QLatin1String("LC_")) || allowedNames().contains(name);
}

bool isProviderSecret(const QString &name)
{
    // Engine::ProviderConfig::fromEnvironment's keys (the base URLs and model names it also
    // reads are not secrets). Kept here because src/mcp cannot see the engine.
    return name == QLatin1String("OPENAI_API_KEY") || name == QLatin1String("ANTHROPIC_API_KEY");
}

QProcessEnvironment build(const QProcessEnvironment &parent, const QMap<QString, QString> &own,
                          bool inheritAll)
{
    QProcessEnvironment env;
    const QStringList names = parent.keys();
    for (const QString &name : names) {
        if (isProviderSecret(name))
            continue;
        if (inheritAll || isAllowed(name))
            env.insert(name, parent.value(name));
    }
    for (auto it = own.cbegin(); it != own.cend(); ++it)
        env.insert(it.key(), it.value());
    return env;
}

} // namespace Mcp::ChildEnvironment
