#include "installlink.h"

#include "bundledownload.h"

#include <QFileInfo>
#include <QRegularExpression>
#include <QUrl>
#include <QUrlQuery>

namespace Engine {

namespace {

bool isBundleFile(const QString &path)
{
    return path.endsWith(QLatin1String(".mcpb"), Qt::CaseInsensitive)
           || path.endsWith(QLatin1String(".dxt"), Qt::CaseInsensitive);
}

} // namespace

bool InstallLink::looksLikeOne(const QString &given)
{
    return given.startsWith(QLatin1String(Scheme) + QLatin1Char(':'), Qt::CaseInsensitive)
           || isBundleFile(given);
}

std::optional<InstallLink> InstallLink::parse(const QString &given, QString *problem)
{
    const auto refuse = [problem](const QString &why) -> std::optional<InstallLink> {
        *problem = why;
        return std::nullopt;
    };
    const QString shown = given.left(200);
    if (given.size() > MaxLength)
        return refuse(tr("the install link is longer than %1 characters").arg(MaxLength));
    for (const QChar c : given) {
        if (c.category() == QChar::Other_Control)
            return refuse(tr("the install link holds a control character"));
    }
    const QUrl url(given, QUrl::StrictMode);
    const bool schemed = url.isValid() && url.scheme().size() > 1; // not a drive letter
    if (!schemed || url.scheme() == QLatin1String("file")) {
        const QString path = url.isLocalFile() ? url.toLocalFile() : given;
        if (!isBundleFile(path))
            return refuse(
                    tr("'%1' is not an MCP Bundle (.mcpb) nor a switchboard:// link").arg(shown));
        if (!QFileInfo(path).isFile())
            return refuse(tr("%1: no such file").arg(path));
        InstallLink link;
        link.kind = Kind::File;
        link.file = QFileInfo(path).absoluteFilePath();
        return link;
    }
    if (url.scheme().compare(QLatin1String(Scheme), Qt::CaseInsensitive) != 0
        || (url.host() + url.path()).compare(QLatin1String("install"), Qt::CaseInsensitive) != 0)
        return refuse(tr("'%1' is not an install link (switchboard://install?…)").arg(shown));
    const QUrlQuery query(url);
    QMap<QString, QString> values;
    for (const auto &[key, value] : query.queryItems(QUrl::FullyDecoded)) {
        if (key != QLatin1String("name") && key != QLatin1String("bundle")
            && key != QLatin1String("sha256"))
            return refuse(tr("the install link has a parameter '%1' it may not have (name, or "
                             "bundle and sha256)")
                                  .arg(key.left(40)));
        if (values.contains(key))
            return refuse(tr("the install link gives '%1' twice").arg(key));
        values.insert(key, value);
    }
    if (values.contains(QStringLiteral("name")) == values.contains(QStringLiteral("bundle")))
        return refuse(tr("the install link names neither one registry entry (name=) nor one "
                         "bundle (bundle=)"));
    InstallLink link;
    if (values.contains(QStringLiteral("name"))) {
        static const QRegularExpression shape(QStringLiteral("^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$"));
        const QString name = values.value(QStringLiteral("name"));
        if (values.contains(QStringLiteral("sha256")) || name.size() > Mcp::Registry::MaxNameLength
            || !shape.match(name).hasMatch())
            return refuse(tr("'%1' is not the name of a registry entry").arg(name.left(200)));
        link.kind = Kind::Registry;
        link.name = name;
        return link;
    }
    link.kind = Kind::Download;
    link.download.registryType = QStringLiteral("mcpb");
    link.download.identifier = values.value(QStringLiteral("bundle"));
    link.download.fileSha256 = values.value(QStringLiteral("sha256")).toLower();
    link.download.transport.type = QStringLiteral("stdio");
    if (const QString bad = BundleDownload::problem(link.download); !bad.isEmpty())
        return refuse(bad);
    return link;
}

} // namespace Engine
