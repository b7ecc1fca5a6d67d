#pragma once

#include <QIcon>
#include <QString>

namespace Ui {

// The application's own icons, from resources/icons (embedded under ":/icons"): "tools",
// "servers", "settings", "config", "log", "new", "send", "stop", and "switchboard" (the app).
inline QIcon icon(const QString &name)
{
    return QIcon(QStringLiteral(":/icons/%1.svg").arg(name));
}

} // namespace Ui
