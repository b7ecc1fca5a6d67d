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
