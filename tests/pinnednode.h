#pragma once

#include <QFile>
#include <QString>

#include <nlohmann/json.hpp>

// The Node.js every npm test peer runs on (server-everything, the A2A SDK peers, the
// conformance suite): the one package-lock.json pins, whose binary npm's `node` package puts in
// node_modules/node/bin. Never whatever `node` comes first on PATH: Debian 12's own Node 18
// lacks what the peers need (the global `crypto`, fs.globSync).
namespace PinnedNode {

// The binary's absolute path.
inline QString program()
{
    return QStringLiteral(SWITCHBOARD_SOURCE_DIR "/node_modules/node/bin/node");
}

// "v22.23.3": what process.version says on the pinned Node, read from package-lock.json;
// empty when the lockfile cannot be read or pins no `node`.
inline QString version()
{
    QFile lock(QStringLiteral(SWITCHBOARD_SOURCE_DIR "/package-lock.json"));
    if (!lock.open(QIODevice::ReadOnly))
        return {};
    const auto json = nlohmann::json::parse(lock.readAll().toStdString(), nullptr, false);
    const auto packages = json.find("packages");
    if (json.is_discarded() || packages == json.end() || !packages->is_object())
        return {};
    const auto node = packages->find("node_modules/node");
    if (node == packages->end() || !node->is_object() || !node->contains("version")
        || !(*node)["version"].is_string())
        return {};
    return QStringLiteral("v") + QString::fromStdString((*node)["version"].get<std::string>());
}

} // namespace PinnedNode
