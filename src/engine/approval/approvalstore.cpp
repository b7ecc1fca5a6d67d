#include "approvalstore.h"

#include <engine/storage/privatefiles.h>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QStandardPaths>

Q_LOGGING_CATEGORY(lcApprovalStore, "switchboard.engine.approvals", QtWarningMsg)

namespace Engine {

namespace {
// The file's layout: {"version": 1, "workspaces": {"<canonical path>": {"<ToolKey>": true |
// ["<command pattern>", ...]}}}: true allows every call of a tool, a list the commands of a
// command-line tool that match one of its patterns.
constexpr int FormatVersion = 1;

std::string key(const QString &text)
{
    return text.toStdString();
}
} // namespace

ApprovalStore::ApprovalStore(QString file)
    : m_file(file.isEmpty() ? defaultFile() : std::move(file))
{
}

QString ApprovalStore::defaultFile()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)
           + QStringLiteral("/approvals.json");
}

Json ApprovalStore::load(QString *error) const
{
    QFile file(m_file);
    if (!file.exists())
        return Json::object();
    // Only a regular file: opening a FIFO would block the thread that asks.
    if (!QFileInfo(m_file).isFile() || file.size() > MaxFileBytes
        || !file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QCoreApplication::translate("Engine::ApprovalStore", "cannot read %1")
                             .arg(QDir::toNativeSeparators(m_file));
        return nullptr;
    }
    const QByteArray bytes = file.read(MaxFileBytes);
    Json json = Json::parse(bytes.constBegin(), bytes.constEnd(), nullptr, false);
    if (!json.is_object() || (json.contains("workspaces") && !json.at("workspaces").is_object())) {
        if (error)
            *error = QCoreApplication::translate("Engine::ApprovalStore",
                                                 "%1 is not an approvals file (fix or delete it)")
                             .arg(QDir::toNativeSeparators(m_file));
        return nullptr;
    }
    return json;
}

bool ApprovalStore::allows(const QString &workspace, const ToolKey &toolKey,
                           const QString &command) const
{
    QString error;
    const Json json = load(&error);
    if (json.is_null()) {
        qCWarning(lcApprovalStore) << error;
        return false;
    }
    const auto workspaces = json.find("workspaces");
    if (workspaces == json.end())
        return false;
    const auto ws = workspaces->find(key(workspace));
    if (ws == workspaces->end() || !ws->is_object())
        return false;
    const auto grant = ws->find(key(toolKey.toString()));
    if (grant == ws->end())
        return false;
    if (command.isEmpty())
        return grant->is_boolean() && grant->get<bool>();
    // A command-line tool is only ever allowed by pattern, never by a bare `true`.
    if (!grant->is_array())
        return false;
    for (const Json &pattern : *grant) {
        if (pattern.is_string()
            && CommandPattern::matches(QString::fromStdString(pattern.get<std::string>()), command))
            return true;
    }
    return false;
}

bool ApprovalStore::add(const QString &workspace, const ToolKey &toolKey,
                        const QString &commandPattern, QString *error)
{
    // Read again right before writing: another window may have added a grant meanwhile.
    Json json = load(error);
    if (json.is_null())
        return false;
    json["version"] = FormatVersion;
    Json &workspaces = json["workspaces"];
    Json &ws = workspaces[key(workspace)];
    if (!ws.is_object())
        ws = Json::object();
    Json &grant = ws[key(toolKey.toString())];
    if (commandPattern.isEmpty()) {
        grant = true;
    } else {
        if (!grant.is_array())
            grant = Json::array();
        const Json pattern = key(commandPattern);
        if (std::find(grant.begin(), grant.end(), pattern) == grant.end())
            grant.push_back(pattern);
    }
    return PrivateFiles::write(
            m_file,
            QByteArray::fromStdString(json.dump(2, ' ', false, Json::error_handler_t::replace))
                    + '\n',
            error);
}

} // namespace Engine
