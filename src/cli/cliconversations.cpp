// switchboard-cli conversations: the saved conversations, and search in what was said.
#include "cli.h"
#include "cliinternal.h"

#include <engine/storage/conversationexport.h>
#include <engine/storage/conversationstore.h>

#include <QDir>
#include <QHash>
#include <QSaveFile>

#include <climits>
#include <cstdio>

namespace Cli {

using namespace Internal;
using Mcp::Json;

int Application::cmdConversations()
{
    QString search;
    bool all = false;
    for (int i = 0; i < m_args.size(); ++i) {
        const QString &arg = m_args.at(i);
        if (arg == QLatin1String("--json"))
            m_json = true;
        else if (arg == QLatin1String("--all"))
            all = true;
        else if (!takeValue(m_args, i, QStringLiteral("--search"), &search))
            return usageError(tr("conversations: unexpected argument '%1'").arg(arg));
    }
    if (m_args.contains(QLatin1String("--search")) && search.trimmed().isEmpty())
        return usageError(tr("conversations: --search needs the text to look for"));
    const Engine::ConversationStore store;
    const QString workspace = QDir::cleanPath(m_workspace);
    const auto here = [&](const Engine::ConversationInfo &info) {
        return all || QDir::cleanPath(info.workspace) == workspace;
    };
    const QList<Engine::ConversationInfo> conversations = store.list();
    QHash<QString, Engine::SearchHit> hits;
    if (!search.isEmpty()) {
        for (const Engine::SearchHit &hit : store.search(search, conversations, INT_MAX))
            hits.insert(hit.id, hit);
    }
    Json list = Json::array();
    int shown = 0;
    for (const Engine::ConversationInfo &info : conversations) {
        if (!here(info) || (!search.isEmpty() && !hits.contains(info.id)))
            continue;
        ++shown;
        const Engine::SearchHit hit = hits.value(info.id);
        if (m_json) {
            Json entry{{"id", info.id.toStdString()},
                       {"title", info.title.toStdString()},
                       {"workspace", info.workspace.toStdString()},
                       {"created", info.created.toString(Qt::ISODateWithMs).toStdString()},
                       {"updated", info.updated.toString(Qt::ISODateWithMs).toStdString()},
                       {"messages", info.messageCount}};
            if (!info.origin.isEmpty())
                entry["origin"] = info.origin.toStdString();
            if (!search.isEmpty())
                entry["match"] = {{"message", hit.message},
                                  {"line", hit.line.toStdString()},
                                  {"count", hit.count}};
            list.push_back(std::move(entry));
            continue;
        }
        // ID  when  messages  title [· workspace]; a match's line below it.
        QString line = QStringLiteral("%1  %2  %3  %4")
                               .arg(info.id,
                                    info.updated.toLocalTime().toString(
                                            QStringLiteral("yyyy-MM-dd HH:mm")),
                                    tr("%n message(s)", nullptr, info.messageCount),
                                    info.title.isEmpty() ? tr("(untitled)") : info.title);
        if (all)
            line += QStringLiteral("  · ") + QDir::toNativeSeparators(info.workspace);
        out(line + QLatin1Char('\n'));
        if (!search.isEmpty())
            out(tr("    #%1: %2 (%n match(es))", nullptr, hit.count)
                        .arg(hit.message + 1)
                        .arg(hit.line)
                + QLatin1Char('\n'));
    }
    if (m_json) {
        out(jsonText(list) + QLatin1Char('\n'));
    } else if (shown == 0 && search.isEmpty()) {
        err(all ? tr("no saved conversations")
                : tr("no saved conversations in %1 (--all lists every workspace's)")
                            .arg(QDir::toNativeSeparators(workspace)));
    } else if (shown == 0) {
        err(all ? tr("no conversation says '%1'").arg(search)
                : tr("no conversation of this workspace says '%1'").arg(search));
    }
    return Ok;
}

int Application::cmdExport()
{
    QString id, formatName = QStringLiteral("md"), output;
    for (int i = 0; i < m_args.size(); ++i) {
        const QString &arg = m_args.at(i);
        if (takeValue(m_args, i, QStringLiteral("--format"), &formatName)
            || takeValue(m_args, i, QStringLiteral("--output"), &output))
            continue;
        if (arg.startsWith(QLatin1String("--")) || !id.isEmpty())
            return usageError(tr("export: unexpected argument '%1'").arg(arg));
        id = arg;
    }
    if (id.isEmpty())
        return usageError(tr("export needs the ID of a conversation (switchboard-cli "
                             "conversations lists them)"));
    const std::optional<Engine::ConversationExport::Format> format
            = Engine::ConversationExport::formatNamed(formatName);
    if (!format)
        return usageError(tr("export: --format is md, html or json, not '%1'").arg(formatName));
    const Engine::ConversationStore store;
    // The whole ID, or the start of one that no other conversation shares.
    QStringList matching;
    for (const Engine::ConversationInfo &info : store.list()) {
        if (info.id == id) {
            matching = {id};
            break;
        }
        if (info.id.startsWith(id))
            matching << info.id;
    }
    if (matching.size() != 1) {
        err(matching.isEmpty() ? tr("export: no saved conversation has the ID %1").arg(id)
                               : tr("export: %1 starts %n conversation ID(s); give more of it",
                                    nullptr, int(matching.size()))
                                         .arg(id));
        return Usage;
    }
    QString error;
    const std::optional<Engine::Conversation> conversation = store.load(matching.first(), &error);
    if (!conversation) {
        err(tr("export: %1").arg(error));
        return ServerFailed;
    }
    const QByteArray bytes = Engine::ConversationExport::exported(*conversation, *format);
    if (output.isEmpty()) {
        std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
        std::fflush(stdout);
        return Ok;
    }
    QSaveFile file(output);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        err(tr("export: cannot write %1: %2")
                    .arg(QDir::toNativeSeparators(output), file.errorString()));
        return ServerFailed;
    }
    err(tr("exported %1 to %2").arg(conversation->title, QDir::toNativeSeparators(output)));
    return Ok;
}

} // namespace Cli
