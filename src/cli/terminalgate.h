#pragma once

#include <engine/approval/approval.h>

#include <QObject>

#include <deque>
#include <optional>

class QSocketNotifier;

namespace Cli {

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

    // A line of text from the person at the terminal, asked in turn with the approvals (one
    // question on screen at a time, whatever asks): `answer` gets the line without its
    // newline, or nullopt at the end of input or without a terminal.
    void askLine(const QString &prompt, std::function<void(std::optional<QString>)> answer);
    static bool hasTerminal();

private:
    void askNext();
    void onInput();
    void processInput();
    void listen();
    void answer(Engine::ApprovalDecision decision);
    void answerLine(std::optional<QString> line);

    Mode m_mode;
    int m_denials = 0;
    struct Question
    {
        Engine::ApprovalRequest request;
        std::function<void(Engine::ApprovalDecision)> decide;
        QString prompt; // a line question (askLine) when `line` is set
        std::function<void(std::optional<QString>)> line;
    };
    std::deque<Question> m_queue;
    bool m_asking = false;
    bool m_ended = false; // stdin reached its end: nothing more can be asked
    QByteArray m_input;
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace Cli
