#pragma once

#include <engine/approval/approval.h>

#include <QObject>
#include <QPointer>

#include <deque>

class QWidget;

namespace Gui {

class ApprovalDialog;

// The desktop's ApprovalGate: turns each request into an ApprovalDialog over the main window.
// The tool calls of one model turn run concurrently, so requests queue up and are shown one
// at a time, in the order they came. A dialog is never opened inside requestApproval(): the
// caller is protocol or engine code, and UI runs later from the event loop. Each `decide` is
// called exactly once; requests still waiting when the gate dies are denied, and a withdrawn
// request (its turn was stopped) is denied and its dialog closed. The dialog on screen says
// how many wait behind it. Owned by the main
// window (or whoever owns the ToolRunner that uses it, which must not outlive it).
class UiApprovalGate : public QObject, public Engine::ApprovalGate
{
    Q_OBJECT
public:
    // `window` parents the dialogs; if it is given and later destroyed, what is pending is
    // denied instead of popping up parentless dialogs.
    explicit UiApprovalGate(QWidget *window, QObject *parent = nullptr);
    ~UiApprovalGate() override;

    void requestApproval(const Engine::ApprovalRequest &request,
                         std::function<void(Engine::ApprovalDecision)> decide) override;

    // Drops a request whose turn was stopped: removed from the queue, or its dialog closed;
    // its decide gets a Deny once (never a second time).
    void withdraw(quint64 requestId) override;

    // Requests not yet decided: the one on screen plus those queued behind it.
    int pendingCount() const;
    // The dialog on screen, or nullptr.
    ApprovalDialog *currentDialog() const;

signals:
    void pendingChanged(int count);

private:
    using Decide = std::function<void(Engine::ApprovalDecision)>;
    struct Pending
    {
        Engine::ApprovalRequest request;
        Decide decide;
    };

    void scheduleNext();
    void showNext();
    void onDecided(const Engine::ApprovalDecision &decision);
    void denyAll(const QString &reason);
    void updateQueuePosition();

    QPointer<QWidget> m_window;
    bool m_hadWindow = false;
    std::deque<Pending> m_queue;
    QPointer<ApprovalDialog> m_dialog;
    Decide m_current; // the decide of the request on screen
    quint64 m_currentId = 0;
    bool m_showScheduled = false;
};

} // namespace Gui
