#include "approvaldialog.h"

#include "diffview.h"
#include "palettecolors.h"
#include "plainlabel.h"
#include "risk.h"

#include <mcp/config/config.h>

#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace Gui {

using Engine::ApprovalChoice;
using Engine::ApprovalDecision;
using Engine::Json;

namespace {

// nlohmann throws on invalid UTF-8 unless told otherwise; a server's bytes must not crash the
// dialog, so bad sequences become U+FFFD.
QString dumpJson(const Json &value, int indent)
{
    return QString::fromStdString(value.dump(indent, ' ', false, Json::error_handler_t::replace));
}

} // namespace

ApprovalDialog::ApprovalDialog(Engine::ApprovalRequest request, QWidget *parent)
    : QDialog(parent)
    , m_request(std::move(request))
{
    setWindowTitle(tr("Allow tool call?"));
    setModal(true);

    // The engine's flag, not the name: a server may call itself "builtin".
    const bool builtin = m_request.builtin;
    const bool scoped = m_request.reason.isEmpty();

    m_queueLabel = plainLabel(QString(), this);
    m_queueLabel->setObjectName(QStringLiteral("queueLabel"));
    m_queueLabel->hide();

    QFormLayout *form = setUpFacts(builtin, scoped);

    setUpArgumentsView();
    auto argumentsLabel = new QLabel(tr("Ar&guments:"), this);
    argumentsLabel->setBuddy(m_argumentsView);

    m_reasonEdit = new QLineEdit(this);
    m_reasonEdit->setObjectName(QStringLiteral("reasonEdit"));
    m_reasonEdit->setPlaceholderText(tr("Optional; told to the model when you deny"));
    auto reasonLabel = new QLabel(tr("&Reason for denying:"), this);
    reasonLabel->setBuddy(m_reasonEdit);
    QLabel *exactLabel = nullptr;
    QHBoxLayout *patternRow
            = !m_request.command.isEmpty() && scoped ? setUpPatternRow(exactLabel) : nullptr;

    auto reasonRow = new QHBoxLayout;
    reasonRow->addWidget(reasonLabel);
    reasonRow->addWidget(m_reasonEdit, 1);

    QHBoxLayout *buttons = setUpButtons(scoped);
    // A run from the tool browser has no conversation, and no model to tell a reason to.
    const bool conversation = !m_request.conversationId.isEmpty();
    reasonLabel->setVisible(conversation);
    m_reasonEdit->setVisible(conversation);

    auto layout = new QVBoxLayout(this);
    layout->addWidget(m_queueLabel);
    layout->addLayout(form);
    QWidget *firstView = m_argumentsView;
    if (m_request.change) {
        // What will change comes first; the arguments as the model wrote them are a tab away.
        auto heading = plainLabel(DiffView::heading(*m_request.change), this);
        heading->setObjectName(QStringLiteral("changeHeading"));
        auto tabs = new QTabWidget(this);
        tabs->setObjectName(QStringLiteral("changeTabs"));
        tabs->setDocumentMode(true);
        auto diff = new DiffView(*m_request.change, tabs);
        tabs->addTab(diff, tr("&Changes"));
        tabs->addTab(m_argumentsView, tr("Ar&guments"));
        argumentsLabel->hide();
        layout->addWidget(heading);
        layout->addWidget(tabs, 1);
        firstView = tabs;
        resize(720, 560);
    } else {
        layout->addWidget(argumentsLabel);
        layout->addWidget(m_argumentsView, 1);
    }
    if (patternRow)
        layout->addLayout(patternRow);
    if (exactLabel)
        layout->addWidget(exactLabel);
    layout->addLayout(reasonRow);
    layout->addLayout(buttons);

    // Reading order: look at the arguments, optionally type a reason, then choose.
    if (m_patternEdit) {
        setTabOrder(firstView, m_patternEdit);
        setTabOrder(m_patternEdit, m_reasonEdit);
    } else {
        setTabOrder(firstView, m_reasonEdit);
    }
    setTabOrder(m_reasonEdit, m_allowOnceButton);
    setTabOrder(m_allowOnceButton, m_allowConversationButton);
    setTabOrder(m_allowConversationButton, m_alwaysAllowButton);
    setTabOrder(m_alwaysAllowButton, m_denyButton);
    m_denyButton->setFocus();

    if (!m_request.change)
        resize(560, 420);
}

// Where the call comes from, what it is, its risk, what the server claims and why it asks.
QFormLayout *ApprovalDialog::setUpFacts(bool builtin, bool scoped)
{
    auto form = new QFormLayout;
    form->addRow(tr("Source:"), plainLabel(builtin ? tr("built-in tool")
                                                   : tr("server \"%1\"").arg(m_request.source),
                                           this));
    if (m_request.origin == Engine::CallOrigin::App) {
        // The person clicked something in the server's own view, or the view acts on its own:
        // either way the model did not ask, and the dialog must not let it look as if it did.
        auto asker = plainLabel(
                tr("the interactive view of server \"%1\" (not the model)").arg(m_request.source),
                this);
        asker->setObjectName(QStringLiteral("askedByLabel"));
        QFont font = asker->font();
        font.setBold(true);
        asker->setFont(font);
        form->addRow(tr("Asked by:"), asker);
    }
    const bool sameName
            = m_request.originalName.isEmpty() || m_request.originalName == m_request.toolName;
    form->addRow(tr("Tool:"),
                 plainLabel(sameName ? m_request.toolName
                                     : tr("%1 (\"%2\" on the server)")
                                               .arg(m_request.toolName, m_request.originalName),
                            this));

    m_riskLabel = plainLabel(riskText(m_request.risk), this);
    m_riskLabel->setObjectName(QStringLiteral("riskLabel"));
    if (m_request.risk == Engine::Risk::Dangerous) {
        // Palette and font rather than a style sheet, so the look survives any app style.
        QPalette palette = m_riskLabel->palette();
        palette.setColor(QPalette::WindowText, errorColor(palette));
        m_riskLabel->setPalette(palette);
        QFont font = m_riskLabel->font();
        font.setBold(true);
        m_riskLabel->setFont(font);
    }
    form->addRow(tr("Risk:"), m_riskLabel);

    // The risk above comes from the user's configuration; what the server says about its own
    // tool lowers nothing, and the wording has to make that plain. A built-in tool has no
    // server to claim anything.
    if (!builtin) {
        const QString hints = describeHints(m_request.hints);
        auto hintsLabel
                = plainLabel(hints.isEmpty() ? tr("The server gives no hints about this tool.")
                                             : tr("The server says: %1 (not verified)").arg(hints),
                             this);
        hintsLabel->setObjectName(QStringLiteral("hintsLabel"));
        hintsLabel->setToolTip(tr("Untrusted: a server can claim anything about its own tools."));
        form->addRow(tr("Untrusted hints:"), hintsLabel);
    }
    if (!scoped) {
        auto why = plainLabel(m_request.reason, this);
        why->setObjectName(QStringLiteral("whyLabel"));
        QFont font = why->font();
        font.setBold(true);
        why->setFont(font);
        form->addRow(tr("Why it asks:"), why);
    }
    return form;
}

// The arguments as indented JSON, wrapped, selectable, cut at MaxArgumentChars.
void ApprovalDialog::setUpArgumentsView()
{
    m_argumentsView = new QPlainTextEdit(this);
    m_argumentsView->setObjectName(QStringLiteral("argumentsView"));
    m_argumentsView->setReadOnly(true);
    // Read-only views keep keyboard selection so the arguments can be copied, but Tab must
    // move on to the buttons.
    m_argumentsView->setTextInteractionFlags(Qt::TextSelectableByMouse
                                             | Qt::TextSelectableByKeyboard);
    m_argumentsView->setTabChangesFocus(true);
    // Wrapped, so that the end of a long command line is never off-screen.
    m_argumentsView->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_argumentsView->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    m_argumentsView->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    QString arguments = dumpJson(m_request.arguments, 2);
    if (arguments.size() > MaxArgumentChars) {
        const qsizetype cut = arguments.size() - MaxArgumentChars;
        arguments.truncate(MaxArgumentChars);
        arguments += QLatin1Char('\n') + tr("… (%n more characters not shown)", nullptr, int(cut));
    }
    m_argumentsView->setPlainText(arguments);
}

// A command tool's pattern: what "Allow for this conversation" and "Always allow" cover.
// `exactLabel` is set when only the exact command can be remembered (and says why).
QHBoxLayout *ApprovalDialog::setUpPatternRow(QLabel *&exactLabel)
{
    m_patternEdit = new QLineEdit(m_request.suggestedPattern, this);
    m_patternEdit->setObjectName(QStringLiteral("patternEdit"));
    m_patternEdit->setToolTip(
            tr("\"Allow for this conversation\" and \"Always allow\" cover the commands "
               "whose first words are the words before the * (\"npm test*\" covers \"npm "
               "test --watch\", never \"npm tests\"). A command with ; & | < > ( ) is only "
               "covered when it is exactly this text, and one with $, backticks or "
               "wildcards never. Without a *, only this exact command."));
    const Engine::CommandPattern::Assessment assessment
            = Engine::CommandPattern::assess(m_request.command);
    if (assessment.reach == Engine::CommandPattern::Reach::Exact) {
        // Deletes, rewrites or runs code: never a wider grant than the command itself.
        m_patternEdit->setText(m_request.command);
        m_patternEdit->setReadOnly(true);
        exactLabel = plainLabel(
                tr("Only this exact command can be remembered: %1").arg(assessment.why), this);
        exactLabel->setObjectName(QStringLiteral("exactLabel"));
    }
    // An exact command has no wider choice: the field says what "always" will remember.
    auto patternLabel
            = new QLabel(exactLabel ? tr("Remem&bered as:") : tr("Wider choices co&ver:"), this);
    patternLabel->setBuddy(m_patternEdit);
    auto *patternRow = new QHBoxLayout;
    patternRow->addWidget(patternLabel);
    patternRow->addWidget(m_patternEdit, 1);
    return patternRow;
}

// Allow once, for this conversation, always; Deny, the default.
QHBoxLayout *ApprovalDialog::setUpButtons(bool scoped)
{
    auto makeButton = [this](const QString &text, const char *name) {
        auto button = new QPushButton(text, this);
        button->setObjectName(QLatin1String(name));
        // An allow button with focus must not take Enter: only Space or its accelerator
        // presses it, and Enter always falls through to the default button (Deny).
        button->setAutoDefault(false);
        return button;
    };
    m_allowOnceButton = makeButton(tr("&Allow once"), "allowOnceButton");
    m_allowConversationButton
            = makeButton(tr("Allow for this &conversation"), "allowConversationButton");
    m_allowConversationButton->setToolTip(
            m_patternEdit ? tr("Allow the commands the pattern covers without asking again "
                               "until the conversation ends.")
                          : tr("Allow this tool without asking again until the conversation "
                               "ends."));
    m_alwaysAllowButton = makeButton(tr("Al&ways allow"), "alwaysAllowButton");
    m_alwaysAllowButton->setToolTip(
            tr("Remember it for this workspace in your own data folder (never in the "
               "workspace's files)."));
    // A sensitive file is allowed one call at a time: a grant would cover the next unasked.
    // A run from the tool browser has no conversation to allow it for.
    m_allowConversationButton->setVisible(scoped && !m_request.conversationId.isEmpty());
    m_alwaysAllowButton->setVisible(scoped);
    m_denyButton = new QPushButton(tr("&Deny"), this);
    m_denyButton->setObjectName(QStringLiteral("denyButton"));
    m_denyButton->setDefault(true);

    connect(m_allowOnceButton, &QPushButton::clicked, this,
            [this] { choose(ApprovalChoice::AllowOnce); });
    connect(m_allowConversationButton, &QPushButton::clicked, this,
            [this] { choose(ApprovalChoice::AllowForConversation); });
    connect(m_alwaysAllowButton, &QPushButton::clicked, this,
            [this] { choose(ApprovalChoice::AlwaysAllow); });
    connect(m_denyButton, &QPushButton::clicked, this, &QDialog::reject);

    auto buttons = new QHBoxLayout;
    buttons->addWidget(m_allowOnceButton);
    buttons->addWidget(m_allowConversationButton);
    buttons->addWidget(m_alwaysAllowButton);
    buttons->addStretch(1);
    buttons->addWidget(m_denyButton);
    return buttons;
}

ApprovalDialog::~ApprovalDialog()
{
    // Destroyed without an answer (its window went away): that is a no, and whoever waits
    // must still hear it.
    emitOnce({ApprovalChoice::Deny, tr("the window closed"), {}});
}

void ApprovalDialog::setQueuePosition(int position, int total)
{
    m_queueLabel->setText(tr("Question %1 of %2").arg(position).arg(total));
    m_queueLabel->setVisible(total > 1);
}

void ApprovalDialog::choose(ApprovalChoice choice)
{
    m_choice = choice;
    accept();
}

void ApprovalDialog::done(int result)
{
    // Every way out ends here: the buttons, Escape (reject), the window manager's close
    // (closeEvent → reject). Anything but an explicit allow is a deny.
    if (result == QDialog::Accepted && m_choice != ApprovalChoice::Deny) {
        ApprovalDecision decision{m_choice, {}, {}};
        // An emptied pattern means the exact command (the engine's rule), never all of bash.
        if (m_patternEdit && m_choice != ApprovalChoice::AllowOnce)
            decision.commandPattern = m_patternEdit->text().trimmed();
        emitOnce(decision);
    } else {
        emitOnce({ApprovalChoice::Deny, m_reasonEdit->text().trimmed(), {}});
    }
    QDialog::done(result);
}

void ApprovalDialog::emitOnce(const ApprovalDecision &decision)
{
    if (m_emitted)
        return;
    m_emitted = true;
    emit decided(decision);
}

QString ApprovalDialog::describeHints(const Json &hints)
{
    if (hints.is_null() || (hints.is_object() && hints.empty()))
        return {};
    if (!hints.is_object())
        return dumpJson(hints, -1);

    QStringList parts;
    auto flag = [&](const char *key, const QString &yes, const QString &no) {
        const auto it = hints.find(key);
        if (it != hints.end() && it->is_boolean())
            parts << (it->get<bool>() ? yes : no);
    };
    // MCP ToolAnnotations (2025-06-18 and later).
    flag("readOnlyHint", tr("read-only"), tr("may change things"));
    flag("destructiveHint", tr("destructive"), tr("not destructive"));
    flag("idempotentHint", tr("idempotent"), tr("not idempotent"));
    flag("openWorldHint", tr("reaches outside systems"), tr("closed world"));
    static const char *const known[]
            = {"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint", "title"};
    for (auto it = hints.begin(); it != hints.end(); ++it) {
        const bool isKnown = std::any_of(std::begin(known), std::end(known),
                                         [&](const char *k) { return it.key() == k; });
        // A known key with an odd type is shown raw, like an unknown key.
        const bool shown = isKnown && it.key() != "title" && it->is_boolean();
        if (it.key() == "title" && it->is_string())
            parts.prepend(tr("title \"%1\"").arg(QString::fromStdString(it->get<std::string>())));
        else if (!shown)
            parts << QStringLiteral("%1: %2").arg(QString::fromStdString(it.key()),
                                                  dumpJson(*it, -1));
    }
    return parts.join(QStringLiteral(", "));
}

} // namespace Gui
