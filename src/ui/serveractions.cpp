#include "serveractions.h"

#include "appsettings.h"
#include "configeditorpane.h"
#include "serverdock.h"
#include "trustbanner.h"

#include <engine/session.h>
#include <mcp/config/configpatcher.h>

#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QMainWindow>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>

namespace Gui {

namespace {
// More tools than OpenAI-compatible APIs accept (and than models use well).
constexpr int OfferedToolsLimit = 128;
} // namespace

ServerActions::ServerActions(Engine::Session *session, ServerDock *dock, Files files,
                             QMainWindow *window)
    : QObject(window)
    , m_session(session)
    , m_dock(dock)
    , m_files(std::move(files))
    , m_window(window)
{
    connect(m_dock->trustBanner(), &TrustBanner::trustRequested, this,
            &ServerActions::trustServers);
    updateTrustBanner();
    connect(m_dock, &ServerDock::serverEnabledChanged, this, &ServerActions::saveServerEnabled);
    connect(m_dock, &ServerDock::offerChanged, this, &ServerActions::setServerOffered);

    // Whose instructions the model reads: the person's choice, kept in the settings.
    m_session->setInstructionsOff(AppSettings::loadInstructionsOff(m_files.settingsFile));
    m_dock->setInstructionsOff(m_session->instructionsOff());
    connect(m_dock, &ServerDock::instructionsChanged, this, &ServerActions::setInstructionsUsed);

    m_toolWarning = new QLabel(window);
    m_toolWarning->setObjectName(QStringLiteral("toolLimitWarning"));
    m_toolWarning->setWordWrap(true);
    m_toolWarning->setStyleSheet(QStringLiteral("QLabel { color: #b26a00; }"));
    m_toolWarning->hide();
    // Counted once the registry settles (a server's 10,000 tools arrive in one change).
    m_toolWarningTimer = new QTimer(this);
    m_toolWarningTimer->setSingleShot(true);
    m_toolWarningTimer->setInterval(0);
    connect(m_toolWarningTimer, &QTimer::timeout, this, &ServerActions::updateToolWarning);
    for (auto signal :
         {&Engine::ToolRegistry::toolsChanged, &Engine::ToolRegistry::offeringChanged})
        connect(m_session->registry(), signal, m_toolWarningTimer, qOverload<>(&QTimer::start));

    const AppSettings::Offering offering = AppSettings::loadOffering(m_files.settingsFile);
    m_session->registry()->setNotOffered(offering.notOfferedServers, offering.notOfferedTools);
    m_dock->setNotOffered(offering.notOfferedServers);
    updateToolWarning();
}

void ServerActions::retranslateUi()
{
    if (m_configDock)
        m_configDock->setWindowTitle(tr("Configuration"));
    updateToolWarning();
}

void ServerActions::editConfiguration()
{
    if (!m_configDock) {
        m_configEditor = new ConfigEditorPane(m_files.workspace, m_files.configFile);
        m_configEditor->setAppliedConfig(m_session->config());
        m_configEditor->setApplyHandler(
                [this](const Mcp::McpConfig &config) { return applyConfig(config); });
        m_configDock = new QDockWidget(tr("Configuration"), m_window);
        m_configDock->setObjectName(QStringLiteral("configDock"));
        m_configDock->setWidget(m_configEditor);
        // Where it was last time, if it was; the first time a window of its own beside the
        // main one: docked at the bottom of the default window it left the chat 70 px.
        if (!m_window->restoreDockWidget(m_configDock)) {
            m_window->addDockWidget(Qt::BottomDockWidgetArea, m_configDock);
            m_configDock->setFloating(true);
            m_configDock->resize(820, 600);
            m_configDock->move(m_window->geometry().center() - QPoint(410, 300));
        }
    }
    m_configDock->show();
    m_configDock->raise();
    m_configEditor->setFocus();
}

bool ServerActions::readyToClose(const std::function<void()> &closeAgain)
{
    if (!m_configEditor || !m_configEditor->isModified() || m_discardEdits)
        return true;
    // Unsaved edits in the config editor are not thrown away without asking.
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Unsaved configuration"),
                                tr("The configuration has edits that are not saved. Close "
                                   "Switchboard and lose them?"),
                                QMessageBox::NoButton, m_window);
    box->setObjectName(QStringLiteral("confirmCloseBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *discard = box->addButton(tr("Discard and close"), QMessageBox::DestructiveRole);
    discard->setObjectName(QStringLiteral("discardAndCloseButton"));
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(QMessageBox::Cancel);
    connect(discard, &QPushButton::clicked, this, [this, closeAgain] {
        m_discardEdits = true;
        closeAgain();
    });
    editConfiguration();
    box->open();
    return false;
}

Mcp::ReloadPlan ServerActions::applyConfig(const Mcp::McpConfig &config)
{
    const Mcp::ReloadPlan plan = m_session->apply(config);
    updateTrustBanner();
    return plan;
}

// Shows this folder's servers the user has not trusted in the banner.
void ServerActions::updateTrustBanner()
{
    m_dock->trustBanner()->setServers(m_session->untrustedServers());
}

// The user said yes in the banner: record it, then start exactly those servers.
void ServerActions::trustServers(const QStringList &names)
{
    for (const QString &error : m_session->trust(names))
        emit notice(tr("Trusted for this session only: %1").arg(error.toHtmlEscaped()), true);
    updateTrustBanner();
}

// Disable/enable in the dock lasts: "disabled" is written into the file that defines the
// server (keeping its formatting), and the session's configuration follows, so the config
// editor's Apply does not undo it.
void ServerActions::saveServerEnabled(const QString &name, bool enabled)
{
    const Mcp::ServerConfig *server = m_session->config().find(name);
    if (!server || server->sourceFile.isEmpty())
        return;
    QString error;
    if (!Mcp::ConfigPatcher::setServerDisabled(server->sourceFile, name, !enabled, &error)) {
        emit notice(tr("The server stays %1 for this session only: %2")
                            .arg(enabled ? tr("enabled") : tr("disabled"), error.toHtmlEscaped()),
                    true);
        return;
    }
    m_session->setServerDisabled(name, !enabled);
    if (m_configEditor)
        m_configEditor->setAppliedConfig(m_session->config());
}

namespace {
// The items left out (not offered, instructions off) once `item` is in or out.
QSet<QString> excludedAfter(QSet<QString> excluded, const QString &item, bool included)
{
    if (included)
        excluded.remove(item);
    else
        excluded.insert(item);
    return excluded;
}
} // namespace

void ServerActions::setInstructionsUsed(const QString &server, bool used)
{
    const QSet<QString> off = excludedAfter(m_session->instructionsOff(), server, used);
    m_session->setInstructionsOff(off);
    AppSettings::saveInstructionsOff(m_files.settingsFile, off);
}

// Which tools the model is offered (the dock's Tools boxes, the tool browser's checks): kept
// in the settings file, applied to the registry.
void ServerActions::setServerOffered(const QString &server, bool offered)
{
    saveOffering(excludedAfter(m_session->registry()->notOfferedSources(), server, offered),
                 m_session->registry()->notOfferedTools());
}

void ServerActions::setToolOffered(const QString &tool, bool offered)
{
    saveOffering(m_session->registry()->notOfferedSources(),
                 excludedAfter(m_session->registry()->notOfferedTools(), tool, offered));
}

void ServerActions::saveOffering(const QSet<QString> &servers, const QSet<QString> &tools)
{
    m_session->registry()->setNotOffered(servers, tools);
    if (!AppSettings::saveOffering(m_files.settingsFile, {servers, tools}))
        emit notice(tr("Could not save the choice of tools in %1.")
                            .arg(QDir::toNativeSeparators(m_files.settingsFile).toHtmlEscaped()),
                    true);
}

void ServerActions::setToolSearchThreshold(int threshold)
{
    m_toolSearchThreshold = threshold;
    updateToolWarning();
}

void ServerActions::updateToolWarning()
{
    const int offered = int(m_session->registry()->offeredTools().size());
    // Above the search threshold the model is given a few tools and searches for the rest.
    const bool allSent = m_toolSearchThreshold == 0 || offered - 1 <= m_toolSearchThreshold;
    m_toolWarning->setVisible(allSent && offered > OfferedToolsLimit);
    if (allSent && offered > OfferedToolsLimit)
        m_toolWarning->setText(
                tr("%n tools are offered to the model: more than %1, the most OpenAI-compatible "
                   "APIs accept, and every description costs context. Uncheck servers in the "
                   "Servers dock (Tools column) or tools in the tool browser, or let the model "
                   "search for tools (Settings).",
                   nullptr, offered)
                        .arg(OfferedToolsLimit));
}

} // namespace Gui
