#include "toolsearch.h"

#include "toolregistry.h"

#include <QRegularExpression>

#include <algorithm>

namespace Engine {

namespace {

// Lower-case words of two characters or more; "read_file" and "readFile" both give "read"
// and "file".
QStringList words(QString text)
{
    static const QRegularExpression camel(QStringLiteral("([a-z0-9])([A-Z])"));
    text.replace(camel, QStringLiteral("\\1 \\2"));
    static const QRegularExpression separators(QStringLiteral("[^\\p{L}\\p{N}]+"));
    QStringList out;
    for (const QString &word : text.toLower().split(separators, Qt::SkipEmptyParts)) {
        if (word.size() >= 2)
            out << word;
    }
    return out;
}

constexpr int MaxDescriptionChars = 300;

} // namespace

SearchToolsTool::SearchToolsTool(ToolRegistry *registry)
    : m_registry(registry)
{
}

QString SearchToolsTool::description() const
{
    return QStringLiteral(
            "Finds tools by what they do. There are more tools than are listed here: search "
            "with a few words (\"create github issue\", \"query database\") and the tools found "
            "become callable from your next step on.");
}

Json SearchToolsTool::inputSchema() const
{
    return {{"type", "object"},
            {"properties",
             {{"query",
               {{"type", "string"}, {"description", "Words describing the tool you need."}}},
              {"limit",
               {{"type", "integer"},
                {"minimum", 1},
                {"maximum", MaxLimit},
                {"description", "How many tools at most (default 8)."}}}}},
            {"required", Json::array({"query"})}};
}

QStringList SearchToolsTool::search(const QString &query, int limit) const
{
    const QStringList wanted = words(query);
    const QString whole = query.trimmed().toLower();
    struct Hit
    {
        int score;
        QString name;
    };
    std::vector<Hit> hits;
    for (const auto &tool : m_registry->offeredTools()) {
        const QString name = tool->name();
        if (name == QLatin1String(Name))
            continue;
        const QStringList nameWords = words(name + QLatin1Char(' ') + tool->originalName());
        const QStringList descriptionWords = words(tool->description());
        int score = 0;
        for (const QString &word : wanted) {
            if (nameWords.contains(word))
                score += 6;
            else if (std::any_of(nameWords.begin(), nameWords.end(),
                                 [&word](const QString &w) { return w.startsWith(word); }))
                score += 3;
            if (descriptionWords.contains(word))
                score += 2;
        }
        if (!whole.isEmpty()
            && (name.toLower() == whole || tool->originalName().toLower() == whole))
            score += 20;
        if (score > 0)
            hits.push_back({score, name});
    }
    std::stable_sort(hits.begin(), hits.end(), [](const Hit &a, const Hit &b) {
        return a.score != b.score ? a.score > b.score : a.name < b.name;
    });
    QStringList names;
    for (const Hit &hit : hits) {
        if (names.size() >= limit)
            break;
        names << hit.name;
    }
    return names;
}

QStringList SearchToolsTool::namesIn(const QString &resultText, const QSet<QString> &known)
{
    QStringList names;
    for (const QString &line : resultText.split(QLatin1Char('\n'))) {
        const qsizetype colon = line.indexOf(QLatin1String(": "));
        const QString name = colon > 0 ? line.left(colon) : line.trimmed();
        if (known.contains(name) && !names.contains(name))
            names << name;
    }
    return names;
}

CancelHandle SearchToolsTool::execute(const Json &arguments, const ToolContext &context,
                                      std::function<void(ToolOutput)> done)
{
    Q_UNUSED(context)
    const auto query = arguments.find("query");
    if (query == arguments.end() || !query->is_string()
        || QString::fromStdString(query->get<std::string>()).trimmed().isEmpty()) {
        done(ToolOutput::error(QStringLiteral("search_tools needs a non-empty 'query' string.")));
        return {};
    }
    int limit = DefaultLimit;
    if (const auto it = arguments.find("limit"); it != arguments.end() && it->is_number_integer())
        limit = int(std::clamp<std::int64_t>(it->get<std::int64_t>(), 1, MaxLimit));
    const QString text = QString::fromStdString(query->get<std::string>());
    const QStringList found = search(text, limit);
    if (found.isEmpty()) {
        done(ToolOutput::text(
                QStringLiteral("No tool matches \"%1\". Try other words.").arg(text.left(200))));
        return {};
    }
    QString out = QStringLiteral("Found %1 tool(s), callable from your next step on:\n")
                          .arg(found.size());
    Json names = Json::array();
    for (const QString &name : found) {
        const auto tool = m_registry->find(name);
        QString description = tool ? tool->description().simplified() : QString();
        if (description.size() > MaxDescriptionChars)
            description = description.left(MaxDescriptionChars) + QStringLiteral("…");
        out += name + QStringLiteral(": ") + description + QLatin1Char('\n');
        names.push_back(name.toStdString());
    }
    ToolOutput output = ToolOutput::text(out);
    output.structuredContent = {{"tools", std::move(names)}};
    done(std::move(output));
    return {};
}

} // namespace Engine
