#include "conversationexport.h"

#include <mcp/wire/jsonrpc.h>

#include <QCoreApplication>

#include <algorithm>

namespace Engine::ConversationExport {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Engine::ConversationExport)
};

QString when(const ChatMessage &message)
{
    return message.time.isValid() ? message.time.toLocalTime().toString(Qt::ISODate) : QString();
}

QString speaker(const ChatMessage &message)
{
    switch (message.role) {
    case ChatMessage::Role::User:
        return Tr::tr("You");
    case ChatMessage::Role::Assistant:
        return Tr::tr("Assistant");
    case ChatMessage::Role::Tool:
        return Tr::tr("Tool result");
    case ChatMessage::Role::System:
        break;
    }
    return Tr::tr("System");
}

// Images a page may show inline (never SVG: it can carry script).
bool showableImage(const Attachment &attachment)
{
    static const QStringList types{QStringLiteral("image/png"), QStringLiteral("image/jpeg"),
                                   QStringLiteral("image/gif"), QStringLiteral("image/webp")};
    return types.contains(attachment.mimeType) && !attachment.data.isEmpty();
}

QString dataUrl(const Attachment &attachment)
{
    return QStringLiteral("data:%1;base64,%2")
            .arg(attachment.mimeType, QString::fromLatin1(attachment.data.toBase64()));
}

// The diff of the file a tool call changed (ChatMessage::change), or empty.
QString changeDiff(const ChatMessage &message)
{
    return Mcp::stringMember(message.change, "diff");
}

QString argumentsText(const ToolCallRequest &call)
{
    return call.arguments.is_null() ? call.argumentsText
                                    : QString::fromStdString(call.arguments.dump(
                                            2, ' ', false, Json::error_handler_t::replace));
}

// A Markdown code fence longer than any run of backticks in `text`.
QString fenceFor(const QString &text)
{
    int longest = 0, run = 0;
    for (const QChar c : text) {
        run = c == u'`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    return QString(std::max(3, longest + 1), u'`');
}

QString fenced(const QString &text, const QString &language = QString())
{
    const QString fence = fenceFor(text);
    return fence + language + u'\n' + text + u'\n' + fence + u'\n';
}

QString toolTitle(const ChatMessage &message)
{
    if (message.denied)
        return Tr::tr("%1 (denied)").arg(message.toolName);
    if (message.isError)
        return Tr::tr("%1 (error)").arg(message.toolName);
    return message.toolName;
}

QByteArray markdown(const Conversation &conversation)
{
    QString out = QStringLiteral("# %1\n\n")
                          .arg(conversation.title.isEmpty() ? Tr::tr("(untitled)")
                                                            : conversation.title);
    out += Tr::tr("Workspace: `%1` · started %2 · %n message(s)", nullptr,
                  int(conversation.messages.size()))
                   .arg(conversation.workspace,
                        conversation.created.toLocalTime().toString(Qt::ISODate))
           + QStringLiteral("\n\n---\n\n");
    for (const ChatMessage &message : conversation.messages) {
        if (message.role == ChatMessage::Role::Tool) {
            out += QStringLiteral("<details>\n<summary>%1</summary>\n\n")
                           .arg(Tr::tr("Result of %1").arg(toolTitle(message)).toHtmlEscaped());
            out += fenced(message.text, QStringLiteral("text"));
            if (const QString diff = changeDiff(message); !diff.isEmpty())
                out += u'\n' + fenced(diff, QStringLiteral("diff"));
        } else {
            out += QStringLiteral("**%1**").arg(speaker(message));
            if (!when(message).isEmpty())
                out += QStringLiteral(" · ") + when(message);
            out += QStringLiteral("\n\n") + message.text + QStringLiteral("\n");
            if (!message.interruption.isEmpty())
                out += QStringLiteral("\n> ") + message.interruption + u'\n';
        }
        for (const Attachment &attachment : message.attachments) {
            out += showableImage(attachment)
                           ? QStringLiteral("\n![%1](%2)\n")
                                     .arg(attachment.name, dataUrl(attachment))
                           : QStringLiteral("\n%1\n").arg(
                                   Tr::tr("Attached: %1 (%2 bytes)")
                                           .arg(attachment.name,
                                                QString::number(attachment.data.size())));
        }
        if (message.role == ChatMessage::Role::Tool)
            out += QStringLiteral("\n</details>\n");
        for (const ToolCallRequest &call : message.toolCalls) {
            out += QStringLiteral("\n<details>\n<summary>%1</summary>\n\n")
                           .arg(Tr::tr("Tool call %1").arg(call.name).toHtmlEscaped());
            out += fenced(argumentsText(call), QStringLiteral("json"));
            out += QStringLiteral("\n</details>\n");
        }
        out += u'\n';
    }
    return out.toUtf8();
}

// A message's text as HTML: escaped, its ``` blocks as <pre><code>, the rest kept as written
// (white-space: pre-wrap).
QString htmlText(const QString &text)
{
    QString out;
    QString prose;
    bool inCode = false;
    const auto flush = [&](const char *tag) {
        if (!prose.isEmpty())
            out += QStringLiteral("<%1>%2</%1>\n")
                           .arg(QLatin1String(tag),
                                prose.chopped(prose.endsWith(u'\n') ? 1 : 0).toHtmlEscaped());
        prose.clear();
    };
    for (const QString &line : text.split(u'\n')) {
        if (line.trimmed().startsWith(QLatin1String("```"))) {
            flush(inCode ? "pre" : "p");
            inCode = !inCode;
            continue;
        }
        prose += line + u'\n';
    }
    flush(inCode ? "pre" : "p");
    return out;
}

QByteArray html(const Conversation &conversation)
{
    const QString title = conversation.title.isEmpty() ? Tr::tr("(untitled)") : conversation.title;
    QString out
            = QStringLiteral(
                      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
                      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                      "img-src data:; style-src 'unsafe-inline'\">\n"
                      "<meta name=\"viewport\" content=\"width=device-width\">\n<title>%1</title>\n"
                      "<style>\n"
                      "body{font-family:system-ui,sans-serif;line-height:1.5;margin:0;background:#"
                      "fafafa;"
                      "color:#1f2328}\n"
                      "main{max-width:46em;margin:0 auto;padding:1.5em}\n"
                      ".meta{color:#57606a;font-size:.9em}\n"
                      "section{margin:1.2em 0;padding:.6em .9em;border-radius:8px;background:#fff;"
                      "border:1px solid #d0d7de}\n"
                      "section.user{background:#eef4ff}\n"
                      "header{font-weight:600;margin-bottom:.3em}header time{font-weight:400;"
                      "color:#57606a;margin-left:.6em;font-size:.85em}\n"
                      "p{white-space:pre-wrap;margin:.4em 0}\n"
                      "pre{white-space:pre-wrap;background:#f6f8fa;padding:.6em;border-radius:6px;"
                      "overflow-x:auto}\n"
                      "details{margin:.6em 0;border:1px solid "
                      "#d0d7de;border-radius:6px;padding:.3em .6em;"
                      "background:#fff}\n"
                      "summary{cursor:pointer;font-family:monospace}\n"
                      "img{max-width:100%;border:1px solid #d0d7de;border-radius:4px}\n"
                      ".interrupted{color:#9a6700}\n"
                      "@media (prefers-color-scheme: dark){body{background:#0d1117;color:#e6edf3}"
                      "section,details{background:#161b22;border-color:#30363d}section.user{"
                      "background:"
                      "#132339}pre{background:#0d1117}.meta,header time{color:#8d96a0}}\n"
                      "</style></head><body><main>\n")
                      .arg(title.toHtmlEscaped());
    out += QStringLiteral("<h1>%1</h1>\n<p class=\"meta\">%2</p>\n")
                   .arg(title.toHtmlEscaped(),
                        Tr::tr("Workspace: %1 · started %2 · %n message(s)", nullptr,
                               int(conversation.messages.size()))
                                .arg(conversation.workspace,
                                     conversation.created.toLocalTime().toString(Qt::ISODate))
                                .toHtmlEscaped());
    const auto images = [](const ChatMessage &message) {
        QString html;
        for (const Attachment &attachment : message.attachments) {
            html += showableImage(attachment)
                            ? QStringLiteral("<img alt=\"%1\" src=\"%2\">\n")
                                      .arg(attachment.name.toHtmlEscaped(), dataUrl(attachment))
                            : QStringLiteral("<p class=\"meta\">%1</p>\n")
                                      .arg(Tr::tr("Attached: %1 (%2 bytes)")
                                                   .arg(attachment.name,
                                                        QString::number(attachment.data.size()))
                                                   .toHtmlEscaped());
        }
        return html;
    };
    for (const ChatMessage &message : conversation.messages) {
        if (message.role == ChatMessage::Role::Tool) {
            out += QStringLiteral(
                           "<details class=\"tool result\"><summary>%1</summary>\n<pre>%2</pre>\n%3"
                           "%4</details>\n")
                           .arg(Tr::tr("Result of %1").arg(toolTitle(message)).toHtmlEscaped(),
                                message.text.toHtmlEscaped(), images(message),
                                changeDiff(message).isEmpty()
                                        ? QString()
                                        : QStringLiteral("<pre class=\"diff\">%1</pre>\n")
                                                  .arg(changeDiff(message).toHtmlEscaped()));
            continue;
        }
        out += QStringLiteral("<section class=\"%1\"><header>%2<time>%3</time></header>\n")
                       .arg(message.role == ChatMessage::Role::User ? QStringLiteral("user")
                                                                    : QStringLiteral("assistant"),
                            speaker(message).toHtmlEscaped(), when(message).toHtmlEscaped());
        out += htmlText(message.text);
        if (!message.interruption.isEmpty())
            out += QStringLiteral("<p class=\"interrupted\">%1</p>\n")
                           .arg(message.interruption.toHtmlEscaped());
        out += images(message);
        for (const ToolCallRequest &call : message.toolCalls) {
            out += QStringLiteral(
                           "<details class=\"tool call\"><summary>%1</summary>\n<pre>%2</pre>"
                           "</details>\n")
                           .arg(Tr::tr("Tool call %1").arg(call.name).toHtmlEscaped(),
                                argumentsText(call).toHtmlEscaped());
        }
        out += QStringLiteral("</section>\n");
    }
    out += QStringLiteral("</main></body></html>\n");
    return out.toUtf8();
}

QByteArray json(const Conversation &conversation)
{
    Json messages = Json::array();
    for (const ChatMessage &message : conversation.messages) {
        Json entry = message.toJson();
        if (message.time.isValid())
            entry["time"] = message.time.toString(Qt::ISODateWithMs).toStdString();
        messages.push_back(std::move(entry));
    }
    const Json document{{"format", "switchboard-conversation"},
                        {"version", 1},
                        {"id", conversation.id.toStdString()},
                        {"title", conversation.title.toStdString()},
                        {"workspace", conversation.workspace.toStdString()},
                        {"created", conversation.created.toString(Qt::ISODateWithMs).toStdString()},
                        {"updated", conversation.updated.toString(Qt::ISODateWithMs).toStdString()},
                        {"messages", std::move(messages)}};
    return QByteArray::fromStdString(document.dump(2, ' ', false, Json::error_handler_t::replace))
           + '\n';
}

} // namespace

std::optional<Format> formatNamed(const QString &name)
{
    const QString lower = name.toLower();
    if (lower == QLatin1String("md") || lower == QLatin1String("markdown"))
        return Format::Markdown;
    if (lower == QLatin1String("html"))
        return Format::Html;
    if (lower == QLatin1String("json"))
        return Format::Json;
    return std::nullopt;
}

QString suffix(Format format)
{
    switch (format) {
    case Format::Markdown:
        return QStringLiteral("md");
    case Format::Html:
        return QStringLiteral("html");
    case Format::Json:
        return QStringLiteral("json");
    }
    return {};
}

QByteArray exported(const Conversation &conversation, Format format)
{
    switch (format) {
    case Format::Markdown:
        return markdown(conversation);
    case Format::Html:
        return html(conversation);
    case Format::Json:
        return json(conversation);
    }
    return {};
}

} // namespace Engine::ConversationExport
