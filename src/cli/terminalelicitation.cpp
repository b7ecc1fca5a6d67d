#include "terminalelicitation.h"

#include "terminalgate.h"

#include <engine/serverrequests/elicitation.h>

#include <QCoreApplication>
#include <QUrl>

#include <algorithm>
#include <memory>

using Mcp::Json;

namespace Cli {

namespace {

// The translation context of what is asked.
class TerminalElicitation
{
    Q_DECLARE_TR_FUNCTIONS(TerminalElicitation)
};

constexpr int MaxTries = 3;

struct Field
{
    std::string name;
    Json schema;
    bool required = false;
};

// The choices of an enum field: (value, label) pairs.
std::vector<std::pair<std::string, QString>> choicesOf(const Json &schema)
{
    std::vector<std::pair<std::string, QString>> out;
    if (const auto it = schema.find("enum"); it != schema.end() && it->is_array()) {
        for (const Json &value : *it) {
            if (value.is_string())
                out.emplace_back(value.get<std::string>(),
                                 QString::fromStdString(value.get<std::string>()));
        }
    }
    if (const auto it = schema.find("oneOf"); it != schema.end() && it->is_array()) {
        for (const Json &option : *it) {
            const QString value = Mcp::stringMember(option, "const");
            const QString title = Mcp::stringMember(option, "title");
            if (!value.isEmpty())
                out.emplace_back(value.toStdString(), title.isEmpty() ? value : title);
        }
    }
    return out;
}

// The value typed for `field`, or nullopt with why.
std::optional<Json> valueOf(const Field &field, const QString &typed, QString *why)
{
    const QString type = Mcp::stringMember(field.schema, "type");
    const auto choices = choicesOf(field.schema);
    if (!choices.empty()) {
        bool isNumber = false;
        const int index = typed.toInt(&isNumber);
        if (isNumber && index >= 1 && index <= int(choices.size()))
            return Json(choices[std::size_t(index - 1)].first);
        for (const auto &[value, label] : choices) {
            if (QString::fromStdString(value) == typed || label == typed)
                return Json(value);
        }
        *why = TerminalElicitation::tr("one of the choices, or its number");
        return std::nullopt;
    }
    if (type == QLatin1String("boolean")) {
        const QString answer = typed.toLower();
        if (answer == QLatin1String("y") || answer == QLatin1String("yes")
            || answer == QLatin1String("true"))
            return Json(true);
        if (answer == QLatin1String("n") || answer == QLatin1String("no")
            || answer == QLatin1String("false"))
            return Json(false);
        *why = TerminalElicitation::tr("y or n");
        return std::nullopt;
    }
    bool ok = false;
    if (type == QLatin1String("integer")) {
        const qlonglong value = typed.toLongLong(&ok);
        if (ok)
            return Json(value);
        *why = TerminalElicitation::tr("a whole number");
        return std::nullopt;
    }
    if (type == QLatin1String("number")) {
        const double value = typed.toDouble(&ok);
        if (ok)
            return Json(value);
        *why = TerminalElicitation::tr("a number");
        return std::nullopt;
    }
    return Json(typed.toStdString());
}

QString promptFor(const Field &field)
{
    QStringList about{Mcp::stringMember(field.schema, "type")};
    const QString format = Mcp::stringMember(field.schema, "format");
    if (!format.isEmpty())
        about << format;
    if (field.required)
        about << TerminalElicitation::tr("required");
    if (const auto it = field.schema.find("default"); it != field.schema.end())
        about << TerminalElicitation::tr("default %1")
                         .arg(QString::fromStdString(
                                 it->dump(-1, ' ', false, Json::error_handler_t::replace)));
    QString text;
    const QString title = Mcp::stringMember(field.schema, "title");
    const QString description = Mcp::stringMember(field.schema, "description");
    text += QStringLiteral("  %1 (%2)")
                    .arg(title.isEmpty() ? QString::fromStdString(field.name) : title,
                         about.join(QStringLiteral(", ")));
    if (!description.isEmpty())
        text += QStringLiteral(": ") + description;
    text += QLatin1Char('\n');
    int number = 0;
    for (const auto &[value, label] : choicesOf(field.schema))
        text += QStringLiteral("    %1. %2\n").arg(++number).arg(label);
    return text + QStringLiteral("  > ");
}

struct Form
{
    TerminalApprovalGate *gate = nullptr;
    std::vector<Field> fields;
    std::size_t next = 0;
    int tries = 0;
    Json content = Json::object();
    Mcp::Client::Reply reply;
};

void askField(std::shared_ptr<Form> form, const QString &note = QString())
{
    if (form->next >= form->fields.size()) {
        form->reply(Mcp::Response::success({{"action", "accept"}, {"content", form->content}}));
        return;
    }
    const Field &field = form->fields[form->next];
    form->gate->askLine(note + promptFor(field), [form](std::optional<QString> line) {
        if (!line) {
            form->reply(Mcp::Response::success({{"action", "cancel"}}));
            return;
        }
        const Field &field = form->fields[form->next];
        const QString typed = line->trimmed();
        QString why;
        std::optional<Json> value;
        if (typed.isEmpty()) {
            if (const auto it = field.schema.find("default"); it != field.schema.end())
                value = *it;
            else if (!field.required)
                value = Json(); // left out
            else
                why = TerminalElicitation::tr("an answer (it is required)");
        } else {
            value = valueOf(field, typed, &why);
        }
        if (!value) {
            if (++form->tries >= MaxTries) {
                form->reply(Mcp::Response::success({{"action", "cancel"}}));
                return;
            }
            askField(form, TerminalElicitation::tr("  (needs %1)\n").arg(why));
            return;
        }
        if (!value->is_null())
            form->content[field.name] = *value;
        form->tries = 0;
        ++form->next;
        askField(form);
    });
}

} // namespace

void askElicitationOnTerminal(TerminalApprovalGate *gate, const QString &server, const Json &params,
                              Mcp::Client::Reply reply)
{
    if (const std::string oversize = Engine::Elicitation::oversize(params); !oversize.empty()) {
        reply(Mcp::Response::failure(Mcp::ErrorCode::InvalidParams, oversize));
        return;
    }
    const QString message = Engine::Elicitation::messageOf(params);
    const bool urlMode = Mcp::stringMember(params, "mode") == QLatin1String("url");
    if (urlMode) {
        const QUrl url(Mcp::stringMember(params, "url"), QUrl::StrictMode);
        const QString scheme = url.scheme().toLower();
        if (!url.isValid()
            || (scheme != QLatin1String("https") && scheme != QLatin1String("http"))) {
            reply(Mcp::Response::failure(Mcp::ErrorCode::InvalidParams,
                                         "the elicitation URL is not an http(s) URL"));
            return;
        }
        gate->askLine(TerminalElicitation::tr(
                              "\n%1 asks you to open a page: %2\n  %3\n  (it goes to %4)\n"
                              "[o] I will open it  [d] decline  [c] cancel > ")
                              .arg(server, message, url.toString(QUrl::FullyEncoded),
                                   url.host(QUrl::FullyEncoded)),
                      [reply](std::optional<QString> line) {
                          const QString key = line ? line->trimmed().left(1).toLower() : QString();
                          reply(Mcp::Response::success(
                                  {{"action", key == QLatin1String("o")   ? "accept"
                                              : key == QLatin1String("d") ? "decline"
                                                                          : "cancel"}}));
                      });
        return;
    }
    auto form = std::make_shared<Form>();
    form->gate = gate;
    form->reply = std::move(reply);
    const Json schema = params.is_object() ? params.value("requestedSchema", Json()) : Json();
    const Json properties = schema.is_object() ? schema.value("properties", Json()) : Json();
    const Json required = schema.is_object() ? schema.value("required", Json::array()) : Json();
    if (!properties.is_object()) {
        form->reply(Mcp::Response::failure(Mcp::ErrorCode::InvalidParams,
                                           "the elicitation has no requestedSchema properties"));
        return;
    }
    for (const auto &[name, property] : properties.items()) {
        const bool isRequired
                = required.is_array()
                  && std::find(required.begin(), required.end(), Json(name)) != required.end();
        form->fields.push_back(
                {name, property.is_object() ? property : Json::object(), isRequired});
    }
    gate->askLine(TerminalElicitation::tr("\n%1 asks: %2\n[a] answer  [d] decline  [c] cancel > ")
                          .arg(server, message),
                  [form](std::optional<QString> line) {
                      const QString key = line ? line->trimmed().left(1).toLower() : QString();
                      if (key == QLatin1String("a"))
                          askField(form);
                      else
                          form->reply(Mcp::Response::success(
                                  {{"action", key == QLatin1String("d") ? "decline" : "cancel"}}));
                  });
}

} // namespace Cli
