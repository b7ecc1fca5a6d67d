#pragma once

#include <QCoreApplication>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace Gui {

// Opens a file in the user's own editor: $VISUAL, else $EDITOR (inside a terminal emulator
// when it draws in a terminal), else the desktop's application for the file. The editor is
// started detached and nothing waits for it. Used by ConfigEditorPane's "Open in external
// editor", which says in its status line what happened.
class ExternalEditor
{
    Q_DECLARE_TR_FUNCTIONS(Gui::ExternalEditor)
public:
    struct Launch
    {
        bool opened = false;
        // The $VISUAL or $EDITOR command that opened the file; empty when the desktop's
        // application did.
        QString command;
        // Why $VISUAL or $EDITOR could not open it, one entry for each that was tried.
        QStringList failures;
    };

    // `environment` holds VISUAL, EDITOR, TERMINAL and PATH, and is the editor's environment.
    static Launch open(const QString &path, const QProcessEnvironment &environment);

private:
    // $TERMINAL, else Debian's x-terminal-emulator (which takes `-e COMMAND ARGS...`); empty if
    // neither is there.
    static QStringList terminalCommand(const QProcessEnvironment &environment);
};

} // namespace Gui
