#pragma once

#include <QCoreApplication>

class QAction;
class QWidget;

namespace Gui {

// The Help menu's boxes. Each opens without blocking and deletes itself when closed.
class HelpDialogs
{
    Q_DECLARE_TR_FUNCTIONS(Gui::HelpDialogs)
public:
    // The window's actions whose keys the shortcut list shows (as they are bound now).
    struct Actions
    {
        const QAction *newConversation = nullptr;
        const QAction *toolBrowser = nullptr;
        const QAction *editConfiguration = nullptr;
        const QAction *settings = nullptr;
        const QAction *shortcuts = nullptr;
        const QAction *quit = nullptr;
        const QAction *conversations = nullptr;
        const QAction *servers = nullptr;
        const QAction *agents = nullptr;
        const QAction *protocolLog = nullptr;
    };
    static void showShortcuts(QWidget *parent, const Actions &actions);
    static void showAbout(QWidget *parent);
};

} // namespace Gui
