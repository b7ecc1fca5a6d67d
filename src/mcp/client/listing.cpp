#include "listing.h"

#include <QCoreApplication>
#include <QPointer>

#include <memory>
#include <set>

namespace Mcp {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Mcp::Listing", text);
}

struct Listing
{
    Client *client = nullptr;
    std::string method;
    std::string member;
    QPointer<QObject> context;
    ListDone done;
    std::vector<Json> items;
    std::set<std::string> cursors;
    int pages = 0;

    static void next(const std::shared_ptr<Listing> &self, Json cursor)
    {
        Json params = Json::object();
        if (!cursor.is_null())
            params["cursor"] = cursor;
        self->client->request(
                self->method, std::move(params), self->context.data(),
                [self](Response response) { self->onPage(self, std::move(response)); });
    }

    void onPage(const std::shared_ptr<Listing> &self, Response response)
    {
        const QString name = QString::fromStdString(method);
        if (!response.ok())
            return done({}, tr("%1 failed: %2").arg(name, response.error->toString()));
        const auto list = response.result.find(member);
        if (!response.result.is_object() || list == response.result.end() || !list->is_array())
            return done({}, tr("%1: the answer has no \"%2\" list")
                                    .arg(name, QString::fromStdString(member)));
        for (Json &item : *list) {
            if (item.is_object())
                items.push_back(std::move(item));
        }
        ++pages;
        const auto next = response.result.find("nextCursor");
        if (next == response.result.end() || next->is_null()
            || (next->is_string() && next->get<std::string>().empty()))
            return done(std::move(items), {});
        if (!next->is_string())
            return done({}, tr("%1: nextCursor is not a string").arg(name));
        if (pages >= MaxListPages || !cursors.insert(next->get<std::string>()).second)
            return done({}, tr("%1: stopped after %2 pages (the server keeps sending more, or "
                               "the same cursor again)")
                                    .arg(name)
                                    .arg(pages));
        Listing::next(self, *next);
    }
};

} // namespace

void listAll(Client *client, const std::string &method, const std::string &member, QObject *context,
             ListDone done)
{
    auto listing = std::make_shared<Listing>();
    listing->client = client;
    listing->method = method;
    listing->member = member;
    listing->context = context;
    listing->done = std::move(done);
    Listing::next(listing, nullptr);
}

QString describeContent(const Json &content)
{
    if (!content.is_object())
        return tr("[not a content block]");
    const QString type = stringMember(content, "type");
    if (content.contains("text") && content["text"].is_string())
        return stringMember(content, "text");
    if (type == QLatin1String("resource") && content.contains("resource"))
        return describeContent(content["resource"]);
    const QString mime = stringMember(content, "mimeType");
    const QString data = content.contains("blob") ? stringMember(content, "blob")
                                                  : stringMember(content, "data");
    const qint64 bytes = QByteArray::fromBase64(data.toLatin1()).size();
    const QString uri = stringMember(content, "uri");
    const QString kind = type.isEmpty() ? QStringLiteral("blob") : type;
    QString line = tr("[%1 %2, %3 bytes]")
                           .arg(kind, mime.isEmpty() ? tr("unknown type") : mime)
                           .arg(bytes);
    if (!uri.isEmpty())
        line += QLatin1Char(' ') + uri;
    return line;
}

} // namespace Mcp
