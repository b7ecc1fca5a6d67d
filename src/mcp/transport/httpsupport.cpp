#include "httpsupport.h"

#include "httptransport.h"
#include "transport.h"

#include <mcp/wire/jsonparser.h>
#include <mcp/wire/safetext.h>

#include <QCoreApplication>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <optional>

namespace Mcp::Http {

namespace {

// How much of a failed answer's body an error message quotes.
constexpr qsizetype FailureBodyChars = 300;

// The strings are in the catalogue's "Mcp::Http" context (lupdate files this namespace's
// tr() calls there).
QString tr(const char *text)
{
    return QCoreApplication::translate("Mcp::Http", text);
}

} // namespace

bool isHeaderName(const QString &name)
{
    if (name.isEmpty())
        return false;
    for (const QChar c : name) {
        const char16_t u = c.unicode();
        const bool ok = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9')
                        || QStringView(u"!#$%&'*+-.^_`|~").contains(c);
        if (!ok)
            return false;
    }
    return true;
}

QByteArray headerValue(std::string_view value)
{
    bool plain = value.empty()
                 || (value.front() != ' ' && value.back() != ' '
                     && std::all_of(value.begin(), value.end(), [](char c) {
                            return static_cast<unsigned char>(c) >= 0x20
                                   && static_cast<unsigned char>(c) <= 0x7E;
                        }));
    // A plain value that looks like the encoded form is encoded, so it reads back as itself.
    if (plain && value.starts_with("=?base64?") && value.ends_with("?="))
        plain = false;
    const QByteArray bytes(value.data(), qsizetype(value.size()));
    if (plain)
        return bytes;
    return QByteArrayLiteral("=?base64?") + bytes.toBase64() + QByteArrayLiteral("?=");
}

namespace {

const Json *findPath(const Json &object, const std::vector<std::string> &path)
{
    const Json *at = &object;
    for (const std::string &key : path) {
        if (!at->is_object())
            return nullptr;
        auto it = at->find(key);
        if (it == at->end())
            return nullptr;
        at = &*it;
    }
    return at;
}

// A parameter's value as its header carries it: strings as they are, integers in decimal,
// booleans as true/false; nothing for null, an absent value or anything else.
std::optional<QByteArray> parameterValue(const Json &value)
{
    if (value.is_string())
        return headerValue(value.get_ref<const std::string &>());
    if (value.is_boolean())
        return value.get<bool>() ? QByteArrayLiteral("true") : QByteArrayLiteral("false");
    if (value.is_number_integer())
        return QByteArray::fromStdString(value.dump());
    if (value.is_number_float()) {
        const double d = value.get<double>();
        if (std::isfinite(d) && d == std::trunc(d) && std::abs(d) < 9007199254740992.0)
            return QByteArray::number(qint64(d));
    }
    return std::nullopt;
}

const Json *member(const Json &object, const char *key)
{
    if (!object.is_object())
        return nullptr;
    auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

void addModernHeaders(Outgoing &out, const Json &message, const ModernHeaders *modern)
{
    static const Json null;
    const Json &params = member(message, "params") ? *member(message, "params") : null;
    QByteArray version = modern ? modern->version : QByteArray();
    if (const Json *meta = member(params, "_meta")) {
        const Json *v = member(*meta, "io.modelcontextprotocol/protocolVersion");
        if (v && v->is_string())
            version = QByteArray::fromStdString(v->get<std::string>());
    }
    if (version.isEmpty() || out.method.empty())
        return;
    out.headers.emplace_back("MCP-Protocol-Version", version);
    out.headers.emplace_back("Mcp-Method", headerValue(out.method));
    const char *nameKey = out.method == "tools/call" || out.method == "prompts/get" ? "name"
                          : out.method == "resources/read"                          ? "uri"
                                                                                    : nullptr;
    const Json *name = nameKey ? member(params, nameKey) : nullptr;
    if (!name || !name->is_string())
        return;
    const std::string &nameText = name->get_ref<const std::string &>();
    out.headers.emplace_back("Mcp-Name", headerValue(nameText));
    if (out.method != "tools/call" || !modern || !modern->parameters)
        return;
    auto tool = modern->parameters->find(nameText);
    const Json *arguments = member(params, "arguments");
    if (tool == modern->parameters->end() || !arguments)
        return;
    for (const ParameterHeader &parameter : tool->second) {
        const Json *value = findPath(*arguments, parameter.path);
        if (!value)
            continue;
        if (std::optional<QByteArray> text = parameterValue(*value))
            out.headers.emplace_back("Mcp-Param-" + QByteArray::fromStdString(parameter.name),
                                     *text);
    }
}

} // namespace

Outgoing readOutgoing(std::string text, const ModernHeaders *modern)
{
    Outgoing out;
    const Json message = parseJson(text);
    if (message.is_object()) {
        if (auto id = message.find("id"); id != message.end())
            out.id = *id;
        if (auto method = message.find("method"); method != message.end() && method->is_string())
            out.method = method->get<std::string>();
        if (out.method == "notifications/cancelled") {
            const Json params = message.value("params", Json());
            if (params.is_object())
                out.cancelledId = params.value("requestId", Json());
        }
        addModernHeaders(out, message, modern);
    }
    out.text = std::move(text);
    return out;
}

QString checkOptions(const HttpOptions &options)
{
    const QUrl &url = options.url;
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || url.host().isEmpty()
        || (scheme != QLatin1String("http") && scheme != QLatin1String("https")))
        return tr("'%1' is not an http or https URL").arg(displayUrl(url));
    for (auto it = options.headers.cbegin(); it != options.headers.cend(); ++it) {
        if (!isHeaderName(it.key()))
            return tr("'%1' is not a valid HTTP header name").arg(it.key());
        // A line break would smuggle in a header of its own.
        if (it.value().contains(QLatin1Char('\r')) || it.value().contains(QLatin1Char('\n'))
            || it.value().contains(QChar(0)))
            return tr("the value of header '%1' holds a line break or NUL").arg(it.key());
    }
    return QString();
}

QNetworkRequest request(const HttpOptions &options, const QUrl &url, const QByteArray &accept)
{
    QNetworkRequest request(url);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::SameOriginRedirectPolicy);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, true);
    // No cookies, neither kept nor sent: the transports of one thread share a
    // QNetworkAccessManager, and cookies are scoped by host, not port, so one server's
    // would otherwise reach another on the same host.
    request.setAttribute(QNetworkRequest::CookieLoadControlAttribute, QNetworkRequest::Manual);
    request.setAttribute(QNetworkRequest::CookieSaveControlAttribute, QNetworkRequest::Manual);
    for (auto it = options.headers.cbegin(); it != options.headers.cend(); ++it)
        request.setRawHeader(it.key().toLatin1(), it.value().toUtf8());
    request.setRawHeader("Accept", accept);
    return request;
}

QUrl origin(const QUrl &url)
{
    return url.adjusted(QUrl::RemovePath | QUrl::RemoveQuery | QUrl::RemoveFragment
                        | QUrl::RemoveUserInfo);
}

bool sameOrigin(const QUrl &a, const QUrl &b)
{
    const auto defaultPort = [](const QUrl &url) {
        return url.scheme() == QLatin1String("https") ? 443 : 80;
    };
    return a.scheme() == b.scheme() && a.host() == b.host()
           && a.port(defaultPort(a)) == b.port(defaultPort(b));
}

QString trimmedPath(const QUrl &url)
{
    QString path = url.path();
    while (path.endsWith(u'/'))
        path.chop(1);
    return path;
}

QUrl withPath(const QUrl &base, const QString &path)
{
    QUrl url = origin(base);
    url.setPath(path);
    return url;
}

QString displayUrl(const QUrl &url)
{
    return url.toDisplayString(QUrl::RemoveUserInfo | QUrl::RemoveQuery | QUrl::RemoveFragment);
}

int status(const QNetworkReply *reply)
{
    return reply ? reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() : 0;
}

bool isEventStream(const QNetworkReply *reply)
{
    return reply->header(QNetworkRequest::ContentTypeHeader)
            .toString()
            .trimmed()
            .startsWith(QLatin1String("text/event-stream"), Qt::CaseInsensitive);
}

void discard(QPointer<QNetworkReply> &reply, QObject *receiver)
{
    if (!reply)
        return;
    QNetworkReply *gone = reply;
    reply = nullptr;
    gone->disconnect(receiver);
    if (gone->isRunning())
        gone->abort();
    gone->deleteLater();
}

QString failure(const QString &where, const QNetworkReply *reply, const QByteArray &body)
{
    const QString phrase
            = reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString().simplified();
    QString text = tr("%1 answered HTTP %2").arg(where).arg(status(reply));
    if (!phrase.isEmpty())
        text += QLatin1Char(' ') + escapeControlCharacters(phrase);
    const QString said = QString::fromUtf8(body.left(FailureBodyChars * 4))
                                 .left(FailureBodyChars)
                                 .simplified();
    if (!said.isEmpty())
        text += QStringLiteral(": ") + escapeControlCharacters(said);
    return text;
}

QString authenticationFailure(const QString &where, const QUrl &url, int status,
                              const QString &what)
{
    return tr("%1 requires authentication: %2 answered HTTP %3 to '%4'")
            .arg(where, displayUrl(url))
            .arg(status)
            .arg(what);
}

QString unreachable(const QString &where, const QUrl &url, const QNetworkReply *reply)
{
    return tr("could not reach %1 (%2): %3").arg(where, displayUrl(url), reply->errorString());
}

QString exchangeNote(const QNetworkReply *reply, const QString &what)
{
    const QNetworkRequest request = reply->request();
    QByteArray verb;
    switch (reply->operation()) {
    case QNetworkAccessManager::GetOperation:
        verb = "GET";
        break;
    case QNetworkAccessManager::PostOperation:
        verb = "POST";
        break;
    case QNetworkAccessManager::DeleteOperation:
        verb = "DELETE";
        break;
    default:
        verb = "?";
        break;
    }
    QString text
            = QStringLiteral("%1 %2").arg(QString::fromLatin1(verb), displayUrl(request.url()));
    const int code = status(reply);
    if (code != 0) {
        text += QStringLiteral(" → %1").arg(code);
        const QString type = reply->header(QNetworkRequest::ContentTypeHeader).toString();
        if (!type.isEmpty())
            text += QLatin1Char(' ')
                    + escapeControlCharacters(type.section(QLatin1Char(';'), 0, 0));
    } else if (reply->error() != QNetworkReply::NoError) {
        text += QStringLiteral(" → ") + reply->errorString();
    }
    if (!what.isEmpty())
        text += QStringLiteral(" (%1)").arg(what);
    QStringList names;
    for (const QByteArray &name : request.rawHeaderList()) {
        const bool shown = name == "Accept" || name == "Content-Type" || name == "Last-Event-ID"
                           || name == "MCP-Protocol-Version";
        names << QString::fromLatin1(name) + QStringLiteral(": ")
                         + (shown ? escapeControlCharacters(
                                    QString::fromLatin1(request.rawHeader(name)))
                                  : QStringLiteral("…"));
    }
    if (!names.isEmpty())
        text += QStringLiteral(" [") + names.join(QStringLiteral(", ")) + QLatin1Char(']');
    return text;
}

QString notJson(const QString &where, std::string_view text)
{
    const QString head
            = QString::fromUtf8(text.data(),
                                qsizetype(std::min<size_t>(text.size(), FailureBodyChars * 4)))
                      .left(FailureBodyChars);
    return tr("%1 sent something that is not JSON: %2").arg(where, escapeControlCharacters(head));
}

} // namespace Mcp::Http
