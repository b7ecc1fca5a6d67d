#include "terminalgate.h"
#include "terminaltext.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QSocketNotifier>

#include <cstdio>
#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

using namespace Engine;

namespace Cli {

namespace {
// The prompt quotes the tool's and server's names and the model's arguments: TerminalText
// keeps their control characters from drawing a different question.
void say(const QString &text)
{
    TerminalText::write(stderr, text);
    std::fflush(stderr);
}
} // namespace

TerminalApprovalGate::TerminalApprovalGate(Mode mode, QObject *parent)
    : QObject(parent)
    , m_mode(mode)
{
}

void TerminalApprovalGate::requestApproval(const ApprovalRequest &request,
                                           std::function<void(ApprovalDecision)> decide)
{
    if (m_mode != Mode::Ask) {
        ApprovalDecision decision;
        decision.choice = m_mode == Mode::Yes ? ApprovalChoice::AllowOnce : ApprovalChoice::Deny;
        if (m_mode == Mode::Deny) {
            ++m_denials;
            decision.reason = tr("switchboard-cli runs with --approve deny");
            if (request.reason.isEmpty())
                say(tr("denied: %1 (%2 risk)\n").arg(request.toolName, riskName(request.risk)));
            else
                say(tr("denied: %1 (%2)\n").arg(request.toolName, request.reason));
        }
        decide(decision);
        return;
    }
    m_queue.push_back({request, std::move(decide), QString(), nullptr});
    if (!m_asking)
        askNext();
}

void TerminalApprovalGate::askNext()
{
    if (m_queue.empty()) {
        m_asking = false;
        return;
    }
    m_asking = true;
    if (m_queue.front().line) {
        say(m_queue.front().prompt);
        listen();
        return;
    }
    const ApprovalRequest &r = m_queue.front().request;
    QString hints;
    if (r.hints.is_object() && !r.hints.empty())
        hints = tr("  server's hints (untrusted): %1\n")
                        .arg(QString::fromStdString(
                                r.hints.dump(-1, ' ', false, Json::error_handler_t::replace)));
    QString why;
    if (!r.reason.isEmpty())
        why = tr("  why it asks: %1\n").arg(r.reason);
    // A call asked about for its own reason (a sensitive file) can only be allowed once.
    QString choices;
    if (!r.reason.isEmpty())
        choices = tr("[y] once  [n] deny (n: reason) > ");
    else if (r.command.isEmpty())
        choices = tr("[y] once  [c] for this conversation  [a] always  [n] deny (n: reason) > ");
    else if (r.suggestedPattern == r.command) // deletes, rewrites or runs code: exactly this
        choices = tr("[y] this command once  [c] exactly this command in this conversation  "
                     "[a] always  [n] deny (n: reason) > ");
    else
        choices = tr("[y] this command once  [c] commands matching %1 in this conversation  "
                     "[a] always  [n] deny (n: reason) > ")
                          .arg(r.suggestedPattern);
    say(tr("\nAllow %1 (%2 risk, from %3)?\n  arguments: %4\n%5%6%7")
                .arg(r.toolName, riskName(r.risk), r.builtin ? tr("built-in") : r.source,
                     QString::fromStdString(
                             r.arguments.dump(2, ' ', false, Json::error_handler_t::replace)),
                     hints, why, choices));
    listen();
}

// Reads the answer to the question on screen: from stdin as it is typed, or a line typed ahead.
void TerminalApprovalGate::listen()
{
#ifdef Q_OS_UNIX
    if (!m_notifier) {
        m_notifier = new QSocketNotifier(STDIN_FILENO, QSocketNotifier::Read, this);
        connect(m_notifier, &QSocketNotifier::activated, this, &TerminalApprovalGate::onInput);
    }
    m_notifier->setEnabled(true);
    if (m_input.contains('\n'))
        QMetaObject::invokeMethod(this, &TerminalApprovalGate::processInput, Qt::QueuedConnection);
#else
    if (m_queue.front().line)
        answerLine(std::nullopt);
    else
        answer({ApprovalChoice::Deny, tr("no terminal to ask on")});
#endif
}

void TerminalApprovalGate::onInput()
{
#ifdef Q_OS_UNIX
    char buffer[1024];
    const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
    if (n <= 0) { // end of input: nobody can answer any more
        m_notifier->setEnabled(false);
        m_ended = true;
        while (!m_queue.empty()) {
            if (m_queue.front().line)
                answerLine(std::nullopt);
            else
                answer({ApprovalChoice::Deny, tr("no answer (end of input)")});
        }
        return;
    }
    m_input.append(buffer, n);
    processInput();
#endif
}

// One typed line for the question on screen; lines typed ahead wait for theirs (askNext
// comes back here when one is waiting).
void TerminalApprovalGate::processInput()
{
#ifdef Q_OS_UNIX
    const qsizetype newline = m_input.indexOf('\n');
    if (newline < 0 || m_queue.empty() || !m_asking)
        return;
    const QString line = QString::fromUtf8(m_input.left(newline)).trimmed();
    m_input.remove(0, newline + 1);
    if (m_queue.empty()) // the question was withdrawn while the answer was typed
        return;
    if (m_queue.front().line) {
        answerLine(line);
        return;
    }
    const QString key = line.left(1).toLower();
    const ApprovalRequest &asked = m_queue.front().request;
    const bool scoped = asked.reason.isEmpty();
    if (key == QLatin1String("y"))
        answer({ApprovalChoice::AllowOnce, {}, {}});
    else if (key == QLatin1String("c") && scoped)
        answer({ApprovalChoice::AllowForConversation, {}, asked.suggestedPattern});
    else if (key == QLatin1String("a") && scoped)
        answer({ApprovalChoice::AlwaysAllow, {}, asked.suggestedPattern});
    else if (key == QLatin1String("n"))
        answer({ApprovalChoice::Deny,
                line.mid(1).remove(QRegularExpression(QStringLiteral("^[:\\s]+")))});
    else
        say(scoped ? tr("Please answer y, c, a or n > ") : tr("Please answer y or n > "));
#endif
}

void TerminalApprovalGate::withdraw(quint64 requestId)
{
    for (auto it = m_queue.begin(); it != m_queue.end(); ++it) {
        if (it->line || it->request.requestId != requestId)
            continue;
        const bool onScreen = it == m_queue.begin() && m_asking;
        Question question = std::move(*it);
        m_queue.erase(it);
        question.decide({ApprovalChoice::Deny, tr("the turn was stopped"), {}});
        if (onScreen) {
            say(tr("(withdrawn: the turn was stopped)\n"));
            if (m_notifier)
                m_notifier->setEnabled(false);
            askNext();
        }
        return;
    }
}

void TerminalApprovalGate::askLine(const QString &prompt,
                                   std::function<void(std::optional<QString>)> answer)
{
    if (!hasTerminal() || m_ended) {
        answer(std::nullopt);
        return;
    }
    Question question;
    question.prompt = prompt;
    question.line = std::move(answer);
    m_queue.push_back(std::move(question));
    if (!m_asking)
        askNext();
}

bool TerminalApprovalGate::hasTerminal()
{
#ifdef Q_OS_UNIX
    return ::isatty(STDIN_FILENO) == 1;
#else
    return false;
#endif
}

void TerminalApprovalGate::answerLine(std::optional<QString> line)
{
    if (m_queue.empty() || !m_queue.front().line)
        return;
    Question question = std::move(m_queue.front());
    m_queue.pop_front();
    if (m_notifier)
        m_notifier->setEnabled(false);
    question.line(std::move(line));
    askNext();
}

void TerminalApprovalGate::answer(ApprovalDecision decision)
{
    if (m_queue.empty())
        return;
    Question question = std::move(m_queue.front());
    m_queue.pop_front();
    if (decision.choice == ApprovalChoice::Deny)
        ++m_denials;
    if (m_notifier)
        m_notifier->setEnabled(false);
    question.decide(decision);
    askNext();
}

} // namespace Cli
