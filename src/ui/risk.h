#pragma once

#include <engine/policy/serverpolicy.h>

#include <QCoreApplication>
#include <QString>

namespace Gui {

// A risk level as the user reads it ("read", "mutating", "dangerous", translated); the
// untranslated names (Engine::riskName) are for config files and the CLI.
inline QString riskText(Engine::Risk risk)
{
    switch (risk) {
    case Engine::Risk::Read:
        return QCoreApplication::translate("Gui::Risk", "read");
    case Engine::Risk::Mutating:
        return QCoreApplication::translate("Gui::Risk", "mutating");
    case Engine::Risk::Dangerous:
        break;
    }
    return QCoreApplication::translate("Gui::Risk", "dangerous");
}

} // namespace Gui
