#include "serverrequestdialogs.h"

#include "palettecolors.h"
#include "plainlabel.h"
#include "schemaform.h"

#include <engine/serverrequests/elicitation.h>

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace Gui {

namespace {

QPlainTextEdit *textEdit(const QString &text, int lines, QWidget *parent)
{
    auto edit = new QPlainTextEdit(text, parent);
    edit->setTabChangesFocus(true);
    edit->setMinimumHeight(edit->fontMetrics().lineSpacing() * lines + 12);
    return edit;
}

QString roleName(Engine::ChatMessage::Role role)
{
    return role == Engine::ChatMessage::Role::Assistant ? SamplingDialog::tr("Assistant")
                                                        : SamplingDialog::tr("User");
}

} // namespace

SamplingDialog::SamplingDialog(const QString &server, const Engine::Sampling::Request &request,
                               QWidget *parent)
    : QDialog(parent)
    , m_request(request)
{
    setWindowTitle(tr("Let %1 use your model?").arg(server));
    setModal(true);
    auto layout = new QVBoxLayout(this);
    auto intro = plainLabel(tr("The MCP server \"%1\" asks your model for a completion. What it "
                               "sends is below: change it if you like, then send it to the "
                               "model or deny. You will see the answer before it goes back.")
                                    .arg(server),
                            this);
    layout->addWidget(intro);

    m_pages = new QStackedWidget(this);
    // Page 1: the request.
    auto requestPage = new QWidget(m_pages);
    auto requestLayout = new QVBoxLayout(requestPage);
    requestLayout->setContentsMargins(0, 0, 0, 0);
    auto form = new QFormLayout;
    m_systemEdit = textEdit(request.system, 2, requestPage);
    m_systemEdit->setObjectName(QStringLiteral("samplingSystemEdit"));
    m_systemEdit->setPlaceholderText(tr("(no system prompt)"));
    m_systemEdit->setMaximumHeight(m_systemEdit->fontMetrics().lineSpacing() * 5 + 12);
    form->addRow(tr("System prompt:"), m_systemEdit);
    m_maxTokensSpin = new QSpinBox(requestPage);
    m_maxTokensSpin->setObjectName(QStringLiteral("samplingMaxTokensSpin"));
    m_maxTokensSpin->setRange(1, Engine::Sampling::MaxTokens);
    m_maxTokensSpin->setValue(std::max(1, request.maxTokens));
    form->addRow(tr("Max tokens:"), m_maxTokensSpin);
    requestLayout->addLayout(form);
    requestLayout->addWidget(
            plainLabel(tr("Messages (%1):").arg(request.messages.size()), requestPage));
    auto scroll = new QScrollArea(requestPage);
    scroll->setWidgetResizable(true);
    auto messages = new QWidget(scroll);
    auto messagesLayout = new QFormLayout(messages);
    for (const Engine::ChatMessage &message : request.messages) {
        auto edit = textEdit(message.text, 3, messages);
        edit->setObjectName(QStringLiteral("samplingMessageEdit"));
        messagesLayout->addRow(roleName(message.role) + QLatin1Char(':'), edit);
        m_messageEdits.push_back(edit);
    }
    scroll->setWidget(messages);
    requestLayout->addWidget(scroll, 1);
    m_pages->addWidget(requestPage);

    // Page 2: the answer.
    auto answerPage = new QWidget(m_pages);
    auto answerLayout = new QVBoxLayout(answerPage);
    answerLayout->setContentsMargins(0, 0, 0, 0);
    m_stateLabel = plainLabel(tr("Your model is answering…"), answerPage);
    m_stateLabel->setObjectName(QStringLiteral("samplingStateLabel"));
    answerLayout->addWidget(m_stateLabel);
    m_answerEdit = textEdit(QString(), 6, answerPage);
    m_answerEdit->setObjectName(QStringLiteral("samplingAnswerEdit"));
    m_answerEdit->setEnabled(false);
    answerLayout->addWidget(m_answerEdit, 1);
    m_pages->addWidget(answerPage);
    layout->addWidget(m_pages, 1);

    auto buttons = new QDialogButtonBox(this);
    m_yesButton = buttons->addButton(tr("&Send to the model"), QDialogButtonBox::AcceptRole);
    m_yesButton->setObjectName(QStringLiteral("samplingYesButton"));
    m_denyButton = buttons->addButton(tr("&Deny"), QDialogButtonBox::RejectRole);
    m_denyButton->setObjectName(QStringLiteral("samplingDenyButton"));
    m_denyButton->setDefault(true);
    m_yesButton->setAutoDefault(false);
    connect(m_yesButton, &QPushButton::clicked, this, [this] { decide(true); });
    connect(m_denyButton, &QPushButton::clicked, this, [this] { decide(false); });
    layout->addWidget(buttons);
    resize(620, 520);
}

SamplingDialog::~SamplingDialog()
{
    // Closed without a choice (the window went away): the server hears no.
    if (!m_requestDecided) {
        m_requestDecided = true;
        emit requestDecided(std::nullopt);
    } else if (!m_answerDecided) {
        m_answerDecided = true;
        emit answerDecided(std::nullopt);
    }
}

Engine::Sampling::Request SamplingDialog::edited() const
{
    Engine::Sampling::Request request = m_request;
    request.system = m_systemEdit->toPlainText();
    request.maxTokens = m_maxTokensSpin->value();
    for (std::size_t i = 0; i < request.messages.size() && i < m_messageEdits.size(); ++i)
        request.messages[i].text = m_messageEdits[i]->toPlainText();
    return request;
}

void SamplingDialog::decide(bool yes)
{
    if (!m_requestDecided) {
        m_requestDecided = true;
        if (!yes) {
            emit requestDecided(std::nullopt);
            QDialog::done(Rejected);
            return;
        }
        m_waiting = true;
        m_pages->setCurrentIndex(1);
        m_yesButton->setText(tr("&Return to the server"));
        m_yesButton->setEnabled(false);
        emit requestDecided(edited());
        return;
    }
    if (m_answerDecided) {
        QDialog::done(Rejected);
        return;
    }
    m_answerDecided = true;
    emit answerDecided(yes ? std::optional(m_answerEdit->toPlainText()) : std::nullopt);
    QDialog::done(yes ? Accepted : Rejected);
}

void SamplingDialog::setAnswer(const QString &text)
{
    m_waiting = false;
    m_stateLabel->setText(tr("Your model's answer, which goes back to the server once you "
                             "return it (you may change it):"));
    m_answerEdit->setPlainText(text);
    m_answerEdit->setEnabled(true);
    m_yesButton->setEnabled(true);
}

void SamplingDialog::setFailure(const QString &why)
{
    m_waiting = false;
    m_stateLabel->setText(tr("Your model did not answer: %1. The server was told so.").arg(why));
    m_answerDecided = true; // nothing left to decide
    m_denyButton->setText(tr("&Close"));
}

void SamplingDialog::done(int result)
{
    // Escape or the close button: deny whichever step is on screen.
    Q_UNUSED(result)
    decide(false);
}

ElicitationDialog::ElicitationDialog(const QString &server, const Mcp::Json &params,
                                     std::function<void(const QUrl &)> openUrl, QWidget *parent)
    : QDialog(parent)
    , m_openUrl(std::move(openUrl))
{
    setModal(true);
    const QString message = Engine::Elicitation::messageOf(params);
    m_urlMode = Mcp::stringMember(params, "mode") == QLatin1String("url");
    auto layout = new QVBoxLayout(this);
    auto buttons = new QDialogButtonBox(this);
    m_errorLabel = plainLabel(QString(), this);
    m_errorLabel->setObjectName(QStringLiteral("elicitationError"));
    QPalette palette = m_errorLabel->palette();
    palette.setColor(QPalette::WindowText, errorColor(palette));
    m_errorLabel->setPalette(palette);
    m_errorLabel->hide();

    if (const std::string oversize = Engine::Elicitation::oversize(params); !oversize.empty()) {
        m_valid = false;
        m_answered = true;
        m_invalid = Mcp::Response::failure(Mcp::ErrorCode::InvalidParams, oversize);
        return;
    }
    if (m_urlMode) {
        setWindowTitle(tr("Open a page for %1?").arg(server));
        m_url = QUrl(Mcp::stringMember(params, "url"), QUrl::StrictMode);
        const QString scheme = m_url.scheme().toLower();
        if (!m_url.isValid()
            || (scheme != QLatin1String("https") && scheme != QLatin1String("http"))
            || m_url.host().isEmpty()) {
            m_valid = false;
            m_answered = true;
            m_invalid = Mcp::Response::failure(Mcp::ErrorCode::InvalidParams,
                                               "the elicitation URL is not an http(s) URL");
            return;
        }
        layout->addWidget(plainLabel(
                tr("The MCP server \"%1\" asks you to open this page in your browser:").arg(server),
                this));
        layout->addWidget(plainLabel(message, this));
        auto url = plainLabel(m_url.toString(QUrl::FullyEncoded), this);
        url->setObjectName(QStringLiteral("elicitationUrl"));
        url->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        layout->addWidget(url);
        auto host = plainLabel(tr("It goes to %1. Open it only if you expect to sign in or confirm "
                                  "something there.")
                                       .arg(m_url.host(QUrl::FullyEncoded)),
                               this);
        host->setObjectName(QStringLiteral("elicitationHost"));
        QFont bold = host->font();
        bold.setBold(true);
        host->setFont(bold);
        layout->addWidget(host);
        m_acceptButton
                = buttons->addButton(tr("&Open in the browser"), QDialogButtonBox::AcceptRole);
    } else {
        setWindowTitle(tr("%1 asks you").arg(server));
        const Mcp::Json schema
                = params.is_object() ? params.value("requestedSchema", Mcp::Json()) : Mcp::Json();
        if (!schema.is_object()) {
            m_valid = false;
            m_answered = true;
            m_invalid = Mcp::Response::failure(Mcp::ErrorCode::InvalidParams,
                                               "the elicitation has no requestedSchema");
            return;
        }
        layout->addWidget(plainLabel(tr("The MCP server \"%1\" asks:").arg(server), this));
        auto text = plainLabel(message, this);
        text->setObjectName(QStringLiteral("elicitationMessage"));
        layout->addWidget(text);
        m_form = new SchemaForm(schema, this);
        m_form->setObjectName(QStringLiteral("elicitationForm"));
        layout->addWidget(m_form, 1);
        layout->addWidget(plainLabel(tr("What you accept is sent to the server."), this));
        m_acceptButton = buttons->addButton(tr("&Accept"), QDialogButtonBox::AcceptRole);
    }
    layout->addWidget(m_errorLabel);
    m_acceptButton->setObjectName(QStringLiteral("elicitationAcceptButton"));
    m_acceptButton->setAutoDefault(false);
    m_declineButton = buttons->addButton(tr("D&ecline"), QDialogButtonBox::RejectRole);
    m_declineButton->setObjectName(QStringLiteral("elicitationDeclineButton"));
    m_declineButton->setDefault(true);
    auto cancel = buttons->addButton(tr("&Cancel"), QDialogButtonBox::RejectRole);
    cancel->setObjectName(QStringLiteral("elicitationCancelButton"));
    layout->addWidget(buttons);

    connect(m_acceptButton, &QPushButton::clicked, this, [this] {
        if (m_urlMode) {
            if (m_openUrl)
                m_openUrl(m_url);
            answer(Mcp::Response::success({{"action", "accept"}}));
            return;
        }
        QString error;
        const Mcp::Json values = m_form->values(&error);
        if (values.is_null()) {
            m_errorLabel->setText(error);
            m_errorLabel->show();
            return;
        }
        answer(Mcp::Response::success({{"action", "accept"}, {"content", values}}));
    });
    connect(m_declineButton, &QPushButton::clicked, this, [this] {
        answer(Mcp::Response::success({{"action", "decline"}}));
    });
    connect(cancel, &QPushButton::clicked, this, [this] {
        answer(Mcp::Response::success({{"action", "cancel"}}));
    });
    resize(520, m_urlMode ? 240 : 420);
}

ElicitationDialog::~ElicitationDialog()
{
    if (!m_answered) {
        m_answered = true;
        emit answered(Mcp::Response::success({{"action", "cancel"}}));
    }
}

void ElicitationDialog::answer(const Mcp::Response &response)
{
    if (m_answered)
        return;
    m_answered = true;
    emit answered(response);
    QDialog::done(response.ok() && response.result.value("action", "") == "accept" ? Accepted
                                                                                   : Rejected);
}

void ElicitationDialog::done(int result)
{
    // Escape or the close button: cancel.
    Q_UNUSED(result)
    answer(Mcp::Response::success({{"action", "cancel"}}));
    QDialog::done(Rejected);
}

} // namespace Gui
