#include "commandpattern.h"

#include "shellwords.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QSet>
#include <QStringList>

#include <algorithm>
#include <optional>

namespace Engine::CommandPattern {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Engine::CommandPattern)
};

using Words = QStringList;

QSet<QString> setOf(std::initializer_list<const char *> names)
{
    QSet<QString> set;
    for (const char *name : names)
        set.insert(QLatin1String(name));
    return set;
}

bool isOption(const QString &word)
{
    return word.size() > 1 && word.startsWith(QLatin1Char('-'));
}

bool anyOf(const Words &words, qsizetype from, const QSet<QString> &set)
{
    for (qsizetype i = from; i < words.size(); ++i) {
        if (set.contains(words.at(i)))
            return true;
    }
    return false;
}

bool anyOption(const Words &words, qsizetype from)
{
    return std::any_of(words.begin() + std::min(from, words.size()), words.end(), isOption);
}

// An option cluster or long option that asks for recursion: -R, -Rf, --recursive.
bool recursive(const Words &words)
{
    for (qsizetype i = 1; i < words.size(); ++i) {
        const QString &word = words.at(i);
        if (word == QLatin1String("--recursive")
            || (word.startsWith(QLatin1Char('-')) && !word.startsWith(QLatin1String("--"))
                && word.contains(QLatin1Char('R'))))
            return true;
    }
    return false;
}

// The git subcommand and where it is, past git's own options; a `-c` (a config value, which
// can name a program to run) makes the whole command exact-only.
std::optional<QString> gitExactReason(const Words &words)
{
    qsizetype at = 1;
    while (at < words.size() && isOption(words.at(at))) {
        const QString &option = words.at(at);
        if (option == QLatin1String("-c") || option.startsWith(QLatin1String("--config-env"))
            || option.startsWith(QLatin1String("--exec-path")))
            return Tr::tr("git %1 sets configuration that can run other programs").arg(option);
        // Options that take a value as the next word.
        if (option == QLatin1String("-C") || option == QLatin1String("--git-dir")
            || option == QLatin1String("--work-tree") || option == QLatin1String("--namespace"))
            ++at;
        ++at;
    }
    if (at >= words.size())
        return std::nullopt;
    const QString sub = words.at(at);
    const auto destroys = [&] {
        return Tr::tr("git %1 can discard work or rewrite history").arg(sub);
    };
    static const QSet<QString> alwaysExact = setOf(
            {"clean", "rebase", "filter-branch", "filter-repo", "reflog", "update-ref", "config",
             "rm", "gc", "prune", "replace", "submodule", "worktree", "am", "apply"});
    if (alwaysExact.contains(sub))
        return destroys();
    if (sub == QLatin1String("push")) {
        for (qsizetype i = at + 1; i < words.size(); ++i) {
            const QString &word = words.at(i);
            if (word.startsWith(QLatin1String("--force")) || word == QLatin1String("-f")
                || word == QLatin1String("--delete") || word == QLatin1String("-d")
                || word == QLatin1String("--mirror") || word == QLatin1String("--prune")
                || word.startsWith(QLatin1Char('+')) || word.startsWith(QLatin1Char(':'))
                || (isOption(word) && !word.startsWith(QLatin1String("--"))
                    && (word.contains(QLatin1Char('f')) || word.contains(QLatin1Char('d')))))
                return destroys();
        }
        return std::nullopt;
    }
    if (sub == QLatin1String("reset")
        && anyOf(words, at + 1, setOf({"--hard", "--merge", "--keep"})))
        return destroys();
    if ((sub == QLatin1String("checkout") || sub == QLatin1String("restore")
         || sub == QLatin1String("switch"))
        && anyOf(words, at + 1,
                 setOf({".", "--", "-f", "--force", "--discard-changes", "--worktree", "-W"})))
        return destroys();
    if (sub == QLatin1String("branch")
        && anyOf(words, at + 1, setOf({"-D", "-d", "--delete", "-f", "--force", "-M", "-m"})))
        return destroys();
    if (sub == QLatin1String("stash") && anyOf(words, at + 1, setOf({"drop", "clear", "pop"})))
        return destroys();
    if (sub == QLatin1String("tag") && anyOf(words, at + 1, setOf({"-d", "--delete", "-f"})))
        return destroys();
    return std::nullopt;
}

// Why a command is only granted as exactly that text (std::nullopt: a prefix may cover it).
// Judged by its program (the first word, without its folder) and what its arguments ask for.
std::optional<QString> exactReason(const Words &words)
{
    static const QRegularExpression assignment(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*="));
    if (assignment.match(words.first()).hasMatch())
        return Tr::tr("it sets environment variables for the command it runs");

    const QString program = words.first().section(QLatin1Char('/'), -1);
    static const QSet<QString> privileged = setOf({"sudo", "su", "doas", "pkexec", "runuser"});
    if (privileged.contains(program))
        return Tr::tr("%1 runs a command with other privileges").arg(program);

    static const QSet<QString> wrappers
            = setOf({"env",     "xargs",   "nice",    "nohup",    "timeout",  "time",    "exec",
                     "eval",    "command", "builtin", "stdbuf",   "chroot",   "unshare", "nsenter",
                     "setsid",  "watch",   "flock",   "strace",   "ltrace",   "gdb",     "valgrind",
                     "taskset", "ionice",  "script",  "ssh",      "parallel", "npx",     "bunx",
                     "uvx",     "busybox", "sg",      "firejail", "source",   "."});
    if (wrappers.contains(program))
        return Tr::tr("%1 runs another command or file named in its arguments").arg(program);

    static const QSet<QString> destructive = setOf(
            {"rm",     "shred",    "dd",       "mke2fs",   "mkswap",  "wipefs", "fdisk",   "sfdisk",
             "gdisk",  "parted",   "truncate", "unlink",   "srm",     "kill",   "killall", "pkill",
             "reboot", "shutdown", "halt",     "poweroff", "crontab", "mv"});
    if (destructive.contains(program) || program.startsWith(QLatin1String("mkfs")))
        return Tr::tr("%1 can delete or overwrite data").arg(program);

    static const QSet<QString> inlineCode
            = setOf({"awk", "gawk", "mawk", "nawk", "sed", "jshell", "expect"});
    if (inlineCode.contains(program))
        return Tr::tr("%1 runs a program written in its arguments").arg(program);

    static const QSet<QString> interpreters
            = setOf({"sh",    "bash",      "dash", "zsh",        "ksh",     "mksh", "fish",
                     "csh",   "tcsh",      "node", "nodejs",     "deno",    "bun",  "perl",
                     "ruby",  "php",       "lua",  "luajit",     "Rscript", "R",    "julia",
                     "tclsh", "osascript", "pwsh", "powershell", "java",    "irb",  "ipython"});
    static const QRegularExpression python(QStringLiteral("^python[0-9.]*$"));
    if ((interpreters.contains(program) || python.match(program).hasMatch())
        && (words.size() == 1 || anyOption(words, 1)))
        return Tr::tr("%1 with options can run code given on its command line (-c, -e, -m)")
                .arg(program);

    if ((program == QLatin1String("chmod") || program == QLatin1String("chown")
         || program == QLatin1String("chgrp"))
        && recursive(words))
        return Tr::tr("%1 -R changes a whole tree").arg(program);

    if (program == QLatin1String("find")
        && anyOf(words, 1,
                 setOf({"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0",
                        "-fprintf", "-fls"})))
        return Tr::tr("find with -exec or -delete runs commands or deletes files");

    if (program == QLatin1String("git"))
        return gitExactReason(words);

    static const QSet<QString> network = setOf({"curl", "wget", "nc", "ncat", "netcat", "socat",
                                                "scp", "sftp", "rsync", "ftp", "telnet"});
    if (network.contains(program))
        return Tr::tr("%1 reaches the network with arguments that decide what it sends or "
                      "writes")
                .arg(program);

    // Package managers install (and run the install scripts of) whatever package is named.
    static const QSet<QString> packageTools
            = setOf({"npm", "pnpm", "yarn", "bun", "pip", "pip3", "pipx", "gem", "cargo", "go",
                     "apt", "apt-get", "dnf", "yum", "brew", "uv", "poetry", "composer"});
    static const QSet<QString> installs
            = setOf({"install", "i", "add", "update", "upgrade", "uninstall", "remove", "rm",
                     "publish", "exec", "x", "dlx", "get", "run-script", "unpublish"});
    if (packageTools.contains(program) && words.size() > 1 && installs.contains(words.at(1)))
        return Tr::tr("%1 %2 installs, removes or runs the packages named in its arguments")
                .arg(program, words.at(1));

    static const QSet<QString> containers = setOf({"docker", "podman", "kubectl"});
    static const QSet<QString> containerActions
            = setOf({"run", "exec", "rm", "rmi", "delete", "apply", "cp", "system"});
    if (containers.contains(program) && words.size() > 1 && containerActions.contains(words.at(1)))
        return Tr::tr("%1 %2 runs or removes what its arguments name").arg(program, words.at(1));
    return std::nullopt;
}

// A word as bash reads it back: quoted when it holds anything but plain characters.
QString quoted(const QString &word)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_@%+=:,./-]+$"));
    if (plain.match(word).hasMatch())
        return word;
    QString text = word;
    text.replace(QLatin1Char('\''), QLatin1String("'\\''"));
    return QLatin1Char('\'') + text + QLatin1Char('\'');
}

// Subcommands whose next word names what runs ("npm run build"): a grant for the
// subcommand alone would cover every script of the project.
bool namesWhatRuns(const Words &words)
{
    if (words.size() < 3)
        return false;
    static const QSet<QString> runners
            = setOf({"npm", "pnpm", "yarn", "bun", "cargo", "uv", "poetry", "pipenv", "deno",
                     "make", "just", "task", "rake", "gradle", "mvn", "go"});
    return runners.contains(words.first().section(QLatin1Char('/'), -1))
           && words.at(1) == QLatin1String("run");
}

} // namespace

Assessment assess(const QString &command)
{
    const ShellWords::Split split = ShellWords::split(command);
    switch (split.kind) {
    case ShellWords::Split::Kind::Expansion:
        return {Reach::Never,
                Tr::tr("the command contains %1, which bash expands only when it runs, so it is "
                       "asked every time")
                        .arg(split.found)};
    case ShellWords::Split::Kind::Operators:
        return {Reach::Exact, Tr::tr("the command contains %1").arg(split.found)};
    case ShellWords::Split::Kind::Words:
        break;
    }
    if (split.words.isEmpty())
        return {Reach::Never, Tr::tr("the command is empty")};
    if (const std::optional<QString> why = exactReason(split.words))
        return {Reach::Exact, *why};
    return {Reach::Prefix, {}};
}

QString suggest(const QString &command)
{
    const Assessment assessment = assess(command);
    if (assessment.reach == Reach::Never)
        return {};
    if (assessment.reach == Reach::Exact)
        return command;
    const Words words = ShellWords::split(command).words;
    const qsizetype count = namesWhatRuns(words) ? 3 : 2;
    QStringList head;
    for (const QString &word : words.mid(0, count))
        head << quoted(word);
    return head.join(QLatin1Char(' ')) + QLatin1Char('*');
}

bool matches(const QString &pattern, const QString &command)
{
    const Assessment assessment = assess(command);
    if (assessment.reach == Reach::Never)
        return false;
    if (pattern == command)
        return true;
    if (assessment.reach == Reach::Exact || !pattern.endsWith(QLatin1Char('*')))
        return false;
    const ShellWords::Split prefix = ShellWords::split(pattern.chopped(1));
    if (prefix.kind != ShellWords::Split::Kind::Words || prefix.words.isEmpty())
        return false;
    const Words words = ShellWords::split(command).words;
    return words.size() >= prefix.words.size()
           && std::equal(prefix.words.begin(), prefix.words.end(), words.begin());
}

} // namespace Engine::CommandPattern
