#pragma once

#include <QHash>
#include <QObject>
#include <QStringList>

#include <optional>

namespace Mcp {
class Manager;
}

namespace Gui {

// What the composer takes besides a message: "/mcp" (the tool browser) and each connected
// server's "/server:prompt" (that prompt's form). The prompt names are listed once per server
// connection, when the composer first asks for them.
class SlashCommands : public QObject
{
    Q_OBJECT
public:
    explicit SlashCommands(Mcp::Manager *manager, QObject *parent = nullptr);

    // Every command known now, for the composer's suggestions; asks the servers not yet asked.
    QStringList commands();

    struct Command
    {
        QString server; // empty: "/mcp"
        QString prompt;
    };
    // `text` (trimmed) as a command, if it is one: "/mcp", or "/server:prompt" of a server
    // that is connected.
    std::optional<Command> parse(const QString &text) const;

private:
    void listPrompts();

    Mcp::Manager *m_manager;
    QHash<QString, QStringList> m_promptNames; // by server
};

} // namespace Gui
