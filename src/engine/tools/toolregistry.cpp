#include "toolregistry.h"

namespace Engine {

bool ToolRegistry::add(std::shared_ptr<Tool> tool)
{
    const QString name = tool->name();
    auto it = m_tools.find(name);
    if (it != m_tools.end()) {
        reject(name, it->second->source(), tool->source());
        return false;
    }
    m_tools.emplace(name, std::move(tool));
    emit toolsChanged();
    return true;
}

void ToolRegistry::remove(const QString &name)
{
    if (m_tools.erase(name) > 0)
        emit toolsChanged();
}

void ToolRegistry::removeSource(const QString &source)
{
    forgetRejections(source);
    const auto removed = std::erase_if(m_tools, [&](const auto &entry) {
        return !entry.second->isBuiltin() && entry.second->source() == source;
    });
    if (removed > 0)
        emit toolsChanged();
}

std::vector<std::shared_ptr<Tool>>
ToolRegistry::replaceSource(const QString &source, std::vector<std::shared_ptr<Tool>> tools)
{
    forgetRejections(source);
    const auto removed = std::erase_if(m_tools, [&](const auto &entry) {
        return !entry.second->isBuiltin() && entry.second->source() == source;
    });
    std::vector<std::shared_ptr<Tool>> added;
    added.reserve(tools.size());
    for (std::shared_ptr<Tool> &tool : tools) {
        const QString name = tool->name();
        const auto [it, inserted] = m_tools.try_emplace(name, tool);
        if (!inserted) {
            reject(name, it->second->source(), tool->source());
            continue;
        }
        added.push_back(std::move(tool));
    }
    if (removed > 0 || !added.empty())
        emit toolsChanged();
    return added;
}

void ToolRegistry::setNotOffered(const QSet<QString> &sources, const QSet<QString> &tools)
{
    if (sources == m_hiddenSources && tools == m_hiddenTools)
        return;
    m_hiddenSources = sources;
    m_hiddenTools = tools;
    emit offeringChanged();
}

bool ToolRegistry::isOffered(const Tool &tool) const
{
    return tool.offeredByConfig() && tool.appUi().model && !m_hiddenTools.contains(tool.name())
           && (tool.isBuiltin() || !m_hiddenSources.contains(tool.source()));
}

std::vector<std::shared_ptr<Tool>> ToolRegistry::offeredTools() const
{
    std::vector<std::shared_ptr<Tool>> result = tools();
    std::erase_if(result, [this](const auto &tool) { return !isOffered(*tool); });
    return result;
}

std::shared_ptr<Tool> ToolRegistry::find(const QString &name) const
{
    auto it = m_tools.find(name);
    return it == m_tools.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<Tool>> ToolRegistry::tools() const
{
    std::vector<std::shared_ptr<Tool>> builtins, others;
    for (const auto &[name, tool] : m_tools)
        (tool->isBuiltin() ? builtins : others).push_back(tool);
    builtins.insert(builtins.end(), others.begin(), others.end());
    return builtins;
}

QStringList ToolRegistry::rejections() const
{
    QStringList reasons;
    for (const Rejection &rejection : m_rejections)
        reasons.append(rejection.reason);
    return reasons;
}

void ToolRegistry::reject(const QString &name, const QString &holder, const QString &source)
{
    const QString reason = tr("a tool named '%1' already exists (from %2); the one from %3 is "
                              "not registered")
                                   .arg(name, holder, source);
    m_rejections.push_back({source, reason});
    emit rejected(name, reason);
}

void ToolRegistry::forgetRejections(const QString &source)
{
    std::erase_if(m_rejections, [&](const Rejection &r) { return r.source == source; });
}

QStringList ToolRegistry::names() const
{
    QStringList names;
    for (const auto &tool : tools())
        names << tool->name();
    return names;
}

} // namespace Engine
