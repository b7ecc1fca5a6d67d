// switchboard-cli registry search, registry show: the MCP Registry from the terminal.
#include "cli.h"
#include "cliinternal.h"

#include <mcp/registry/installplan.h>
#include <mcp/registry/registryclient.h>

#include <QLocale>
#include <QUrl>

namespace Cli {

using namespace Internal;
using namespace Mcp::Registry;
using Mcp::Json;

namespace {

Json packageJson(const Package &package)
{
    return {{"registryType", package.registryType.toStdString()},
            {"identifier", package.identifier.toStdString()},
            {"version", package.version.toStdString()},
            {"transport", package.transport.type.toStdString()}};
}

Json listingJson(const Listing &listing)
{
    const ServerJson &s = listing.server;
    Json packages = Json::array();
    for (const Package &package : s.packages)
        packages.push_back(packageJson(package));
    Json remotes = Json::array();
    for (const Remote &remote : s.remotes)
        remotes.push_back({{"type", remote.transport.type.toStdString()},
                           {"url", remote.transport.url.toStdString()}});
    return {{"name", s.name.toStdString()},
            {"title", s.title.toStdString()},
            {"description", s.description.toStdString()},
            {"version", s.version.toStdString()},
            {"status", listing.status.toStdString()},
            {"repository", s.repositoryUrl.toStdString()},
            {"packages", std::move(packages)},
            {"remotes", std::move(remotes)}};
}

// "npm @x/y 1.0.0".
QString packageLine(const Package &package)
{
    return QStringLiteral("%1 %2%3").arg(
            package.registryType, package.identifier,
            package.version.isEmpty() ? QString() : QLatin1Char(' ') + package.version);
}

// How a server can be run: each package ("npm @x/y 1.0.0"), each remote ("sse https://…").
QStringList waysToRun(const ServerJson &server)
{
    QStringList ways;
    for (const Package &package : server.packages)
        ways << packageLine(package);
    for (const Remote &remote : server.remotes)
        ways << QStringLiteral("%1 %2").arg(remote.transport.type, remote.transport.url);
    return ways;
}

QString fieldLine(const Field &field)
{
    QStringList notes;
    if (field.input.isRequired)
        notes << Application::tr("required");
    if (field.input.isSecret)
        notes << Application::tr("secret");
    if (!field.input.choices.isEmpty())
        notes << Application::tr("one of %1").arg(field.input.choices.join(QLatin1String(", ")));
    if (!field.input.defaultValue.isEmpty())
        notes << Application::tr("default %1").arg(field.input.defaultValue);
    QString line = QStringLiteral("    %1").arg(field.label);
    if (!notes.isEmpty())
        line += QStringLiteral(" (%1)").arg(notes.join(QLatin1String("; ")));
    if (!field.input.description.isEmpty())
        line += QStringLiteral(": ") + field.input.description.simplified();
    return line;
}

} // namespace

// --registry URL, else $SWITCHBOARD_REGISTRY, else the window's setting, else the official
// registry; empty when the
// address given is not one (a usage error was printed).
QUrl Application::registryUrl()
{
    QString given;
    for (int i = 0; i < m_args.size(); ++i) {
        const int at = i;
        QString value;
        if (takeValue(m_args, i, QStringLiteral("--registry"), &value)) {
            given = value;
            m_args.remove(at, i - at + 1);
            break;
        }
    }
    if (given.isEmpty())
        given = qEnvironmentVariable("SWITCHBOARD_REGISTRY");
    if (given.isEmpty())
        given = RegistryClient::configuredBaseUrl();
    if (given.isEmpty())
        given = QString::fromLatin1(RegistryClient::DefaultBaseUrl);
    const QUrl url(given, QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || url.host().isEmpty()
        || (scheme != QLatin1String("https") && scheme != QLatin1String("http"))) {
        usageError(QStringLiteral("'%1' is not a registry address (http or https)").arg(given));
        return {};
    }
    return url;
}

// A client that keeps what it reads for offline use, and says when it answers from there.
RegistryClient *Application::newRegistryClient(const QUrl &base)
{
    auto *client = new RegistryClient(base, this);
    client->setCacheDir(RegistryClient::defaultCacheDir());
    return client;
}

namespace {

// Says so when the registry could not be asked and `savedAt` is when it answered.
void noteCached(const QDateTime &savedAt)
{
    if (savedAt.isValid())
        err(Application::tr("the registry could not be asked: this is what it answered on %1")
                    .arg(QLocale().toString(savedAt, QLocale::ShortFormat)));
}

} // namespace

template<typename Answer>
const Answer *Application::answered(const std::variant<Answer, QString> &result)
{
    if (const QString *error = std::get_if<QString>(&result)) {
        err(*error);
        finish(ServerFailed);
        return nullptr;
    }
    const Answer &answer = std::get<Answer>(result);
    noteCached(answer.fromCache);
    return &answer;
}
template const ListPage *Application::answered(const std::variant<ListPage, QString> &);
template const Listing *Application::answered(const std::variant<Listing, QString> &);

int Application::cmdRegistrySearch()
{
    const QUrl base = registryUrl();
    if (base.isEmpty())
        return Usage;
    m_json = m_args.removeAll(QStringLiteral("--json")) > 0;
    if (m_args.size() > 1 || (!m_args.isEmpty() && m_args.first().startsWith(QLatin1Char('-'))))
        return usageError(QStringLiteral("registry search takes TEXT [--json] [--registry URL]"));
    const QString text = m_args.value(0);
    auto *client = newRegistryClient(base);
    client->search(
            text, QString(), RegistryClient::DefaultPageSize,
            [this](RegistryClient::PageResult result) {
                const ListPage *answer = answered(result);
                if (!answer)
                    return;
                const ListPage &page = *answer;
                for (const QString &skipped : page.skipped)
                    err(tr("left out: %1").arg(skipped));
                if (m_json) {
                    Json list = Json::array();
                    for (const Listing &listing : page.servers)
                        list.push_back(listingJson(listing));
                    out(jsonText({{"servers", std::move(list)},
                                  {"nextCursor", page.nextCursor.toStdString()}},
                                 2)
                        + QLatin1Char('\n'));
                    finish(Ok);
                    return;
                }
                if (page.servers.isEmpty())
                    out(tr("no server found") + QLatin1Char('\n'));
                for (const Listing &listing : page.servers) {
                    const ServerJson &s = listing.server;
                    QString line = QStringLiteral("%1 %2").arg(s.name, s.version);
                    if (listing.status != QLatin1String("active"))
                        line += QStringLiteral(" [%1]").arg(listing.status);
                    line += QStringLiteral("  ")
                            + (s.title.isEmpty() ? QString() : s.title + QStringLiteral(": "))
                            + s.description.simplified();
                    out(line + QLatin1Char('\n'));
                    for (const QString &way : waysToRun(s))
                        out(QStringLiteral("    %1\n").arg(way));
                }
                if (!page.nextCursor.isEmpty())
                    out(tr("(more results: search for something narrower)") + QLatin1Char('\n'));
                finish(Ok);
            });
    return -1;
}

int Application::cmdRegistryShow()
{
    const QUrl base = registryUrl();
    if (base.isEmpty())
        return Usage;
    m_json = m_args.removeAll(QStringLiteral("--json")) > 0;
    if (m_args.size() != 1 || m_args.first().startsWith(QLatin1Char('-')))
        return usageError(QStringLiteral("registry show takes NAME [--json] [--registry URL]"));
    auto *client = newRegistryClient(base);
    client->latest(m_args.first(), [this](RegistryClient::EntryResult result) {
        const Listing *answer = answered(result);
        if (!answer)
            return;
        const Listing &listing = *answer;
        const ServerJson &s = listing.server;
        if (m_json) {
            out(jsonText(listingJson(listing), 2) + QLatin1Char('\n'));
            finish(Ok);
            return;
        }
        out(QStringLiteral("%1 %2%3\n")
                    .arg(s.name, s.version,
                         listing.status == QLatin1String("active")
                                 ? QString()
                                 : QStringLiteral(" [%1] %2")
                                           .arg(listing.status, listing.statusMessage)));
        if (!s.title.isEmpty())
            out(s.title + QLatin1Char('\n'));
        out(s.description + QLatin1Char('\n'));
        if (!s.repositoryUrl.isEmpty())
            out(tr("repository: %1").arg(s.repositoryUrl) + QLatin1Char('\n'));
        if (!s.websiteUrl.isEmpty())
            out(tr("website: %1").arg(s.websiteUrl) + QLatin1Char('\n'));
        for (const Package &package : s.packages) {
            out(tr("package: %1").arg(packageLine(package)) + QLatin1Char('\n'));
            QString problem;
            if (const auto plan = planPackage(package, {}, &problem))
                out(tr("  runs: %1").arg(plan->display()) + QLatin1Char('\n'));
            for (const Field &field : fieldsOf(package))
                out(fieldLine(field) + QLatin1Char('\n'));
        }
        for (const Remote &remote : s.remotes) {
            out(tr("remote: %1 %2").arg(remote.transport.type, remote.transport.url)
                + QLatin1Char('\n'));
            for (const Field &field : fieldsOf(remote))
                out(fieldLine(field) + QLatin1Char('\n'));
        }
        finish(Ok);
    });
    return -1;
}

} // namespace Cli
