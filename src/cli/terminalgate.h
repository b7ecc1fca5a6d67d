#pragma once

#include <engine/approval.h>

#include <QObject>

#include <deque>

class QSocketNotifier;

// Approvals for switchboard-cli: a fixed answer (`--approve yes|deny`) or a question on the
// terminal (`ask`): one at a time, in order, the answer read from stdin without blocking the
// event loop. Owned by the CLI for the length of a run.
class TerminalApprovalGate : public QObject, public Engine::ApprovalGate
{
    Q_OBJECT
public:
    enum class Mode { Ask, Deny, Yes };
    explicit TerminalApprovalGate(Mode mode, QObject *parent = nullptr);

    void requestApproval(const Engine::ApprovalRequest &request,
                         std::function<void(Engine::ApprovalDecision)> decide) override;
    void withdraw(quint64 requestId) override;
    int denials() const { return m_denials; }

private:
    void askNext();
    void onInput();
    void answer(Engine::ApprovalDecision decision);

    Mode m_mode;
    int m_denials = 0;
    struct Question
    {
        Engine::ApprovalRequest request;
        std::function<void(Engine::ApprovalDecision)> decide;
    };
    std::deque<Question> m_queue;
    bool m_asking = false;
    QByteArray m_input;
    QSocketNotifier *m_notifier = nullptr;
};
