#include "slashcommands.h"

#include <mcp/client/features.h>
#include <mcp/manager.h>

#include <QRegularExpression>

namespace Gui {

SlashCommands::SlashCommands(Mcp::Manager *manager, QObject *parent)
    : QObject(parent)
    , m_manager(manager)
{
    // A server that restarts may offer other prompts: asked again.
    connect(m_manager, &Mcp::Manager::serverStatusChanged, this,
            [this](const QString &server) { m_promptNames.remove(server); });
}

QStringList SlashCommands::commands()
{
    QStringList commands{QStringLiteral("/mcp")};
    for (auto it = m_promptNames.cbegin(); it != m_promptNames.cend(); ++it) {
        for (const QString &prompt : it.value())
            commands << QLatin1Char('/') + it.key() + QLatin1Char(':') + prompt;
    }
    listPrompts();
    return commands;
}

std::optional<SlashCommands::Command> SlashCommands::parse(const QString &text) const
{
    if (text == QLatin1String("/mcp"))
        return Command{};
    static const QRegularExpression promptCommand(QStringLiteral("^/([^\\s:/]+):(\\S+)$"));
    const auto match = promptCommand.match(text);
    if (match.hasMatch() && m_manager->client(match.captured(1)))
        return Command{match.captured(1), match.captured(2)};
    return std::nullopt;
}

// The prompts of each connected server that offers them: once per connection.
void SlashCommands::listPrompts()
{
    for (const QString &server : m_manager->serverNames()) {
        Mcp::Client *client = m_manager->client(server);
        if (!client || !client->capabilities().prompts || m_promptNames.contains(server))
            continue;
        m_promptNames.insert(server, {}); // asked: not again while it answers
        Mcp::listPrompts(client, this,
                         [this, server](std::vector<Mcp::Prompt> prompts, const QString &) {
                             QStringList names;
                             for (const Mcp::Prompt &prompt : prompts)
                                 names << prompt.name;
                             m_promptNames.insert(server, names);
                         });
    }
}

} // namespace Gui
