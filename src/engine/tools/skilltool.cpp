#include "skilltool.h"

#include "toolregistry.h"

#include <mcp/client/features.h>
#include <mcp/client/listing.h>
#include <mcp/manager.h>

#include <QCoreApplication>
#include <QUrl>

namespace Engine {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Engine::UseSkillTool", text);
}

} // namespace

SkillCatalog::SkillCatalog(Mcp::Manager *manager, ToolRegistry *registry, QObject *parent)
    : QObject(parent)
    , m_manager(manager)
    , m_registry(registry)
{
    connect(m_manager, &Mcp::Manager::serverStatusChanged, this, &SkillCatalog::refresh);
    for (const QString &server : m_manager->serverNames())
        refresh(server);
}

void SkillCatalog::refresh(const QString &server)
{
    Mcp::Client *client = m_manager->client(server);
    const bool connected = client && m_manager->status(server).state == Mcp::ServerState::Connected
                           && Mcp::Skills::offered(client->serverCapabilities());
    if (!connected) {
        m_listing.erase(server);
        if (m_listed.erase(server))
            update();
        return;
    }
    if (m_listed.count(server) || m_listing.count(server))
        return;
    // A fresh context per listing: a server that goes away takes its answer with it.
    auto *context = new QObject(this);
    m_listing[server] = context;
    Mcp::listAll(client, "skills/list", "skills", context,
                 [this, server, context](std::vector<Json> items, const QString &) {
                     context->deleteLater();
                     if (m_listing[server] != context)
                         return;
                     m_listing.erase(server);
                     QStringList problems;
                     m_listed[server] = Mcp::Skills::readList(
                             Json{{"skills", Json(std::move(items))}}, &problems);
                     update();
                 });
}

void SkillCatalog::update()
{
    const bool any = std::any_of(m_listed.begin(), m_listed.end(),
                                 [](const auto &listed) { return !listed.second.empty(); });
    if (any && !m_registered)
        m_registered = m_registry->add(std::make_shared<UseSkillTool>(this));
    else if (!any && m_registered) {
        m_registry->remove(QString::fromLatin1(UseSkillTool::Name));
        m_registered = false;
    }
    emit changed();
}

void SkillCatalog::setLoaded(const Skill &skill, bool loaded)
{
    const QString key = skill.server + QLatin1Char('\n') + skill.entry.uri;
    if (loaded)
        m_loaded.insert(key);
    else
        m_loaded.remove(key);
}

bool SkillCatalog::isLoaded(const Skill &skill) const
{
    return m_loaded.contains(skill.server + QLatin1Char('\n') + skill.entry.uri);
}

std::vector<SkillCatalog::Skill> SkillCatalog::skills() const
{
    std::vector<Skill> out;
    for (const auto &[server, entries] : m_listed) {
        for (const Mcp::Skills::Entry &entry : entries)
            out.push_back({server, entry});
    }
    return out;
}

const SkillCatalog::Skill *SkillCatalog::find(const QString &name, QString *error) const
{
    static thread_local Skill found;
    std::vector<Skill> matches;
    for (const Skill &skill : skills()) {
        if (skill.entry.uri == name || skill.entry.name() == name
            || skill.server + QLatin1Char(':') + skill.entry.name() == name)
            matches.push_back(skill);
    }
    if (matches.size() == 1) {
        found = matches.front();
        return &found;
    }
    QStringList names;
    for (const Skill &skill : matches.empty() ? skills() : matches)
        names << skill.server + QLatin1Char(':') + skill.entry.name();
    *error = matches.empty()
                     ? tr("There is no skill '%1'. Skills: %2.")
                               .arg(name,
                                    names.isEmpty() ? tr("none") : names.join(QStringLiteral(", ")))
                     : tr("Several servers have a skill '%1': name one of %2.")
                               .arg(name, names.join(QStringLiteral(", ")));
    return nullptr;
}

UseSkillTool::UseSkillTool(SkillCatalog *catalog)
    : m_catalog(catalog)
{
}

QString UseSkillTool::description() const
{
    QString text = QStringLiteral(
            "Loads a skill: instructions (and files) an MCP server offers for a kind of task. "
            "Load one when the task matches its description, then follow it; `file` reads one "
            "of the files its instructions name. Skills:");
    int listed = 0;
    const auto skills = m_catalog ? m_catalog->skills() : std::vector<SkillCatalog::Skill>();
    for (const SkillCatalog::Skill &skill : skills) {
        if (++listed > SkillCatalog::MaxSkillsInDescription) {
            text += QStringLiteral("\n- … and %1 more").arg(skills.size() - listed + 1);
            break;
        }
        text += QStringLiteral("\n- %1:%2: %3")
                        .arg(skill.server, skill.entry.name(),
                             skill.entry.description().simplified().left(300));
    }
    return text;
}

Json UseSkillTool::inputSchema() const
{
    return {{"type", "object"},
            {"properties",
             {{"skill",
               {{"type", "string"},
                {"description", "The skill's name, or SERVER:NAME when two servers share it."}}},
              {"file",
               {{"type", "string"},
                {"description",
                 "One of the skill's other files, relative to its SKILL.md (omit to load the "
                 "skill itself)."}}}}},
            {"required", Json::array({"skill"})}};
}

CancelHandle UseSkillTool::execute(const Json &arguments, const ToolContext &context,
                                   std::function<void(ToolOutput)> done)
{
    Q_UNUSED(context)
    if (!m_catalog) {
        done(ToolOutput::error(tr("Skills are not available.")));
        return {};
    }
    const QString name = Mcp::stringMember(arguments, "skill");
    const QString file = Mcp::stringMember(arguments, "file");
    QString error;
    const SkillCatalog::Skill *found = m_catalog->find(name, &error);
    if (!found) {
        done(ToolOutput::error(error));
        return {};
    }
    const SkillCatalog::Skill skill = *found;
    QString uri = skill.entry.uri;
    if (!file.isEmpty()) {
        uri = file.startsWith(QLatin1String("skill://"))
                      ? file
                      : QUrl(skill.entry.uri).resolved(QUrl(file)).toString();
        if (!m_catalog->isLoaded(skill)) {
            done(ToolOutput::error(tr("Load the skill first (use_skill without file): its "
                                      "files are read only once its SKILL.md is verified.")));
            return {};
        }
        // Only the files the listing names: anything else is refused without a request.
        if (!skill.entry.file(uri)) {
            QStringList files;
            for (const Mcp::Skills::File &listed : skill.entry.files)
                files << listed.uri;
            done(ToolOutput::error(tr("%1 is not one of the skill's files: %2")
                                           .arg(uri, files.join(QStringLiteral(", ")))));
            return {};
        }
    }
    Mcp::Client *client = m_catalog->manager()->client(skill.server);
    if (!client) {
        done(ToolOutput::error(tr("The MCP server '%1' is not connected.").arg(skill.server)));
        return {};
    }
    const Mcp::RequestId id = Mcp::readResource(
            client, uri.toStdString(), m_catalog,
            [catalog = m_catalog, skill, uri, done](const Mcp::ReadResourceResult &result) {
                if (!result.ok()) {
                    done(ToolOutput::error(
                            tr("Reading %1 failed: %2")
                                    .arg(uri, QString::fromStdString(result.error->message))));
                    return;
                }
                QString why;
                const auto bytes = Mcp::Skills::contentBytes(result.json, uri, &why);
                if (bytes)
                    why = Mcp::Skills::verify(skill.entry, uri, *bytes);
                if (catalog && uri == skill.entry.uri)
                    catalog->setLoaded(skill, why.isEmpty());
                if (!why.isEmpty()) {
                    done(ToolOutput::error(tr("The skill was not loaded: it does not match what "
                                              "its server listed (%1).")
                                                   .arg(why)));
                    return;
                }
                QString text = tr("[skill %1 from the MCP server \"%2\", %3, verified]")
                                       .arg(skill.entry.name(), skill.server, uri)
                               + QLatin1Char('\n') + QString::fromUtf8(*bytes);
                if (uri == skill.entry.uri && skill.entry.files.size() > 1) {
                    QStringList others;
                    for (const Mcp::Skills::File &listed : skill.entry.files) {
                        if (listed.uri != uri)
                            others << listed.uri;
                    }
                    text += QLatin1Char('\n')
                            + tr("[its other files, read with use_skill and file: %1]")
                                      .arg(others.join(QStringLiteral(", ")));
                }
                done(ToolOutput::text(text));
            });
    QPointer<Mcp::Client> guard(client);
    return [guard, id] {
        if (guard)
            guard->cancel(id, QStringLiteral("cancelled by Switchboard"));
    };
}

} // namespace Engine
