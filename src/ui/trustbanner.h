#pragma once

#include <mcp/config/config.h>

#include <QFrame>
#include <QList>
#include <QStringList>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;

namespace Gui {

// The question a cloned repository's `.mcp.json` must not get around: "This folder's
// .mcp.json wants to start N servers". Lists each untrusted server (a check box each) and,
// whole and never elided, its command line and what else its definition asks for (tools approved
// without asking, lower risks, the whole environment), each with a check box; Trust (all), Trust
// selected, Not now. It only asks: the owner (MainWindow) records the answer in the trust store and
// restarts what changed. Lives at the top of the server dock; hidden when nothing waits.
class TrustBanner : public QFrame
{
    Q_OBJECT
public:
    explicit TrustBanner(QWidget *parent = nullptr);

    // The servers that wait (those marked `untrusted`); hides itself when there are none.
    // A server dismissed with "Not now" stays hidden until its definition changes.
    void setServers(const QList<Mcp::ServerConfig> &servers);
    QStringList serverNames() const;
    QStringList checkedServers() const;
    void setChecked(const QString &server, bool checked);

signals:
    void trustRequested(const QStringList &servers);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void updateButtons();

    QLabel *m_title = nullptr;
    QLabel *m_explanation = nullptr;
    QTreeWidget *m_list = nullptr;       // the names, to tick
    QPlainTextEdit *m_details = nullptr; // each command line and request, whole
    QPushButton *m_trustAll = nullptr;
    QPushButton *m_trustSelected = nullptr;
    QPushButton *m_notNow = nullptr;
    QStringList m_dismissed; // "name\nhash" of servers the user put off
    QList<Mcp::ServerConfig> m_servers;
};

} // namespace Gui
