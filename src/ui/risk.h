#pragma once

#include <mcp/config.h>

#include <QCoreApplication>
#include <QString>

namespace Ui {

// A risk level as the user reads it ("read", "mutating", "dangerous", translated); the
// untranslated names (Mcp::riskName) are for config files and the CLI.
inline QString riskText(Mcp::Risk risk)
{
    switch (risk) {
    case Mcp::Risk::Read:
        return QCoreApplication::translate("Ui::Risk", "read");
    case Mcp::Risk::Mutating:
        return QCoreApplication::translate("Ui::Risk", "mutating");
    case Mcp::Risk::Dangerous:
        break;
    }
    return QCoreApplication::translate("Ui::Risk", "dangerous");
}

} // namespace Ui
