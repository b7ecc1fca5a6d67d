#include "trustbanner.h"

#include <engine/policy/truststore.h>

#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace Gui {

namespace {
constexpr int NameRole = Qt::UserRole + 1;

QString dismissKey(const Mcp::ServerConfig &server)
{
    return server.name + QLatin1Char('\n') + Engine::TrustStore::definitionHash(server);
}
} // namespace

TrustBanner::TrustBanner(QWidget *parent)
    : QFrame(parent)
{
    setObjectName(QStringLiteral("trustBanner"));
    setFrameShape(QFrame::StyledPanel);
    // A warning colour that reads in light and dark palettes alike.
    setStyleSheet(
            QStringLiteral("#trustBanner { background: rgba(230, 160, 30, 0.16); "
                           "border: 1px solid rgba(200, 130, 20, 0.8); border-radius: 4px; }"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(4);
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("trustTitle"));
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_title->setWordWrap(true);
    m_explanation = new QLabel(this);
    m_explanation->setWordWrap(true);
    m_list = new QTreeWidget(this);
    m_list->setObjectName(QStringLiteral("trustList"));
    m_list->setHeaderHidden(true);
    m_list->setColumnCount(1);
    m_list->setRootIsDecorated(false);
    m_list->setSelectionMode(QAbstractItemView::NoSelection);
    m_list->setTextElideMode(Qt::ElideMiddle);
    // What each server would run, whole: a command line is never cut off where the user must
    // judge it (the list above holds only the names to tick). Wraps anywhere, scrolls when long.
    m_details = new QPlainTextEdit(this);
    m_details->setObjectName(QStringLiteral("trustDetails"));
    m_details->setReadOnly(true);
    // At spaces where it can ("(sandboxed)" stays whole), anywhere within a long word.
    m_details->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    m_details->setMaximumHeight(200);
    m_details->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    connect(m_list, &QTreeWidget::itemChanged, this, &TrustBanner::updateButtons);

    m_trustAll = new QPushButton(this);
    m_trustAll->setObjectName(QStringLiteral("trustAllButton"));
    m_trustSelected = new QPushButton(this);
    m_trustSelected->setObjectName(QStringLiteral("trustSelectedButton"));
    m_notNow = new QPushButton(this);
    m_notNow->setObjectName(QStringLiteral("notNowButton"));
    connect(m_trustAll, &QPushButton::clicked, this,
            [this] { emit trustRequested(serverNames()); });
    connect(m_trustSelected, &QPushButton::clicked, this,
            [this] { emit trustRequested(checkedServers()); });
    connect(m_notNow, &QPushButton::clicked, this, [this] {
        for (const Mcp::ServerConfig &server : std::as_const(m_servers))
            m_dismissed << dismissKey(server);
        hide();
    });
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_trustAll);
    buttons->addWidget(m_trustSelected);
    buttons->addStretch();
    buttons->addWidget(m_notNow);

    layout->addWidget(m_title);
    layout->addWidget(m_explanation);
    layout->addWidget(m_list);
    layout->addWidget(m_details);
    layout->addLayout(buttons);
    retranslateUi();
}

void TrustBanner::setServers(const QList<Mcp::ServerConfig> &servers)
{
    m_servers.clear();
    for (const Mcp::ServerConfig &server : servers) {
        if (!m_dismissed.contains(dismissKey(server)))
            m_servers << server;
    }
    const QSignalBlocker blocker(m_list);
    m_list->clear();
    QStringList details;
    for (const Mcp::ServerConfig &server : std::as_const(m_servers)) {
        const QString commandLine = Engine::TrustStore::commandLine(server);
        auto *item = new QTreeWidgetItem(m_list);
        item->setText(0, server.name);
        item->setToolTip(0, commandLine);
        item->setData(0, NameRole, server.name);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(0, Qt::Checked);
        // Plain text, never markup: a hostile name or argument is shown as it is.
        details << server.name + QLatin1Char(':') << QStringLiteral("  $ ") + commandLine;
        for (const QString &request : Engine::TrustStore::requests(server))
            details << QStringLiteral("  - ") + request;
    }
    m_details->setPlainText(details.join(QLatin1Char('\n')));
    // As tall as its rows (up to five, then it scrolls): the details get the room.
    if (!m_servers.isEmpty()) {
        const int rows = std::min(int(m_servers.size()), 5);
        m_list->setFixedHeight(rows * m_list->sizeHintForRow(0) + 2 * m_list->frameWidth() + 2);
    }
    retranslateUi();
    setVisible(!m_servers.isEmpty());
}

QStringList TrustBanner::serverNames() const
{
    QStringList names;
    for (const Mcp::ServerConfig &server : m_servers)
        names << server.name;
    return names;
}

QStringList TrustBanner::checkedServers() const
{
    QStringList names;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = m_list->topLevelItem(i);
        if (item->checkState(0) == Qt::Checked)
            names << item->data(0, NameRole).toString();
    }
    return names;
}

void TrustBanner::setChecked(const QString &server, bool checked)
{
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_list->topLevelItem(i);
        if (item->data(0, NameRole).toString() == server)
            item->setCheckState(0, checked ? Qt::Checked : Qt::Unchecked);
    }
}

void TrustBanner::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QFrame::changeEvent(event);
}

void TrustBanner::retranslateUi()
{
    m_title->setText(tr("This folder's .mcp.json wants to start %n server(s)", nullptr,
                        int(m_servers.size())));
    m_explanation->setText(tr("They run as programs on your computer with your permissions. "
                              "Trust them only if you trust this folder's author. A changed "
                              "definition asks again."));
    m_trustAll->setText(tr("Trust"));
    m_trustAll->setToolTip(tr("Trust every server listed here and start them"));
    m_trustSelected->setText(tr("Trust selected"));
    m_trustSelected->setToolTip(tr("Trust only the checked servers"));
    m_notNow->setText(tr("Not now"));
    m_notNow->setToolTip(tr("Keep them stopped; ask again when the folder is opened next time"));
    updateButtons();
}

void TrustBanner::updateButtons()
{
    const int checked = int(checkedServers().size());
    m_trustSelected->setEnabled(checked > 0 && checked < m_list->topLevelItemCount());
}

} // namespace Gui
