#pragma once

#include "tool.h"

#include <QSet>
#include <QStringList>

namespace Engine {

class ToolRegistry;

// `search_tools {query, limit?}`: above a number of tools (AgentOptions::toolSearchThreshold)
// the model is given the built-ins, the pinned tools and this one instead of every
// definition; what it finds here joins the next request's definitions for the rest of the
// conversation (Agent reads the names from the result). Read-only: it only looks at the
// registry's names and descriptions.
class SearchToolsTool : public Tool
{
public:
    explicit SearchToolsTool(ToolRegistry *registry);

    static constexpr const char *Name = "search_tools";
    static constexpr int DefaultLimit = 8;
    static constexpr int MaxLimit = 20;

    QString name() const override { return QString::fromLatin1(Name); }
    QString description() const override;
    Json inputSchema() const override;
    Risk risk() const override { return Risk::Read; }

    // The offered tools that best match `query` (words in the name count more than in the
    // description), best first; never search_tools itself.
    QStringList search(const QString &query, int limit) const;
    // The tool names a search_tools result (its text, as the model read it) found, of those
    // in `known`: how an opened conversation remembers what was found before.
    static QStringList namesIn(const QString &resultText, const QSet<QString> &known);

protected:
    CancelHandle execute(const Json &arguments, const ToolContext &context,
                         std::function<void(ToolOutput)> done) override;

private:
    ToolRegistry *m_registry;
};

} // namespace Engine
