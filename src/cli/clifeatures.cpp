#include "cli.h"
#include "cliinternal.h"

#include <mcp/client/features.h>
#include <mcp/wire/jsonparser.h>

using namespace Mcp;

namespace Cli {

using namespace Internal;

bool Application::serverArguments(const QString &command, int count, const QString &usage,
                                  QStringList *positional)
{
    for (const QString &arg : std::as_const(m_args)) {
        if (arg == QLatin1String("--json"))
            m_json = true;
        else if (arg.startsWith(QLatin1String("--")))
            return usageError(QStringLiteral("%1: unknown option '%2'").arg(command, arg)), false;
        else
            *positional << arg;
    }
    if (positional->size() < count || positional->size() > count + (usage.contains('[') ? 1 : 0)) {
        usageError(QStringLiteral("%1 needs %2").arg(command, usage));
        return false;
    }
    return true;
}

// resources SERVER [--json]
int Application::cmdResources()
{
    QStringList positional;
    if (!serverArguments(QStringLiteral("resources"), 1, QStringLiteral("SERVER"), &positional))
        return Usage;
    const QString server = positional.at(0);
    return connectOne(server, [this, server](Client *client) {
        if (!client->capabilities().resources) {
            err(tr("server '%1' offers no resources").arg(server));
            finish(ToolError);
            return;
        }
        listResources(
                client, this,
                [this, client, server](std::vector<Resource> resources, const QString &error) {
                    if (!error.isEmpty()) {
                        err(QStringLiteral("%1: %2").arg(server, error));
                        finish(ToolError);
                        return;
                    }
                    listResourceTemplates(
                            client, this,
                            [this, server, resources = std::move(resources)](
                                    std::vector<ResourceTemplate> templates, const QString &error) {
                                if (m_json) {
                                    Json listed{{"resources", Json::array()},
                                                {"resourceTemplates", Json::array()}};
                                    for (const Resource &r : resources)
                                        listed["resources"].push_back(r.json);
                                    for (const ResourceTemplate &t : templates)
                                        listed["resourceTemplates"].push_back(t.json);
                                    out(jsonText(listed) + QLatin1Char('\n'));
                                } else {
                                    for (const Resource &r : resources)
                                        out(QStringLiteral("%1\t%2\t%3\n")
                                                    .arg(QString::fromStdString(r.uri), r.name,
                                                         r.mimeType));
                                    for (const ResourceTemplate &t : templates)
                                        out(QStringLiteral("template %1\t%2\t%3\n")
                                                    .arg(QString::fromStdString(t.uriTemplate),
                                                         t.name, t.mimeType));
                                }
                                // A server without templates may not know the method.
                                if (!error.isEmpty())
                                    err(QStringLiteral("%1: %2").arg(server, error));
                                finish(Ok);
                            });
                });
    });
}

// read SERVER URI [--json]
int Application::cmdRead()
{
    QStringList positional;
    if (!serverArguments(QStringLiteral("read"), 2, QStringLiteral("SERVER URI"), &positional))
        return Usage;
    const QString server = positional.at(0);
    const std::string uri = positional.at(1).toStdString();
    return connectOne(server, [this, server, uri](Client *client) {
        readResource(client, uri, this, [this, server](const ReadResourceResult &result) {
            if (!result.ok()) {
                err(QStringLiteral("%1: resources/read failed: %2")
                            .arg(server, result.error->toString()));
                finish(ToolError);
                return;
            }
            if (m_json) {
                out(jsonText(result.json) + QLatin1Char('\n'));
            } else {
                for (const ResourceContents &content : result.contents) {
                    QString text = content.describe();
                    if (!text.endsWith(QLatin1Char('\n')))
                        text += QLatin1Char('\n');
                    out(text);
                }
            }
            finish(result.wellFormed ? Ok : ToolError);
        });
    });
}

// prompts SERVER [--json]
int Application::cmdPrompts()
{
    QStringList positional;
    if (!serverArguments(QStringLiteral("prompts"), 1, QStringLiteral("SERVER"), &positional))
        return Usage;
    const QString server = positional.at(0);
    return connectOne(server, [this, server](Client *client) {
        if (!client->capabilities().prompts) {
            err(tr("server '%1' offers no prompts").arg(server));
            finish(ToolError);
            return;
        }
        listPrompts(client, this,
                    [this, server](std::vector<Prompt> prompts, const QString &error) {
                        if (!error.isEmpty()) {
                            err(QStringLiteral("%1: %2").arg(server, error));
                            finish(ToolError);
                            return;
                        }
                        if (m_json) {
                            Json listed{{"prompts", Json::array()}};
                            for (const Prompt &prompt : prompts)
                                listed["prompts"].push_back(prompt.json);
                            out(jsonText(listed) + QLatin1Char('\n'));
                            finish(Ok);
                            return;
                        }
                        for (const Prompt &prompt : prompts) {
                            QStringList arguments;
                            for (const PromptArgument &argument : prompt.arguments)
                                arguments << argument.name
                                                     + (argument.required ? QStringLiteral("*")
                                                                          : QString());
                            out(QStringLiteral("%1(%2)\t%3\n")
                                        .arg(prompt.name, arguments.join(QStringLiteral(", ")),
                                             prompt.description));
                        }
                        finish(Ok);
                    });
    });
}

// prompt SERVER NAME [ARGS_JSON] [--json]
int Application::cmdPrompt()
{
    QStringList positional;
    if (!serverArguments(QStringLiteral("prompt"), 2, QStringLiteral("SERVER NAME [ARGS_JSON]"),
                         &positional))
        return Usage;
    const QString server = positional.at(0);
    const std::string name = positional.at(1).toStdString();
    std::map<std::string, std::string> strings;
    if (positional.size() == 3) {
        const Json arguments = parseJson(positional.at(2).toStdString());
        if (!arguments.is_object())
            return usageError(QStringLiteral("ARGS_JSON must be a JSON object, got: %1")
                                      .arg(positional.at(2)));
        // A prompt's arguments are strings; a number or a flag is meant as its text.
        for (const auto &[key, value] : arguments.items())
            strings[key] = value.is_string() ? value.get<std::string>() : value.dump();
    }
    return connectOne(server, [this, server, name, strings](Client *client) {
        getPrompt(client, name, strings, this, [this, server](const GetPromptResult &result) {
            if (!result.ok()) {
                err(QStringLiteral("%1: prompts/get failed: %2")
                            .arg(server, result.error->toString()));
                finish(ToolError);
                return;
            }
            if (m_json) {
                out(jsonText(result.json) + QLatin1Char('\n'));
                finish(Ok);
                return;
            }
            for (const PromptMessage &message : result.messages) {
                QString text = QStringLiteral("[%1] %2").arg(message.role, message.describe());
                if (!text.endsWith(QLatin1Char('\n')))
                    text += QLatin1Char('\n');
                out(text);
            }
            finish(Ok);
        });
    });
}

} // namespace Cli
