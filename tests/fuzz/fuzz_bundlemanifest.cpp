// libFuzzer target for an MCP Bundle's manifest.json (Mcp::Bundles::readManifest): any bytes,
// read as JSON and then as a manifest. Invariants: no crash; a refusal says why; what is
// accepted keeps every bound (a name a folder can have, paths inside the bundle, list sizes),
// and its command resolves or says why, never with an unexpanded ${user_config.…} of its own.
#include "fuzzcheck.h"

#include <mcp/bundles/manifest.h>
#include <mcp/wire/jsonparser.h>

#include <QRegularExpression>

#include <cstdint>

using namespace Mcp;
using namespace Mcp::Bundles;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const Json document = parseJson(std::string_view(reinterpret_cast<const char *>(data), size));
    const ManifestResult read = readManifest(document);
    check(read.manifest.has_value() != !read.problem.isEmpty());
    if (!read.manifest)
        return 0;
    const Manifest &m = *read.manifest;
    static const QRegularExpression name(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]*$"));
    check(name.match(m.name).hasMatch() && m.name.size() <= MaxNameLength);
    check(pathProblem(m.entryPoint).isEmpty());
    check(m.icon.isEmpty() || pathProblem(m.icon).isEmpty());
    check(m.tools.size() <= MaxListLength && m.prompts.size() <= MaxListLength);
    check(m.userConfig.size() <= MaxUserConfig && m.mcpConfig.args.size() <= MaxListLength);
    QMap<QString, QString> answers;
    for (const UserConfigOption &option : m.userConfig)
        answers.insert(option.key, QStringLiteral("1"));
    QString problem;
    const std::optional<Command> command = resolveCommand(
            m, QStringLiteral("/bundle"), answers,
            [](const QString &key) { return QStringLiteral("${secret:x.%1}").arg(key); }, &problem);
    check(command.has_value() == problem.isEmpty());
    return 0;
}
