#include "externaleditor.h"

#include <QDesktopServices>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QUrl>

namespace Gui {

namespace {

// Editors that draw in a terminal have none when a window starts them: they run inside a
// terminal emulator instead.
bool runsInTerminal(const QString &program, const QStringList &arguments)
{
    static const QStringList terminalEditors
            = {QStringLiteral("vi"),   QStringLiteral("vim"),    QStringLiteral("nvim"),
               QStringLiteral("nano"), QStringLiteral("pico"),   QStringLiteral("micro"),
               QStringLiteral("hx"),   QStringLiteral("joe"),    QStringLiteral("jed"),
               QStringLiteral("ne"),   QStringLiteral("mcedit"), QStringLiteral("kak"),
               QStringLiteral("mg"),   QStringLiteral("ed")};
    const QString name = QFileInfo(program).fileName();
    if (name == QLatin1String("emacs"))
        return arguments.contains(QLatin1String("-nw"))
               || arguments.contains(QLatin1String("--no-window-system"));
    return terminalEditors.contains(name);
}

} // namespace

QStringList ExternalEditor::terminalCommand(const QProcessEnvironment &environment)
{
    QStringList terminal = QProcess::splitCommand(environment.value(QStringLiteral("TERMINAL")));
    if (!terminal.isEmpty())
        return terminal;
    const QString path = QStandardPaths::findExecutable(
            QStringLiteral("x-terminal-emulator"),
            environment.value(QStringLiteral("PATH")).split(u':', Qt::SkipEmptyParts));
    return path.isEmpty() ? QStringList() : QStringList{path};
}

ExternalEditor::Launch ExternalEditor::open(const QString &path,
                                            const QProcessEnvironment &environment)
{
    Launch launch;
    for (const QString &variable : {QStringLiteral("VISUAL"), QStringLiteral("EDITOR")}) {
        const QString command = environment.value(variable).trimmed();
        QStringList arguments = QProcess::splitCommand(command);
        if (arguments.isEmpty())
            continue;
        QString program = arguments.takeFirst();
        arguments << path;
        if (runsInTerminal(program, arguments)) {
            QStringList terminal = terminalCommand(environment);
            if (terminal.isEmpty()) {
                launch.failures << tr("$%1 (%2) runs in a terminal, and no terminal emulator was "
                                      "found (set TERMINAL)")
                                           .arg(variable, command);
                continue;
            }
            arguments = terminal.mid(1) + QStringList{QStringLiteral("-e"), program} + arguments;
            program = terminal.first();
        }
        QProcess process;
        process.setProgram(program);
        process.setArguments(arguments);
        process.setWorkingDirectory(QFileInfo(path).absolutePath());
        process.setProcessEnvironment(environment);
        if (process.startDetached()) {
            launch.opened = true;
            launch.command = command;
            return launch;
        }
        launch.failures << tr("$%1 (%2) could not be started").arg(variable, command);
    }
    launch.opened = QDesktopServices::openUrl(QUrl::fromLocalFile(path));
    return launch;
}

} // namespace Gui
