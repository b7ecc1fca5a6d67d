#pragma once

#include <engine/approval/approval.h>

#include <QDialog>

class QFormLayout;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace Gui {

// Asks the user whether one tool call may run: shows who asks (server and tool), how risky
// the configuration says it is, what the server claims about it (untrusted), and the exact
// arguments, then offers the four choices of the approval design. For bash, the wider
// choices cover a command pattern the dialog shows and lets the user edit ("npm test*"); a
// call asked about for a reason of its own (a sensitive file) says why and can only be allowed
// once. Everything a server or the
// model wrote is shown as plain text, never as rich text, so it cannot dress itself up.
// Deny is the default button and what Escape or closing the window means: a stray Enter must
// never run a dangerous tool. Emits decided() exactly once. Created by UiApprovalGate, shown
// with open(); parented to the main window.
class ApprovalDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ApprovalDialog(Engine::ApprovalRequest request, QWidget *parent = nullptr);
    ~ApprovalDialog() override;

    const Engine::ApprovalRequest &request() const { return m_request; }

    // Where this question stands among those waiting ("1 of 3"); hidden when it is alone.
    void setQueuePosition(int position, int total);

    // Arguments longer than this (in characters of pretty-printed JSON) are cut in the view,
    // with a note: a multi-megabyte argument would freeze the text view, and no one reads it.
    static constexpr int MaxArgumentChars = 1 << 20;

    // The human-readable summary of the server's annotations ("read-only, idempotent"), or an
    // empty string when there are none. Exposed for tests.
    static QString describeHints(const Engine::Json &hints);

public slots:
    void done(int result) override;

signals:
    void decided(const Engine::ApprovalDecision &decision);

private:
    QFormLayout *setUpFacts(bool builtin, bool scoped);
    void setUpArgumentsView();
    QHBoxLayout *setUpPatternRow(QLabel *&exactLabel);
    QHBoxLayout *setUpButtons(bool scoped);
    void choose(Engine::ApprovalChoice choice);
    void emitOnce(const Engine::ApprovalDecision &decision);

    Engine::ApprovalRequest m_request;
    Engine::ApprovalChoice m_choice = Engine::ApprovalChoice::Deny;
    bool m_emitted = false;

    QLabel *m_queueLabel = nullptr;
    QLabel *m_riskLabel = nullptr;
    QLineEdit *m_patternEdit = nullptr; // command tools: what a wider grant covers
    QPlainTextEdit *m_argumentsView = nullptr;
    QLineEdit *m_reasonEdit = nullptr;
    QPushButton *m_allowOnceButton = nullptr;
    QPushButton *m_allowConversationButton = nullptr;
    QPushButton *m_alwaysAllowButton = nullptr;
    QPushButton *m_denyButton = nullptr;
};

} // namespace Gui
