#include "approval.h"

#include <QStringList>

namespace Engine {

ToolKey ToolKey::of(const Tool &tool)
{
    if (tool.isBuiltin())
        return {true, {}, tool.originalName()};
    return {false, tool.source(), tool.originalName()};
}

QString ToolKey::toString() const
{
    // '/' cannot occur in a server name or a tool name that a grant is for; even if it did,
    // the kind prefix keeps a built-in and a server apart.
    return builtin ? QStringLiteral("builtin/") + tool
                   : QStringLiteral("server/%1/%2").arg(server, tool);
}

namespace CommandPattern {

bool hasShellOperators(const QString &command)
{
    for (const QChar c : command) {
        switch (c.unicode()) {
        case ';':
        case '&':
        case '|':
        case '<':
        case '>':
        case '(':
        case ')':
        case '`':
        case '\n':
        case '\r':
            return true;
        default:
            break;
        }
    }
    return false;
}

QString suggest(const QString &command)
{
    QString head;
    for (const QChar c : command) {
        if (hasShellOperators(QString(c)) || c == QLatin1Char('$'))
            break;
        head += c;
    }
    const QStringList words = head.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (words.isEmpty())
        return command;
    return words.mid(0, 2).join(QLatin1Char(' ')) + QLatin1Char('*');
}

bool matches(const QString &pattern, const QString &command)
{
    if (pattern == command)
        return true;
    if (!pattern.endsWith(QLatin1Char('*')))
        return false;
    const QString prefix = pattern.chopped(1);
    // "*" alone would be every command: never a grant.
    if (prefix.trimmed().isEmpty())
        return false;
    if (hasShellOperators(command))
        return false;
    return command.startsWith(prefix);
}

} // namespace CommandPattern

QString scopeName(ApprovalChoice choice)
{
    switch (choice) {
    case ApprovalChoice::AllowOnce:
        return QStringLiteral("once");
    case ApprovalChoice::AllowForConversation:
        return QStringLiteral("conversation");
    case ApprovalChoice::AlwaysAllow:
        return QStringLiteral("always");
    case ApprovalChoice::Deny:
        break;
    }
    return QStringLiteral("deny");
}

} // namespace Engine
