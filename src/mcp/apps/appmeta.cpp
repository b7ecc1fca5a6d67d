#include "appmeta.h"

#include <mcp/wire/jsonmember.h>

#include <QCoreApplication>

namespace Mcp::Apps {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Mcp::Apps", text);
}

bool isUiUri(const Json &value)
{
    return value.is_string() && value.get_ref<const std::string &>().starts_with("ui://");
}

QStringList stringList(const Json &value)
{
    QStringList out;
    if (!value.is_array())
        return out;
    for (const Json &item : value) {
        if (out.size() >= MaxDomains)
            break;
        if (item.is_string())
            out << QString::fromStdString(item.get_ref<const std::string &>());
    }
    return out;
}

Json jsonList(const QStringList &list)
{
    Json out = Json::array();
    for (const QString &item : list)
        out.push_back(item.toStdString());
    return out;
}

} // namespace

Json clientCapability()
{
    return Json{{"mimeTypes", Json::array({ViewMimeType})}};
}

bool isViewMimeType(const QString &mimeType)
{
    QString compact = mimeType.toLower();
    compact.remove(QLatin1Char(' '));
    compact.remove(QLatin1Char('\t'));
    return compact == QLatin1String(ViewMimeType);
}

ToolUi ToolUi::fromTool(const Json &tool)
{
    ToolUi out;
    const Json &meta = jsonMember(tool, "_meta");
    if (!meta.is_object())
        return out;
    const Json &ui = jsonMember(meta, "ui");
    if (const Json &uri = jsonMember(ui, "resourceUri"); isUiUri(uri)) {
        out.resourceUri = uri.get<std::string>();
    } else if (const Json &flat = jsonMember(meta, "ui/resourceUri"); isUiUri(flat)) {
        out.resourceUri = flat.get<std::string>();
        out.fromFlatKey = true;
    }
    // Read strictly: a tool is offered to the model only when its visibility says "model"
    // (the spec's MUST), so a list without it — even an empty one — hides the tool.
    if (const Json &visibility = jsonMember(ui, "visibility"); visibility.is_array()) {
        out.model = std::find(visibility.begin(), visibility.end(), "model") != visibility.end();
        out.app = std::find(visibility.begin(), visibility.end(), "app") != visibility.end();
    }
    return out;
}

QString toolUiNote(const Json &tool)
{
    const Json &meta = jsonMember(tool, "_meta");
    if (!meta.is_object())
        return {};
    const QString name = QString::fromStdString(
            jsonMember(tool, "name").is_string() ? tool["name"].get<std::string>() : std::string());
    const Json &ui = jsonMember(meta, "ui");
    const Json &nested = jsonMember(ui, "resourceUri");
    const Json &flat = jsonMember(meta, "ui/resourceUri");
    QStringList notes;
    if (!nested.is_null() && !isUiUri(nested))
        notes << tr("_meta.ui.resourceUri is not a ui:// uri; ignored");
    if (!flat.is_null() && nested.is_null()) {
        notes << (isUiUri(flat)
                          ? tr("names its view with the deprecated _meta[\"ui/resourceUri\"]; "
                               "used, but servers should send _meta.ui.resourceUri")
                          : tr("_meta[\"ui/resourceUri\"] (deprecated) is not a ui:// uri; "
                               "ignored"));
    } else if (!flat.is_null() && flat != nested) {
        notes << tr("_meta[\"ui/resourceUri\"] (deprecated) differs from _meta.ui.resourceUri; "
                    "the latter is used");
    }
    const Json &visibility = jsonMember(ui, "visibility");
    if (!visibility.is_null() && !visibility.is_array()) {
        notes << tr("_meta.ui.visibility is not a list; the tool is treated as visible to both "
                    "the model and its view");
    } else if (visibility.is_array()) {
        for (const Json &who : visibility) {
            if (who != "model" && who != "app") {
                notes << tr("_meta.ui.visibility has an unknown entry %1; ignored")
                                 .arg(QString::fromStdString(who.dump()).left(80));
                break;
            }
        }
    }
    if (notes.isEmpty())
        return {};
    return tr("tool '%1': %2").arg(name.left(200), notes.join(QLatin1String("; ")));
}

ViewMeta ViewMeta::fromMeta(const Json &meta)
{
    ViewMeta out;
    const Json &ui = jsonMember(meta, "ui");
    if (!ui.is_object())
        return out;
    out.declared = true;
    const Json &csp = jsonMember(ui, "csp");
    out.cspDeclared = csp.is_object();
    out.connectDomains = stringList(jsonMember(csp, "connectDomains"));
    out.resourceDomains = stringList(jsonMember(csp, "resourceDomains"));
    out.frameDomains = stringList(jsonMember(csp, "frameDomains"));
    out.baseUriDomains = stringList(jsonMember(csp, "baseUriDomains"));
    const Json &permissions = jsonMember(ui, "permissions");
    out.camera = jsonMember(permissions, "camera").is_object();
    out.microphone = jsonMember(permissions, "microphone").is_object();
    out.geolocation = jsonMember(permissions, "geolocation").is_object();
    out.clipboardWrite = jsonMember(permissions, "clipboardWrite").is_object();
    if (const Json &domain = jsonMember(ui, "domain"); domain.is_string())
        out.domain = QString::fromStdString(domain.get<std::string>()).left(253);
    if (const Json &border = jsonMember(ui, "prefersBorder"); border.is_boolean())
        out.prefersBorder = border.get<bool>();
    return out;
}

Json ViewMeta::toJson() const
{
    Json csp{{"connectDomains", jsonList(connectDomains)},
             {"resourceDomains", jsonList(resourceDomains)},
             {"frameDomains", jsonList(frameDomains)},
             {"baseUriDomains", jsonList(baseUriDomains)}};
    Json permissions = Json::object();
    if (camera)
        permissions["camera"] = Json::object();
    if (microphone)
        permissions["microphone"] = Json::object();
    if (geolocation)
        permissions["geolocation"] = Json::object();
    if (clipboardWrite)
        permissions["clipboardWrite"] = Json::object();
    Json out{{"csp", std::move(csp)}, {"permissions", std::move(permissions)}};
    if (!domain.isEmpty())
        out["domain"] = domain.toStdString();
    if (prefersBorder)
        out["prefersBorder"] = *prefersBorder;
    return out;
}

} // namespace Mcp::Apps
