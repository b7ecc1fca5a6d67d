#include "helpdialogs.h"

#include "icons.h"

#include <QAction>
#include <QMessageBox>

namespace Gui {

void HelpDialogs::showShortcuts(QWidget *parent, const Actions &actions)
{
    const auto keys = [](const QAction *action) {
        return action->shortcut().toString(QKeySequence::NativeText);
    };
    const auto native = [](const QKeySequence &sequence) {
        return sequence.toString(QKeySequence::NativeText);
    };
    const QList<std::pair<QString, QString>> rows = {
            {tr("Enter"), tr("Send the message")},
            {tr("Shift+Enter"), tr("A new line in the message")},
            {tr("Esc"), tr("Stop the reply, or stop editing the last message")},
            {QStringLiteral("/mcp"), tr("Open the tool browser (typed in the message box)")},
            {keys(actions.newConversation), tr("New conversation")},
            {keys(actions.toolBrowser), tr("Tool browser")},
            {keys(actions.editConfiguration), tr("Edit the configuration")},
            {native(QKeySequence::Save), tr("Save the configuration (in its editor)")},
            {keys(actions.settings), tr("Settings")},
            {keys(actions.conversations), tr("Show or hide the conversations")},
            {keys(actions.servers), tr("Show or hide the servers")},
            {keys(actions.agents), tr("Show or hide the agents")},
            {keys(actions.protocolLog), tr("Show or hide the protocol log")},
            {native(QKeySequence(Qt::Key_F2)), tr("Rename the selected conversation")},
            {keys(actions.shortcuts), tr("This list")},
            {keys(actions.quit), tr("Quit (stops the servers)")},
    };
    QString html = QStringLiteral("<table cellspacing=\"0\" cellpadding=\"4\">");
    for (const auto &[key, what] : rows) {
        if (key.isEmpty())
            continue;
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                        .arg(key.toHtmlEscaped(), what.toHtmlEscaped());
    }
    html += QStringLiteral("</table>");
    auto *box = new QMessageBox(QMessageBox::NoIcon, tr("Keyboard shortcuts"), html,
                                QMessageBox::Close, parent);
    box->setObjectName(QStringLiteral("shortcutsDialog"));
    box->setTextFormat(Qt::RichText);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void HelpDialogs::showAbout(QWidget *parent)
{
    auto *box = new QMessageBox(
            QMessageBox::NoIcon, tr("About Switchboard"),
            tr("<h3>Switchboard %1</h3><p>A desktop AI agent and MCP client: the model's tools "
               "come from MCP servers, and every tool that can change something waits for "
               "your approval.</p><p>Built with Qt %2 (running on Qt %3).</p>")
                    .arg(QCoreApplication::applicationVersion().toHtmlEscaped(),
                         QStringLiteral(QT_VERSION_STR), QString::fromLatin1(qVersion())),
            QMessageBox::Close, parent);
    box->setObjectName(QStringLiteral("aboutDialog"));
    box->setTextFormat(Qt::RichText);
    box->setIconPixmap(icon(QStringLiteral("switchboard")).pixmap(64, 64));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace Gui
