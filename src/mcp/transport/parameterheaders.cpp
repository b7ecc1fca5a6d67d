#include "parameterheaders.h"

#include "httpsupport.h"

#include <QCoreApplication>

#include <algorithm>
#include <set>

namespace Mcp {

namespace {

constexpr const char *Annotation = "x-mcp-header";

QString tr(const char *text)
{
    return QCoreApplication::translate("Mcp::ParameterHeaders", text);
}

QString pathText(const std::vector<std::string> &path)
{
    QStringList parts;
    for (const std::string &key : path)
        parts << QString::fromStdString(key);
    return parts.join(QLatin1Char('.'));
}

struct Scan
{
    std::vector<ParameterHeader> found;
    std::set<std::string> lowered; // the names found, lower case: unique but for case
    QString problem;

    // `path` is the property path when `schema` is reached through "properties" alone, or
    // nullopt when it is not (then any declaration below is invalid).
    void schema(const Json &node, const std::optional<std::vector<std::string>> &path)
    {
        if (!problem.isEmpty())
            return;
        if (node.is_array()) {
            for (const Json &item : node)
                schema(item, std::nullopt);
            return;
        }
        if (!node.is_object())
            return;
        if (auto it = node.find(Annotation); it != node.end())
            declaration(node, *it, path);
        for (const auto &[key, value] : node.items()) {
            if (!problem.isEmpty())
                return;
            // Values, not schemas: a key named x-mcp-header in a default is just data.
            if (key == Annotation || key == "const" || key == "enum" || key == "default"
                || key == "examples")
                continue;
            if (key == "properties" && value.is_object() && path) {
                for (const auto &[name, property] : value.items()) {
                    std::vector<std::string> next = *path;
                    next.push_back(name);
                    schema(property, next);
                }
                continue;
            }
            schema(value, std::nullopt);
        }
    }

    void declaration(const Json &node, const Json &value,
                     const std::optional<std::vector<std::string>> &path)
    {
        if (!path || path->empty()) {
            problem = tr("x-mcp-header is only allowed on a property reached through "
                         "\"properties\"");
            return;
        }
        const QString where = pathText(*path);
        if (!value.is_string() || value.get_ref<const std::string &>().empty()) {
            problem = tr("the x-mcp-header of '%1' is empty or not a string").arg(where);
            return;
        }
        const std::string &name = value.get_ref<const std::string &>();
        if (!Http::isHeaderName(QString::fromStdString(name))) {
            problem = tr("the x-mcp-header of '%1' is not a valid header name").arg(where);
            return;
        }
        const Json type = node.value("type", Json());
        if (!type.is_string() || (type != "string" && type != "integer" && type != "boolean")) {
            problem = tr("the x-mcp-header of '%1' is on a type other than string, integer or "
                         "boolean")
                              .arg(where);
            return;
        }
        std::string lower = name;
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](unsigned char c) { return char(std::tolower(c)); });
        if (!lowered.insert(lower).second) {
            problem = tr("the header name '%1' is declared twice")
                              .arg(QString::fromStdString(name));
            return;
        }
        found.push_back(ParameterHeader{*path, name});
    }
};

} // namespace

std::optional<std::vector<ParameterHeader>> parameterHeaders(const Json &inputSchema,
                                                             QString *problem)
{
    Scan scan;
    scan.schema(inputSchema, std::vector<std::string>{});
    if (!scan.problem.isEmpty()) {
        if (problem)
            *problem = scan.problem;
        return std::nullopt;
    }
    return std::move(scan.found);
}

} // namespace Mcp
