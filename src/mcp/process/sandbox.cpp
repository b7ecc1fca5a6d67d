#include "sandbox.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QPointer>
#include <QProcess>
#include <QStandardPaths>
#include <QTimer>

#include <vector>

namespace Mcp {

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(Mcp::Sandbox)
};

// bwrap makes its namespaces in milliseconds; ten seconds means it hangs (a stuck mount).
constexpr int ProbeTimeoutMs = 10000;

struct ProbeWaiter
{
    QPointer<QObject> context;
    bool hasContext = false;
    std::function<void(bool, const QString &)> done;

    void call(bool works, const QString &reason) const
    {
        if (!hasContext || context)
            done(works, reason);
    }
};

struct ProbeState
{
    bool finished = false;
    bool works = false;
    QString reason;
    std::vector<ProbeWaiter> waiting;
};

// Per bwrap program, for the life of the application: whether bwrap works does not change
// while we run (installing it later needs a restart to be noticed).
QHash<QString, ProbeState> &probes()
{
    static QHash<QString, ProbeState> states;
    return states;
}

void finishProbe(const QString &program, bool works, const QString &reason)
{
    ProbeState &state = probes()[program];
    state.finished = true;
    state.works = works;
    state.reason = reason;
    const std::vector<ProbeWaiter> waiting = std::exchange(state.waiting, {});
    for (const ProbeWaiter &waiter : waiting)
        waiter.call(works, reason);
}
} // namespace

nlohmann::json SandboxPolicy::toJson() const
{
    if (!enabled)
        return nullptr;
    if (network && write.isEmpty())
        return true;
    nlohmann::json object = nlohmann::json::object();
    if (!network)
        object["network"] = false;
    if (!write.isEmpty()) {
        object["write"] = nlohmann::json::array();
        for (const QString &path : write)
            object["write"].push_back(path.toStdString());
    }
    return object;
}

namespace Sandbox {

QStringList tmpEntriesNamed(const QStringList &texts)
{
    static const QString tmp = QStringLiteral("/tmp/");
    QStringList entries;
    const auto keep = [&entries](const QString &name) {
        if (!name.isEmpty() && name != QLatin1String(".") && name != QLatin1String(".."))
            entries << tmp + name;
    };
    // A path, exactly: everything up to the next slash is the entry's name.
    const auto keepPath = [&keep](const QString &path) {
        if (path.startsWith(tmp))
            keep(path.mid(tmp.size()).section(QLatin1Char('/'), 0, 0));
    };
    // A command line such as `cat /tmp/log/x; ls '/tmp/out'`: where "/tmp/" starts a path, the
    // name runs to a slash, a space, a quote or a shell character.
    const auto scan = [&keep](const QString &text) {
        static const QString path = QStringLiteral("._-+~@/");
        static const QString ends = QStringLiteral("/'\"`$;|&()<>,:=\\");
        for (qsizetype at = text.indexOf(tmp); at >= 0; at = text.indexOf(tmp, at + 1)) {
            if (at > 0 && (text[at - 1].isLetterOrNumber() || path.contains(text[at - 1])))
                continue; // /var/tmp/x, a/tmp/x
            qsizetype end = at + tmp.size();
            while (end < text.size() && !text[end].isSpace() && !ends.contains(text[end]))
                ++end;
            keep(text.mid(at + tmp.size(), end - at - tmp.size()));
        }
    };
    for (const QString &text : texts) {
        scan(text);
        if (text.startsWith(QLatin1Char('/'))) {
            keepPath(QDir::cleanPath(text));
            keepPath(QFileInfo(text).canonicalFilePath()); // a link to another entry of /tmp
        }
    }
    entries.sort();
    entries.removeDuplicates();
    return entries;
}

QString modeName(Mode mode)
{
    switch (mode) {
    case Mode::Off:
        return QStringLiteral("off");
    case Mode::On:
        return QStringLiteral("on");
    case Mode::Auto:
        break;
    }
    return QStringLiteral("auto");
}

std::optional<Mode> modeFromName(const QString &name)
{
    for (const Mode mode : {Mode::Off, Mode::On, Mode::Auto}) {
        if (name == modeName(mode))
            return mode;
    }
    return std::nullopt;
}

QStringList bwrapArguments(const SandboxPolicy &policy, const QString &workspace,
                           const QStringList &writable, const QString &program,
                           const QStringList &arguments, const QStringList &keptInTmp)
{
    // Later mounts go over earlier ones: the read-only root first, then the private /tmp, then
    // the writable folders (a workspace under /tmp is bound over the empty tmpfs).
    QStringList args
            = {QStringLiteral("--ro-bind"), QStringLiteral("/"),       QStringLiteral("/"),
               QStringLiteral("--dev"),     QStringLiteral("/dev"),    QStringLiteral("--proc"),
               QStringLiteral("/proc"),     QStringLiteral("--tmpfs"), QStringLiteral("/tmp")};
    // What of /tmp the command names stays visible, read-only, over the private tmpfs: a
    // program, a workspace or a build tree that lives under /tmp must not vanish (new files
    // go to the tmpfs).
    for (const QString &path : keptInTmp)
        args << QStringLiteral("--ro-bind-try") << path << path;
    for (const QString &path : QStringList{workspace} + writable)
        args << QStringLiteral("--bind") << path << path;
    // Its own PID namespace: when bwrap ends, the kernel ends everything the program started
    // (a timeout or cancel of bash kills only bwrap's process group from outside).
    args << QStringLiteral("--unshare-pid");
    if (!policy.network)
        args << QStringLiteral("--unshare-net");
    // --new-session: setsid(), so the program cannot push keystrokes into our terminal with
    // TIOCSTI. --die-with-parent: nothing outlives bwrap.
    args << QStringLiteral("--die-with-parent") << QStringLiteral("--new-session")
         << QStringLiteral("--chdir") << workspace << QStringLiteral("--") << program;
    return args + arguments;
}

std::optional<Command> wrap(const SandboxPolicy &policy, const QString &bwrapProgram,
                            const QString &workspace, const QString &program,
                            const QStringList &arguments, QProcessEnvironment *env, QString *error)
{
    const QString name
            = bwrapProgram.isEmpty() ? QString::fromLatin1(DefaultProgram) : bwrapProgram;
    const QString bwrap = name.contains(QLatin1Char('/'))
                                  ? (QFileInfo(name).isExecutable() ? name : QString())
                                  : QStandardPaths::findExecutable(name);
    if (bwrap.isEmpty()) {
        *error = Text::tr("the sandbox needs bubblewrap, but '%1' was not found; install the "
                          "bubblewrap package, or turn the sandbox off")
                         .arg(name);
        return std::nullopt;
    }
    const QDir base(workspace);
    const QString root = QFileInfo(workspace).canonicalFilePath();
    if (root.isEmpty()) {
        *error = Text::tr("the sandbox needs the workspace folder, but '%1' does not exist")
                         .arg(workspace);
        return std::nullopt;
    }
    QStringList writable;
    for (const QString &path : policy.write) {
        // Canonical, so that a link cannot make bwrap mount something else than was checked.
        const QString resolved = QFileInfo(base.absoluteFilePath(path)).canonicalFilePath();
        if (resolved.isEmpty()) {
            *error = Text::tr("sandbox.write: '%1' does not exist (resolved against %2)")
                             .arg(path, workspace);
            return std::nullopt;
        }
        writable << resolved;
    }
    if (env) // the outside TMPDIR is read-only in there; /tmp is the program's own
        env->insert(QStringLiteral("TMPDIR"), QStringLiteral("/tmp"));
    QStringList named = QStringList{root, program} + writable + arguments;
    if (env) {
        for (const QString &key : env->keys())
            named << env->value(key).split(QLatin1Char(':'), Qt::SkipEmptyParts);
    }
    return Command{bwrap, bwrapArguments(policy, root, writable, program, arguments,
                                         tmpEntriesNamed(named))};
}

void probe(const QString &bwrapProgram, QObject *context,
           std::function<void(bool, const QString &)> done)
{
    ProbeState &state = probes()[bwrapProgram];
    ProbeWaiter waiter{context, context != nullptr, std::move(done)};
    if (state.finished) {
        QTimer::singleShot(0, context ? context : QCoreApplication::instance(),
                           [waiter, works = state.works, reason = state.reason] {
                               waiter.call(works, reason);
                           });
        return;
    }
    state.waiting.push_back(std::move(waiter));
    if (state.waiting.size() > 1)
        return; // already running

    QString error;
    const QString trueProgram = QStandardPaths::findExecutable(QStringLiteral("true"));
    const auto command = wrap(SandboxPolicy{true, true, {}}, bwrapProgram, QDir::tempPath(),
                              trueProgram, {}, nullptr, &error);
    if (!command) {
        QTimer::singleShot(0, QCoreApplication::instance(),
                           [bwrapProgram, error] { finishProbe(bwrapProgram, false, error); });
        return;
    }
    auto *process = new QProcess;
    auto *timer = new QTimer(process);
    timer->setSingleShot(true);
    QObject::connect(timer, &QTimer::timeout, process, [process] { process->kill(); });
    QObject::connect(process, &QProcess::finished, process,
                     [process, bwrapProgram, timer](int exitCode, QProcess::ExitStatus status) {
                         const bool timedOut = !timer->isActive();
                         timer->stop();
                         const QStringList lines
                                 = QString::fromLocal8Bit(process->readAllStandardError())
                                           .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
                         QString reason;
                         if (timedOut)
                             reason = Text::tr("bubblewrap (bwrap) did not finish a test run "
                                               "within %1 s")
                                              .arg(ProbeTimeoutMs / 1000);
                         else if (status != QProcess::NormalExit || exitCode != 0)
                             reason = lines.isEmpty()
                                              ? Text::tr("bubblewrap (bwrap) failed a test run "
                                                         "with exit code %1")
                                                        .arg(exitCode)
                                              : failureReason(lines.last());
                         process->deleteLater();
                         finishProbe(bwrapProgram, reason.isEmpty(), reason);
                     });
    QObject::connect(process, &QProcess::errorOccurred, process,
                     [process, bwrapProgram](QProcess::ProcessError processError) {
                         if (processError != QProcess::FailedToStart)
                             return;
                         const QString reason = Text::tr("bubblewrap (bwrap) could not be "
                                                         "started: %1")
                                                        .arg(process->errorString());
                         process->deleteLater();
                         finishProbe(bwrapProgram, false, reason);
                     });
    process->setStandardInputFile(QProcess::nullDevice());
    process->setStandardOutputFile(QProcess::nullDevice());
    timer->start(ProbeTimeoutMs);
    process->start(command->program, command->arguments);
}

QString failureReason(const QString &stderrLine)
{
    static const QLatin1String prefix("bwrap:");
    if (!stderrLine.startsWith(prefix))
        return {};
    return Text::tr("bubblewrap (bwrap) could not set up the sandbox: %1; user namespaces may "
                    "be disabled here, or turn the sandbox off")
            .arg(stderrLine.mid(prefix.size()).trimmed());
}

} // namespace Sandbox

} // namespace Mcp
