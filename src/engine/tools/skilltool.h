#pragma once

#include "tool.h"

#include <mcp/client/skills.h>

#include <QObject>
#include <QPointer>
#include <QSet>

#include <map>
#include <vector>

namespace Mcp {
class Manager;
}

namespace Engine {

class ToolRegistry;

// The skills (SEP-2640) of the connected servers that declare the extension: listed when a
// server connects (skills/list, every page), never read ahead of use. While any is listed,
// the registry holds `use_skill`.
class SkillCatalog : public QObject
{
    Q_OBJECT
public:
    struct Skill
    {
        QString server;
        Mcp::Skills::Entry entry;
    };

    SkillCatalog(Mcp::Manager *manager, ToolRegistry *registry, QObject *parent = nullptr);

    std::vector<Skill> skills() const;
    // The skill a name means: "NAME", "SERVER:NAME" or its SKILL.md URI; nullptr with why
    // (none, or several: they are named) otherwise.
    const Skill *find(const QString &name, QString *error) const;
    Mcp::Manager *manager() const { return m_manager; }
    // A skill is being acted on from its verified SKILL.md on: only then may its other files
    // be read (SEP-2640's window); a failed verification closes it.
    void setLoaded(const Skill &skill, bool loaded);
    bool isLoaded(const Skill &skill) const;

    static constexpr int MaxSkillsInDescription = 50;

signals:
    void changed();

private:
    void refresh(const QString &server);
    void update();

    Mcp::Manager *m_manager;
    ToolRegistry *m_registry;
    std::map<QString, std::vector<Mcp::Skills::Entry>> m_listed; // by server
    std::map<QString, QPointer<QObject>> m_listing;              // a listing in flight
    bool m_registered = false;
    QSet<QString> m_loaded; // "server\nuri"
};

// `use_skill {skill, file?}`: loads a skill's SKILL.md (or, with `file`, one of its other
// listed files, relative to the SKILL.md or as a URI) from its server; the text reaches the
// model only once it is verified against the listing (size, SHA-256 digest, and for the
// SKILL.md its frontmatter). An unlisted file is refused without asking the server. Read risk.
class UseSkillTool : public Tool
{
public:
    explicit UseSkillTool(SkillCatalog *catalog);

    static constexpr const char *Name = "use_skill";

    QString name() const override { return QString::fromLatin1(Name); }
    QString description() const override;
    Json inputSchema() const override;
    Risk risk() const override { return Risk::Read; }

protected:
    CancelHandle execute(const Json &arguments, const ToolContext &context,
                         std::function<void(ToolOutput)> done) override;

private:
    QPointer<SkillCatalog> m_catalog;
};

} // namespace Engine
