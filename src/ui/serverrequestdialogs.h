#pragma once

#include <engine/serverrequests/sampling.h>
#include <mcp/wire/jsonrpc.h>

#include <QDialog>
#include <QUrl>

#include <functional>
#include <optional>
#include <vector>

class QDialogButtonBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QStackedWidget;

namespace Gui {

class SchemaForm;

// A server asking the user's model for a completion (sampling/createMessage). First the
// request — the server, its system prompt, its messages and max tokens, each editable — to
// send or deny; then, with setAnswer(), the model's answer, editable, to return or deny.
// Deny is the default button and what Escape means. Everything the server wrote is plain
// text. Emits requestDecided() once, then (when sent) answerDecided() once.
class SamplingDialog : public QDialog
{
    Q_OBJECT
public:
    SamplingDialog(const QString &server, const Engine::Sampling::Request &request,
                   QWidget *parent = nullptr);
    ~SamplingDialog() override;

    // The model's answer (or why there is none): the second step.
    void setAnswer(const QString &text);
    void setFailure(const QString &why);

public slots:
    void done(int result) override;

signals:
    void requestDecided(std::optional<Engine::Sampling::Request> request);
    void answerDecided(std::optional<QString> answer);

private:
    Engine::Sampling::Request edited() const;
    void decide(bool yes);

    Engine::Sampling::Request m_request;
    bool m_requestDecided = false;
    bool m_answerDecided = false;
    bool m_waiting = false; // sent: the model is answering
    QStackedWidget *m_pages = nullptr;
    QPlainTextEdit *m_systemEdit = nullptr;
    std::vector<QPlainTextEdit *> m_messageEdits;
    QSpinBox *m_maxTokensSpin = nullptr;
    QLabel *m_stateLabel = nullptr;
    QPlainTextEdit *m_answerEdit = nullptr;
    QPushButton *m_yesButton = nullptr;
    QPushButton *m_denyButton = nullptr;
};

// A server asking the user something (elicitation/create). Form mode: a form generated from
// the flat schema, Accept (once it is valid) / Decline / Cancel. URL mode: the full URL and
// its host, and the browser opened only on "Open"; Decline / Cancel. Escape is Cancel.
// Emits answered() exactly once with the MCP ElicitResult (or the error for a request that
// cannot be shown).
class ElicitationDialog : public QDialog
{
    Q_OBJECT
public:
    ElicitationDialog(const QString &server, const Mcp::Json &params,
                      std::function<void(const QUrl &)> openUrl, QWidget *parent = nullptr);
    ~ElicitationDialog() override;

    // Whether the request could be shown; when not, invalidResponse() is the answer.
    bool isValid() const { return m_valid; }
    const Mcp::Response &invalidResponse() const { return m_invalid; }

public slots:
    void done(int result) override;

signals:
    void answered(const Mcp::Response &response);

private:
    void answer(const Mcp::Response &response);

    bool m_valid = true;
    Mcp::Response m_invalid;
    bool m_answered = false;
    bool m_urlMode = false;
    QUrl m_url;
    std::function<void(const QUrl &)> m_openUrl;
    SchemaForm *m_form = nullptr;
    QLabel *m_errorLabel = nullptr;
    QPushButton *m_acceptButton = nullptr;
    QPushButton *m_declineButton = nullptr;
};

} // namespace Gui
