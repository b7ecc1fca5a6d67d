#include "serverjson.h"

#include <QCoreApplication>
#include <QHostAddress>
#include <QRegularExpression>
#include <QUrl>

namespace Mcp::Registry {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Mcp::Registry", text);
}

bool matches(const QString &text, const QRegularExpression &pattern)
{
    return pattern.match(text).hasMatch();
}

// Control characters have no place in anything a registry names; a description may break lines.
bool hasControl(const QString &text, bool allowNewlines)
{
    for (const QChar c : text) {
        if (allowNewlines && (c == u'\n' || c == u'\t'))
            continue;
        if (c.category() == QChar::Other_Control || c == QChar(0x2028) || c == QChar(0x2029))
            return true;
    }
    return false;
}

bool isHttpUrl(const QString &text, bool httpsOnly)
{
    static const QRegularExpression shape(QStringLiteral("^https?://[^\\s]+$"),
                                          QRegularExpression::CaseInsensitiveOption);
    if (!matches(text, shape))
        return false;
    const QUrl url(text);
    const QString scheme = url.scheme().toLower();
    return url.isValid() && !url.host().isEmpty()
           && (scheme == QLatin1String("https") || (!httpsOnly && scheme == QLatin1String("http")));
}

// What Switchboard fetches itself (a bundle, an icon): https, or plain http to this machine (a
// registry being tried out here).
bool isFetchable(const QString &text)
{
    const QUrl url(text);
    const bool loopback
            = url.host() == QLatin1String("localhost") || QHostAddress(url.host()).isLoopback();
    return isHttpUrl(text, true) || (loopback && isHttpUrl(text, false));
}

// Reads one document; the first problem stops it.
class Reader
{
public:
    QString problem;

    bool ok() const { return problem.isEmpty(); }

    void fail(const QString &where, const QString &what)
    {
        if (problem.isEmpty())
            problem = where.isEmpty() ? what : QStringLiteral("%1: %2").arg(where, what);
    }

    // A string member: absent is empty; anything but a string, a control character or more
    // than `max` characters is a problem.
    QString string(const Json &object, const char *key, const QString &where, int max,
                   bool required = false, bool multiline = false)
    {
        const QString path = join(where, QLatin1String(key));
        const auto it = object.find(key);
        if (it == object.end() || it->is_null()) {
            if (required)
                fail(path, tr("missing"));
            return {};
        }
        if (!it->is_string()) {
            fail(path, tr("must be a string"));
            return {};
        }
        const std::string &utf8 = it->get_ref<const std::string &>();
        if (utf8.size() > std::size_t(max) * 4) {
            fail(path, tr("longer than %1 characters").arg(max));
            return {};
        }
        const QString text = QString::fromStdString(utf8);
        if (text.size() > max) {
            fail(path, tr("longer than %1 characters").arg(max));
            return {};
        }
        if (hasControl(text, multiline)) {
            fail(path, tr("holds a control character"));
            return {};
        }
        if (required && text.isEmpty())
            fail(path, tr("empty"));
        return text;
    }

    bool boolean(const Json &object, const char *key, const QString &where)
    {
        const auto it = object.find(key);
        if (it == object.end() || it->is_null())
            return false;
        if (!it->is_boolean()) {
            fail(join(where, QLatin1String(key)), tr("must be true or false"));
            return false;
        }
        return it->get<bool>();
    }

    // A list member, at most MaxListLength long; nullptr when absent or wrong.
    const Json *list(const Json &object, const char *key, const QString &where)
    {
        const auto it = object.find(key);
        if (it == object.end() || it->is_null())
            return nullptr;
        const QString path = join(where, QLatin1String(key));
        if (!it->is_array()) {
            fail(path, tr("must be a list"));
            return nullptr;
        }
        if (it->size() > std::size_t(MaxListLength)) {
            fail(path, tr("has more than %1 entries").arg(MaxListLength));
            return nullptr;
        }
        return &*it;
    }

    QStringList strings(const Json &object, const char *key, const QString &where, int max)
    {
        QStringList out;
        const Json *items = list(object, key, where);
        if (!items)
            return out;
        for (std::size_t i = 0; i < items->size() && ok(); ++i) {
            const QString at = QStringLiteral("%1[%2]").arg(join(where, QLatin1String(key))).arg(i);
            const Json &item = (*items)[i];
            const QString text = item.is_string() ? QString::fromStdString(item.get<std::string>())
                                                  : QString();
            if (!item.is_string())
                fail(at, tr("must be a string"));
            else if (text.size() > max)
                fail(at, tr("longer than %1 characters").arg(max));
            else if (hasControl(text, false))
                fail(at, tr("holds a control character"));
            else
                out << text;
        }
        return out;
    }

    Input input(const Json &object, const QString &where, bool withVariables)
    {
        Input in;
        in.description = string(object, "description", where, MaxStringLength, false, true);
        in.isRequired = boolean(object, "isRequired", where);
        const QString format = string(object, "format", where, 16);
        if (format == QLatin1String("number"))
            in.format = Input::Format::Number;
        else if (format == QLatin1String("boolean"))
            in.format = Input::Format::Boolean;
        else if (format == QLatin1String("filepath"))
            in.format = Input::Format::FilePath;
        else if (!format.isEmpty() && format != QLatin1String("string"))
            fail(join(where, QStringLiteral("format")), tr("unknown format '%1'").arg(format));
        in.value = string(object, "value", where, MaxStringLength);
        in.isSecret = boolean(object, "isSecret", where);
        in.defaultValue = string(object, "default", where, MaxStringLength);
        in.placeholder = string(object, "placeholder", where, MaxStringLength);
        in.choices = strings(object, "choices", where, MaxStringLength);
        const auto variables = object.find("variables");
        if (!withVariables || variables == object.end() || variables->is_null())
            return in;
        const QString path = join(where, QStringLiteral("variables"));
        if (!variables->is_object()) {
            fail(path, tr("must be an object"));
            return in;
        }
        if (variables->size() > std::size_t(MaxListLength)) {
            fail(path, tr("has more than %1 entries").arg(MaxListLength));
            return in;
        }
        static const QRegularExpression variableName(
                QStringLiteral("^[A-Za-z_][A-Za-z0-9_]{0,63}$"));
        for (const auto &[key, value] : variables->items()) {
            const QString name = QString::fromStdString(key);
            const QString at = path + QLatin1Char('.') + name.left(64);
            if (!matches(name, variableName)) {
                fail(at, tr("not a variable name (letters, digits, '_')"));
                return in;
            }
            if (!value.is_object()) {
                fail(at, tr("must be an object"));
                return in;
            }
            in.variables.insert(name, input(value, at, false));
        }
        return in;
    }

    // Each object of a list member, with where it is ("key[i]"); a non-object stops it.
    template<typename Read>
    void eachObject(const Json &object, const char *key, const QString &where, Read read)
    {
        const Json *items = list(object, key, where);
        for (std::size_t i = 0; items && i < items->size() && ok(); ++i) {
            const QString at = QStringLiteral("%1[%2]").arg(join(where, QLatin1String(key))).arg(i);
            if (!(*items)[i].is_object()) {
                fail(at, tr("must be an object"));
                break;
            }
            read((*items)[i], at);
        }
    }

    QList<KeyValueInput> keyValues(const Json &object, const char *key, const QString &where,
                                   bool headers)
    {
        static const QRegularExpression variable(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]{0,127}$"));
        static const QRegularExpression token(
                QStringLiteral("^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$"));
        QList<KeyValueInput> out;
        eachObject(object, key, where, [&](const Json &item, const QString &at) {
            KeyValueInput kv;
            static_cast<Input &>(kv) = input(item, at, true);
            kv.name = string(item, "name", at, 128, true);
            if (ok() && !matches(kv.name, headers ? token : variable))
                fail(join(at, QStringLiteral("name")),
                     headers ? tr("'%1' is not a header name").arg(kv.name)
                             : tr("'%1' is not an environment variable name").arg(kv.name));
            out << kv;
        });
        return out;
    }

    QList<Argument> arguments(const Json &object, const char *key, const QString &where)
    {
        static const QRegularExpression flag(QStringLiteral("^[A-Za-z0-9_.:=+/@-]{1,128}$"));
        QList<Argument> out;
        eachObject(object, key, where, [&](const Json &item, const QString &at) {
            Argument argument;
            static_cast<Input &>(argument) = input(item, at, true);
            const QString type = string(item, "type", at, 16, true);
            argument.isRepeated = boolean(item, "isRepeated", at);
            argument.valueHint = string(item, "valueHint", at, 128);
            if (type == QLatin1String("named")) {
                argument.type = Argument::Type::Named;
                argument.name = string(item, "name", at, 128, true);
                if (ok() && !matches(argument.name, flag))
                    fail(join(at, QStringLiteral("name")),
                         tr("'%1' is not an option name").arg(argument.name));
            } else if (type == QLatin1String("positional")) {
                if (ok() && argument.valueHint.isEmpty() && argument.value.isEmpty())
                    fail(at, tr("a positional argument needs a valueHint or a value"));
            } else if (ok()) {
                fail(join(at, QStringLiteral("type")),
                     tr("must be \"positional\" or \"named\", not '%1'").arg(type));
            }
            out << argument;
        });
        return out;
    }

    Transport transport(const Json &object, const QString &where, bool remote)
    {
        Transport t;
        if (!object.is_object()) {
            fail(where, tr("must be an object"));
            return t;
        }
        t.type = string(object, "type", where, 32, true);
        const bool http
                = t.type == QLatin1String("streamable-http") || t.type == QLatin1String("sse");
        if (ok() && !http && (remote || t.type != QLatin1String("stdio"))) {
            fail(join(where, QStringLiteral("type")),
                 remote ? tr("must be \"streamable-http\" or \"sse\", not '%1'").arg(t.type)
                        : tr("must be \"stdio\", \"streamable-http\" or \"sse\", not '%1'")
                                  .arg(t.type));
            return t;
        }
        if (!http)
            return t;
        t.url = string(object, "url", where, MaxStringLength, true);
        // A template: {variables} stand for host names and paths the person fills in.
        if (ok()
            && !matches(t.url, QRegularExpression(QStringLiteral("^https?://[^\\s]+$"),
                                                  QRegularExpression::CaseInsensitiveOption)))
            fail(join(where, QStringLiteral("url")), tr("not an http(s) URL"));
        t.headers = keyValues(object, "headers", where, true);
        return t;
    }

    Package package(const Json &object, const QString &at)
    {
        Package p;
        if (!object.is_object()) {
            fail(at, tr("must be an object"));
            return p;
        }
        p.registryType = string(object, "registryType", at, 32, true);
        p.registryBaseUrl = string(object, "registryBaseUrl", at, MaxStringLength);
        if (ok() && !p.registryBaseUrl.isEmpty() && !isHttpUrl(p.registryBaseUrl, false))
            fail(join(at, QStringLiteral("registryBaseUrl")), tr("not an http(s) URL"));
        p.identifier = string(object, "identifier", at, MaxStringLength, true);
        p.version = string(object, "version", at, MaxVersionLength);
        p.fileSha256 = string(object, "fileSha256", at, 64);
        if (ok() && !p.fileSha256.isEmpty()
            && !matches(p.fileSha256, QRegularExpression(QStringLiteral("^[a-f0-9]{64}$"))))
            fail(join(at, QStringLiteral("fileSha256")),
                 tr("not a SHA-256 in lower-case hexadecimal"));
        p.runtimeHint = string(object, "runtimeHint", at, 32);
        if (ok()) {
            const QString identity = checkPackageIdentity(p.registryType, p.identifier, p.version);
            if (!identity.isEmpty())
                fail(at, identity);
        }
        const auto transport = object.find("transport");
        if (transport == object.end())
            fail(join(at, QStringLiteral("transport")), tr("missing"));
        else if (ok())
            p.transport = this->transport(*transport, join(at, QStringLiteral("transport")), false);
        p.runtimeArguments = arguments(object, "runtimeArguments", at);
        p.packageArguments = arguments(object, "packageArguments", at);
        p.environmentVariables = keyValues(object, "environmentVariables", at, false);
        return p;
    }

    static QString join(const QString &where, const QString &key)
    {
        return where.isEmpty() ? key : where + QLatin1Char('.') + key;
    }
};

} // namespace

QString checkPackageIdentity(const QString &registryType, const QString &identifier,
                             const QString &version)
{
    // The registries' own name rules (npm's package names, PEP 508 names, OCI references as
    // the distribution spec has them, NuGet ids): a name that breaks them is not a package.
    static const QRegularExpression npm(
            QStringLiteral("^(@[a-z0-9~-][a-z0-9._~-]*/)?[a-z0-9~-][a-z0-9._~-]*$"));
    static const QRegularExpression pypi(
            QStringLiteral("^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$"));
    static const QRegularExpression nuget(
            QStringLiteral("^[A-Za-z0-9_]([A-Za-z0-9._-]*[A-Za-z0-9_])?$"));
    static const QRegularExpression oci(
            QStringLiteral("^[a-z0-9]+([._-][a-z0-9]+)*(:[0-9]{1,5})?(/[a-z0-9]+([._-][a-z0-9]+)*)*"
                           "(:[A-Za-z0-9_][A-Za-z0-9._-]{0,127})?(@sha256:[a-f0-9]{64})?$"));
    // A version is one version, never a range ("^1.2", "~1", ">=1", "1.x", "*") or "latest".
    static const QRegularExpression versionShape(
            QStringLiteral("^[A-Za-z0-9][A-Za-z0-9.+_-]{0,254}$"));
    static const QRegularExpression wildcard(QStringLiteral("(^|\\.)[xX*](\\.|$)"));

    const QString type = registryType;
    if (type == QLatin1String("npm")) {
        if (identifier.size() > 214 || !matches(identifier, npm))
            return tr("'%1' is not an npm package name").arg(identifier.left(200));
    } else if (type == QLatin1String("pypi")) {
        if (identifier.size() > 200 || !matches(identifier, pypi))
            return tr("'%1' is not a PyPI package name").arg(identifier.left(200));
    } else if (type == QLatin1String("nuget")) {
        if (identifier.size() > 100 || !matches(identifier, nuget))
            return tr("'%1' is not a NuGet package id").arg(identifier.left(200));
    } else if (type == QLatin1String("oci")) {
        if (identifier.size() > 512 || !matches(identifier, oci))
            return tr("'%1' is not an image reference").arg(identifier.left(200));
    } else if (type == QLatin1String("mcpb")) {
        // What is fetched is checked against the entry's SHA-256 in any case.
        if (identifier.size() > MaxStringLength || !isFetchable(identifier))
            return tr("'%1' is not an https download address").arg(identifier.left(200));
    }
    if (!version.isEmpty()
        && (version == QLatin1String("latest") || !matches(version, versionShape)
            || matches(version, wildcard)))
        return tr("'%1' is not one version (a range or \"latest\" is not)").arg(version.left(200));
    return {};
}

ReadResult readServer(const Json &document)
{
    ReadResult result;
    Reader r;
    if (!document.is_object()) {
        result.problem = tr("not a server.json object");
        return result;
    }
    ServerJson s;
    s.name = r.string(document, "name", QString(), MaxNameLength, true);
    static const QRegularExpression name(QStringLiteral("^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$"));
    if (r.ok() && (s.name.size() < 3 || !matches(s.name, name)))
        r.fail(QStringLiteral("name"),
               tr("'%1' is not a registry name (namespace/name: letters, digits, '.', '-', '_')")
                       .arg(s.name));
    s.description = r.string(document, "description", QString(), MaxDescriptionLength, true, true);
    s.title = r.string(document, "title", QString(), MaxDescriptionLength);
    s.version = r.string(document, "version", QString(), MaxVersionLength, true);
    s.websiteUrl = r.string(document, "websiteUrl", QString(), MaxStringLength);
    if (r.ok() && !s.websiteUrl.isEmpty() && !isHttpUrl(s.websiteUrl, false))
        r.fail(QStringLiteral("websiteUrl"), tr("not an http(s) URL"));
    if (const auto repository = document.find("repository");
        r.ok() && repository != document.end() && !repository->is_null()) {
        if (!repository->is_object()) {
            r.fail(QStringLiteral("repository"), tr("must be an object"));
        } else {
            s.repositoryUrl
                    = r.string(*repository, "url", QStringLiteral("repository"), MaxStringLength);
            s.repositorySource = r.string(*repository, "source", QStringLiteral("repository"), 64);
            s.repositorySubfolder = r.string(*repository, "subfolder", QStringLiteral("repository"),
                                             MaxStringLength);
            if (r.ok() && !s.repositoryUrl.isEmpty() && !isHttpUrl(s.repositoryUrl, false))
                r.fail(QStringLiteral("repository.url"), tr("not an http(s) URL"));
        }
    }
    if (const Json *icons = r.list(document, "icons", QString())) {
        for (std::size_t i = 0; i < icons->size() && r.ok(); ++i) {
            const Json &item = (*icons)[i];
            const QString at = QStringLiteral("icons[%1]").arg(i);
            if (!item.is_object()) {
                r.fail(at, tr("must be an object"));
                break;
            }
            Icon icon;
            icon.src = r.string(item, "src", at, MaxStringLength, true);
            icon.mimeType = r.string(item, "mimeType", at, 32);
            icon.sizes = r.strings(item, "sizes", at, 16);
            icon.theme = r.string(item, "theme", at, 16);
            // Only https pictures are fetched (the schema says so; or http on this machine);
            // others are left out.
            if (r.ok() && isFetchable(icon.src))
                s.icons << icon;
        }
    }
    if (const Json *packages = r.list(document, "packages", QString())) {
        for (std::size_t i = 0; i < packages->size() && r.ok(); ++i)
            s.packages << r.package((*packages)[i], QStringLiteral("packages[%1]").arg(i));
    }
    if (const Json *remotes = r.list(document, "remotes", QString())) {
        for (std::size_t i = 0; i < remotes->size() && r.ok(); ++i) {
            const QString at = QStringLiteral("remotes[%1]").arg(i);
            Remote remote;
            remote.transport = r.transport((*remotes)[i], at, true);
            if (r.ok())
                remote.variables = r.input((*remotes)[i], at, true).variables;
            s.remotes << remote;
        }
    }
    if (!r.ok()) {
        result.problem = r.problem;
        return result;
    }
    result.server = std::move(s);
    return result;
}

std::optional<Listing> readEntry(const Json &entry, QString *problem)
{
    const auto refuse = [problem](const QString &why) -> std::optional<Listing> {
        if (problem)
            *problem = why;
        return std::nullopt;
    };
    const auto server = entry.is_object() ? entry.find("server") : entry.end();
    if (!entry.is_object() || server == entry.end())
        return refuse(tr("not an entry with a \"server\""));
    ReadResult read = readServer(*server);
    if (!read.server)
        return refuse(read.problem);
    Listing listing;
    listing.server = std::move(*read.server);
    const auto meta = entry.find("_meta");
    if (meta == entry.end() || !meta->is_object())
        return listing;
    const auto official = meta->find("io.modelcontextprotocol.registry/official");
    if (official == meta->end() || !official->is_object())
        return listing;
    Reader r;
    const QString status = r.string(*official, "status", QString(), 16);
    if (status == QLatin1String("deprecated") || status == QLatin1String("deleted"))
        listing.status = status;
    listing.statusMessage = r.string(*official, "statusMessage", QString(), 500, false, true);
    listing.publishedAt = r.string(*official, "publishedAt", QString(), 64);
    listing.updatedAt = r.string(*official, "updatedAt", QString(), 64);
    if (const auto latest = official->find("isLatest");
        latest != official->end() && latest->is_boolean())
        listing.isLatest = latest->get<bool>();
    if (!r.ok())
        return refuse(QStringLiteral("_meta: ") + r.problem);
    return listing;
}

std::optional<ListPage> readListPage(const Json &document, QString *problem)
{
    const auto refuse = [problem](const QString &why) -> std::optional<ListPage> {
        if (problem)
            *problem = why;
        return std::nullopt;
    };
    if (!document.is_object())
        return refuse(tr("the registry's answer is not a JSON object"));
    const auto servers = document.find("servers");
    if (servers == document.end() || !servers->is_array())
        return refuse(tr("the registry's answer has no \"servers\" list"));
    if (servers->size() > std::size_t(MaxServersPerPage))
        return refuse(tr("the registry's answer lists %1 servers in one page (at most %2)")
                              .arg(servers->size())
                              .arg(MaxServersPerPage));
    ListPage page;
    if (const auto metadata = document.find("metadata");
        metadata != document.end() && metadata->is_object()) {
        // The API says "nextCursor"; an older one said "next_cursor".
        for (const char *key : {"nextCursor", "next_cursor"}) {
            const auto cursor = metadata->find(key);
            if (cursor == metadata->end() || !cursor->is_string())
                continue;
            const QString text = QString::fromStdString(cursor->get<std::string>());
            if (text.size() > MaxCursorLength || hasControl(text, false))
                return refuse(tr("the registry's answer has a cursor that is not one"));
            page.nextCursor = text;
            break;
        }
    }
    for (std::size_t i = 0; i < servers->size(); ++i) {
        QString why;
        std::optional<Listing> listing = readEntry((*servers)[i], &why);
        if (listing)
            page.servers << std::move(*listing);
        else
            page.skipped << QStringLiteral("servers[%1]: %2").arg(i).arg(why);
    }
    return page;
}

} // namespace Mcp::Registry
