#pragma once

#include "tool.h"

#include <QObject>
#include <QStringList>

#include <map>
#include <memory>

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

    std::shared_ptr<Tool> find(const QString &name) const;
    std::vector<std::shared_ptr<Tool>> tools() const; // built-ins first, then by name
    QStringList names() const;

signals:
    void toolsChanged();
    void rejected(const QString &name, const QString &reason);

private:
    std::map<QString, std::shared_ptr<Tool>> m_tools;
};

} // namespace Engine
