#include "uiapprovalgate.h"

#include "approvaldialog.h"

#include <QWidget>

namespace Gui {

using Engine::ApprovalChoice;
using Engine::ApprovalDecision;

UiApprovalGate::UiApprovalGate(QWidget *window, QObject *parent)
    : QObject(parent)
    , m_window(window)
    , m_hadWindow(window != nullptr)
{
}

UiApprovalGate::~UiApprovalGate()
{
    if (m_dialog) {
        // Its own "no" would reach a half-destroyed gate; the gate answers instead.
        disconnect(m_dialog, nullptr, this, nullptr);
        delete m_dialog.data();
    }
    denyAll(tr("the window closed"));
}

int UiApprovalGate::pendingCount() const
{
    return int(m_queue.size()) + (m_current ? 1 : 0);
}

ApprovalDialog *UiApprovalGate::currentDialog() const
{
    return m_dialog;
}

void UiApprovalGate::requestApproval(const Engine::ApprovalRequest &request, Decide decide)
{
    if (!decide)
        return;
    m_queue.push_back({request, std::move(decide)});
    updateQueuePosition();
    emit pendingChanged(pendingCount());
    scheduleNext();
}

void UiApprovalGate::updateQueuePosition()
{
    if (m_dialog)
        m_dialog->setQueuePosition(1, pendingCount());
}

void UiApprovalGate::withdraw(quint64 requestId)
{
    for (auto it = m_queue.begin(); it != m_queue.end(); ++it) {
        if (it->request.requestId != requestId)
            continue;
        Decide decide = std::move(it->decide);
        m_queue.erase(it);
        QPointer<UiApprovalGate> self(this);
        decide({ApprovalChoice::Deny, tr("the turn was stopped"), {}});
        if (!self)
            return;
        updateQueuePosition();
        emit pendingChanged(pendingCount());
        return;
    }
    if (!m_current || m_currentId != requestId)
        return;
    if (m_dialog) {
        // The gate answers for it: the dialog's own "no" must not reach onDecided.
        disconnect(m_dialog, nullptr, this, nullptr);
        m_dialog->close();
        m_dialog->deleteLater();
        m_dialog = nullptr;
    }
    Decide decide = std::move(m_current);
    m_current = nullptr;
    QPointer<UiApprovalGate> self(this);
    decide({ApprovalChoice::Deny, tr("the turn was stopped"), {}});
    if (!self)
        return;
    emit pendingChanged(pendingCount());
    scheduleNext();
}

void UiApprovalGate::scheduleNext()
{
    if (m_showScheduled || m_current || m_queue.empty())
        return;
    m_showScheduled = true;
    // Queued, so that neither requestApproval() nor a finishing dialog's signal opens the
    // next dialog on its own call stack.
    QMetaObject::invokeMethod(this, &UiApprovalGate::showNext, Qt::QueuedConnection);
}

void UiApprovalGate::showNext()
{
    m_showScheduled = false;
    if (m_current || m_queue.empty())
        return;
    if (m_hadWindow && !m_window) {
        QPointer<UiApprovalGate> self(this);
        denyAll(tr("the window closed"));
        if (self)
            emit pendingChanged(pendingCount());
        return;
    }
    Pending next = std::move(m_queue.front());
    m_queue.pop_front();
    m_current = std::move(next.decide);
    m_currentId = next.request.requestId;

    auto dialog = new ApprovalDialog(std::move(next.request), m_window);
    m_dialog = dialog;
    connect(dialog, &ApprovalDialog::decided, this, &UiApprovalGate::onDecided);
    connect(dialog, &QDialog::finished, dialog, &QObject::deleteLater);
    updateQueuePosition();
    dialog->open();
}

void UiApprovalGate::onDecided(const ApprovalDecision &decision)
{
    Decide decide = std::move(m_current);
    m_current = nullptr;
    m_dialog = nullptr;
    // The engine may react by asking again, or even by destroying this gate.
    QPointer<UiApprovalGate> self(this);
    if (decide)
        decide(decision);
    if (!self)
        return;
    emit pendingChanged(pendingCount());
    scheduleNext();
}

void UiApprovalGate::denyAll(const QString &reason)
{
    Decide current = std::move(m_current);
    m_current = nullptr;
    if (current)
        current({ApprovalChoice::Deny, reason, {}});
    // A callback may queue another request meanwhile; it is denied too.
    while (!m_queue.empty()) {
        Pending next = std::move(m_queue.front());
        m_queue.pop_front();
        next.decide({ApprovalChoice::Deny, reason, {}});
    }
}

} // namespace Gui
