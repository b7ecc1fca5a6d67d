#pragma once

#include "tool.h"

#include <QObject>
#include <QSet>
#include <QStringList>

#include <map>
#include <memory>
#include <vector>

namespace Engine {

// The one list of tools the model sees: built-ins first, then MCP tools. A name that is
// taken is rejected and reported, never silently replaced (so a server cannot shadow
// read_file). Owned by the application; sources (built-ins, McpToolAdapter) add and remove.
class ToolRegistry : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    // False (and rejected() emitted) when the name is taken.
    bool add(std::shared_ptr<Tool> tool);
    void remove(const QString &name);
    // Removes every MCP tool of one server (built-ins are never removed this way).
    void removeSource(const QString &source);
    // Replaces every MCP tool of `source` with `tools` in one step: one toolsChanged() for
    // the lot (a server with 10,000 tools is one change, not 10,000). Names already taken by
    // another source are rejected as add() does. Returns the tools that were registered.
    std::vector<std::shared_ptr<Tool>> replaceSource(const QString &source,
                                                     std::vector<std::shared_ptr<Tool>> tools);

    // Which tools the model is offered: not those of `sources`, not those named in `tools`,
    // not those the configuration leaves out (Tool::offeredByConfig), and not those only a
    // view may call (MCP Apps visibility without "model"). A person can still run any tool
    // from the tool browser.
    void setNotOffered(const QSet<QString> &sources, const QSet<QString> &tools);
    bool isOffered(const Tool &tool) const;
    bool isSourceOffered(const QString &source) const { return !m_hiddenSources.contains(source); }
    const QSet<QString> &notOfferedSources() const { return m_hiddenSources; }
    const QSet<QString> &notOfferedTools() const { return m_hiddenTools; }
    std::vector<std::shared_ptr<Tool>> offeredTools() const;

    std::shared_ptr<Tool> find(const QString &name) const;
    std::vector<std::shared_ptr<Tool>> tools() const; // built-ins first, then by name
    QStringList names() const;
    // Why each tool turned away and still missing was not registered (as rejected() said):
    // for whoever starts listening after the servers have connected.
    QStringList rejections() const;

signals:
    void toolsChanged();
    void offeringChanged();
    void rejected(const QString &name, const QString &reason);

private:
    // `source`'s tool `name` is refused: `holder` has that name already.
    void reject(const QString &name, const QString &holder, const QString &source);
    void forgetRejections(const QString &source);

    struct Rejection
    {
        QString source;
        QString reason;
    };

    std::map<QString, std::shared_ptr<Tool>> m_tools;
    std::vector<Rejection> m_rejections;
    QSet<QString> m_hiddenSources;
    QSet<QString> m_hiddenTools;
};

} // namespace Engine
