// The conversation benchmarks (issue 9, deliverables 4 and 2), each an alternated pair of
// window launches (`switchboard --report-startup`, wall clock from QProcess::start() to the
// line it prints after the first paint, and the peak RSS it reports):
//
//   list:  50 saved conversations of 1 MB each in this workspace (B) against none (A): what
//          the conversation list adds to the first paint. Target: Bench::median(B) -
//          Bench::median(A) < 50 ms.
//   open:  `--conversation ID` of a 1,000-message conversation (B) against a 2-message one (A).
//          Targets: B's median under 1 s, and B's peak RSS under A's + 60 MB.
//
//   xvfb-run -a build/bench/conversations/bench_conversations [RUNS] [list|open]
//
// A warm-up pair runs first (page cache, font cache, and the conversation index the window
// writes on its first run, as it would on a user's machine).

#include "../lib/windowlaunch.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QUuid>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

struct Launch
{
    double ms = -1;
    double peakMb = -1;
};

QString conversationFolder(const QString &home)
{
    return home + QStringLiteral("/switchboard/conversations");
}

// Writes a conversation in the store's format (Engine::ConversationStore): a header line,
// then one line per message. The messages alternate user / assistant; the assistant's carry
// Markdown with a code block, as real answers do.
QString writeConversation(const QString &folder, const QString &workspace, int messages,
                          int bytesPerMessage)
{
    const QString id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    QFile file(folder + u'/' + id + QStringLiteral(".jsonl"));
    if (!file.open(QIODevice::WriteOnly))
        return QString();
    // One JSON object per line, as the store writes them.
    const auto line = [](const QJsonObject &object) {
        return QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n';
    };
    QByteArray data = line({{QStringLiteral("type"), QStringLiteral("conversation")},
                            {QStringLiteral("version"), 1},
                            {QStringLiteral("id"), id},
                            {QStringLiteral("title"), QStringLiteral("Benchmark ") + id.left(8)},
                            {QStringLiteral("created"), QStringLiteral("2026-12-01T10:00:00.000Z")},
                            {QStringLiteral("workspace"), workspace}});
    const QString paragraph = QStringLiteral(
            "The **parser** reads one line at a time and hands each `record` to the store; "
            "see the loop below.\n\n```cpp\nfor (const auto &line : lines)\n    "
            "store.append(parse(line));\n```\n\n");
    for (int i = 0; i < messages; ++i) {
        const bool user = i % 2 == 0;
        QString text = user ? QStringLiteral("Question %1: how does the parser work?").arg(i)
                            : QString();
        while (!user && text.size() < bytesPerMessage)
            text += paragraph;
        data += line({{QStringLiteral("type"), QStringLiteral("message")},
                      {QStringLiteral("time"), QStringLiteral("2026-12-01T10:00:00.000Z")},
                      {QStringLiteral("message"),
                       QJsonObject{{QStringLiteral("role"),
                                    user ? QStringLiteral("user") : QStringLiteral("assistant")},
                                   {QStringLiteral("text"), text}}}});
    }
    return file.write(data) == data.size() ? id : QString();
}

Launch launchOnce(const QString &workspace, const QString &home, const QString &conversation)
{
    QStringList args{QStringLiteral("--workspace"), workspace, QStringLiteral("--report-startup")};
    if (!conversation.isEmpty())
        args << QStringLiteral("--conversation") << conversation;
    const Bench::WindowRun run
            = Bench::runWindow(QStringLiteral(SWITCHBOARD_GUI), args, home, "shown", "peak RSS");
    Launch launch;
    launch.ms = run.ms;
    const QRegularExpressionMatch match = QRegularExpression(QStringLiteral("peak RSS (\\d+) kB"))
                                                  .match(QString::fromLatin1(run.output));
    if (match.hasMatch())
        launch.peakMb = match.captured(1).toDouble() / 1024;
    return launch;
}

struct Side
{
    QString home;
    QString conversation; // --conversation, or none
    std::vector<double> ms;
    std::vector<double> peakMb;
};

bool runPairs(int runs, const QString &workspace, Side &a, Side &b, const char *nameA,
              const char *nameB)
{
    launchOnce(workspace, a.home, a.conversation); // warm-up pair, not counted
    launchOnce(workspace, b.home, b.conversation);
    for (int i = 0; i < runs; ++i) {
        // AB on even runs, BA on odd ones: slow drift hits both sides alike.
        Launch la, lb;
        if (i % 2 == 0) {
            la = launchOnce(workspace, a.home, a.conversation);
            lb = launchOnce(workspace, b.home, b.conversation);
        } else {
            lb = launchOnce(workspace, b.home, b.conversation);
            la = launchOnce(workspace, a.home, a.conversation);
        }
        if (la.ms < 0 || lb.ms < 0) {
            std::fprintf(stderr, "bench_conversations: run %d: no paint reported\n", i + 1);
            return false;
        }
        a.ms.push_back(la.ms);
        b.ms.push_back(lb.ms);
        a.peakMb.push_back(la.peakMb);
        b.peakMb.push_back(lb.peakMb);
        std::printf("run %2d  %s %7.1f ms %6.1f MB   %s %7.1f ms %6.1f MB\n", i + 1, nameA, la.ms,
                    la.peakMb, nameB, lb.ms, lb.peakMb);
        std::fflush(stdout);
    }
    return true;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const int runs = argc > 1 ? std::max(1, QString::fromLocal8Bit(argv[1]).toInt()) : 11;
    const QString only = argc > 2 ? QString::fromLocal8Bit(argv[2]) : QString();
    QTemporaryDir workspace;
    {
        QFile config(QDir(workspace.path()).filePath(QStringLiteral(".mcp.json")));
        if (!config.open(QIODevice::WriteOnly) || config.write("{\"mcpServers\": {}}\n") < 0)
            return 1;
    }
    bool ok = true;

    if (only.isEmpty() || only == QLatin1String("list")) {
        QTemporaryDir none, many;
        QDir().mkpath(conversationFolder(none.path()));
        QDir().mkpath(conversationFolder(many.path()));
        for (int i = 0; i < 50; ++i) {
            // 50 messages of about 20 kB: 1 MB each.
            if (writeConversation(conversationFolder(many.path()), workspace.path(), 50, 20000)
                        .isEmpty())
                return 1;
        }
        Side a{none.path(), QString(), {}, {}};
        Side b{many.path(), QString(), {}, {}};
        std::printf("list: first paint with no saved conversation (A) and with 50 x 1 MB (B)\n");
        ok = runPairs(runs, workspace.path(), a, b, "none", "50x1MB") && ok;
        const double added = Bench::median(b.ms) - Bench::median(a.ms);
        std::printf("list: median none %.1f ms, 50x1MB %.1f ms: +%.1f ms; target < +50 ms: %s\n",
                    Bench::median(a.ms), Bench::median(b.ms), added,
                    added < 50 ? "met" : "NOT met");
    }

    if (only.isEmpty() || only == QLatin1String("open")) {
        QTemporaryDir home;
        QDir().mkpath(conversationFolder(home.path()));
        const QString shortOne
                = writeConversation(conversationFolder(home.path()), workspace.path(), 2, 400);
        const QString longOne
                = writeConversation(conversationFolder(home.path()), workspace.path(), 1000, 400);
        if (shortOne.isEmpty() || longOne.isEmpty())
            return 1;
        Side a{home.path(), shortOne, {}, {}};
        Side b{home.path(), longOne, {}, {}};
        std::printf("open: --conversation with 2 messages (A) and with 1,000 messages (B)\n");
        ok = runPairs(runs, workspace.path(), a, b, "2 msgs", "1000 msgs") && ok;
        const double moreMb = Bench::median(b.peakMb) - Bench::median(a.peakMb);
        std::printf("open: median 2 msgs %.1f ms %.1f MB, 1000 msgs %.1f ms %.1f MB (+%.1f MB); "
                    "targets < 1000 ms: %s, < +60 MB: %s\n",
                    Bench::median(a.ms), Bench::median(a.peakMb), Bench::median(b.ms),
                    Bench::median(b.peakMb), moreMb, Bench::median(b.ms) < 1000 ? "met" : "NOT met",
                    moreMb < 60 ? "met" : "NOT met");
    }
    return ok ? 0 : 1;
}
