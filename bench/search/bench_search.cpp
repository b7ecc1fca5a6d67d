// The search benchmark (issue 34, deliverable 2): 1,000 saved conversations of 100 messages
// each (user questions of ~80 characters, answers of ~600 with a code block; "Needle-N" said
// once, in conversation N's 50th message), in a folder of their own.
//
//   store, in the window's process (Engine::ConversationStore::search, what the conversation
//   list calls on each keystroke), medians over RUNS:
//     first search with no index (every file read, search.idx written after)
//     first search of a new store (index.json and search.idx read)
//     a search for a rare word, a missing one, and one in every conversation
//   find (ChatView::findAll, Ctrl+F), in a conversation of 100 and of 1,000 messages.
//   Target for each: under 200 ms.
//
//   cli vs grep, whole processes alternated (A B, B A, …): `switchboard-cli conversations
//   --all --search Needle-250` against `grep -rilF Needle-250 FOLDER` (the floor: no index,
//   every file read). Prints both medians and the median of the per-pair ratios A/B.
//
//   QT_QPA_PLATFORM=offscreen build/bench/search/bench_search [RUNS]

#include <engine/storage/conversationstore.h>
#include <ui/chatview.h>

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QUuid>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

namespace {

using Engine::ChatMessage;

constexpr int Conversations = 1000;
constexpr int Messages = 100;

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? -1 : values[values.size() / 2];
}

double timed(const std::function<void()> &work)
{
    QElapsedTimer timer;
    timer.start();
    work();
    return double(timer.nsecsElapsed()) / 1e6;
}

std::vector<ChatMessage> conversation(int number, int messages)
{
    std::vector<ChatMessage> result;
    for (int i = 0; i < messages; ++i) {
        ChatMessage message;
        if (i % 2 == 0) {
            message.role = ChatMessage::Role::User;
            message.text = QStringLiteral("Question %1 of conversation %2: how do I read the "
                                          "config file and report its errors?")
                                   .arg(i)
                                   .arg(number);
        } else {
            message.role = ChatMessage::Role::Assistant;
            message.text
                    = QStringLiteral("Read it with the loader, then check each server in turn. "
                                     "The parser reports the line and column of the first "
                                     "problem; the rest follow once it is fixed.\n\n"
                                     "```cpp\nconst auto config = ConfigLoader::load(path);\n"
                                     "for (const auto &error : config.errors)\n"
                                     "    report(error.line, error.column, error.message);\n"
                                     "```\n\nAnswer %1 in conversation %2; the tables and the "
                                     "lists come after. It says what changed and why, and "
                                     "which test shows it.")
                              .arg(i)
                              .arg(number);
        }
        if (i == 50)
            message.text += QStringLiteral(" Needle-%1 is the word to find.").arg(number);
        result.push_back(message);
    }
    return result;
}

// A conversation file as the store writes it.
void writeConversation(const QString &folder, int number)
{
    const QString id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    QFile file(folder + u'/' + id + QStringLiteral(".jsonl"));
    if (!file.open(QIODevice::WriteOnly))
        return;
    const auto line = [&file](const nlohmann::json &json) {
        file.write(QByteArray::fromStdString(json.dump()) + '\n');
    };
    line({{"type", "conversation"},
          {"version", 1},
          {"id", id.toStdString()},
          {"title", QStringLiteral("Conversation %1").arg(number).toStdString()},
          {"created", "2026-12-07T10:00:00.000Z"},
          {"workspace", "/tmp/bench-workspace"}});
    for (const ChatMessage &message : conversation(number, Messages))
        line({{"type", "message"},
              {"time", "2026-12-07T10:00:00.000Z"},
              {"message", message.toJson()}});
}

double runProcess(const QString &program, const QStringList &arguments,
                  const QProcessEnvironment &environment, const QString &expect)
{
    QProcess process;
    process.setProcessEnvironment(environment);
    QElapsedTimer timer;
    timer.start();
    process.start(program, arguments);
    process.waitForFinished(120000);
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    if (!QString::fromUtf8(process.readAllStandardOutput()).contains(expect)) {
        std::fprintf(stderr, "%s did not find it\n", qPrintable(program));
        return -1;
    }
    return ms;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const int runs = argc > 1 ? std::max(1, atoi(argv[1])) : 7;
    QTemporaryDir home;
    const QString folder = home.filePath(QStringLiteral("switchboard/conversations"));
    QDir().mkpath(folder);
    for (int i = 0; i < Conversations; ++i)
        writeConversation(folder, i);
    std::printf("%d conversations of %d messages\n", Conversations, Messages);

    const auto hits = [&](Engine::ConversationStore &store, const QString &text) {
        return store.search(text, INT_MAX).size();
    };
    {
        Engine::ConversationStore store(folder);
        qsizetype found = 0;
        const double ms = timed([&] { found = hits(store, QStringLiteral("Needle-250")); });
        std::printf("store: first search, no index (every file read): %.1f ms, %lld hit\n", ms,
                    (long long)found);
        store.flush();
        std::printf("store: search.idx %.1f MB (the conversations' files: %.1f MB)\n",
                    double(QFileInfo(store.searchIndexPath()).size()) / 1e6, [&] {
                        qint64 total = 0;
                        for (const QFileInfo &file :
                             QDir(folder).entryInfoList({QStringLiteral("*.jsonl")}))
                            total += file.size();
                        return double(total) / 1e6;
                    }());
    }
    std::vector<double> start, rare, missing, common;
    qsizetype commonHits = 0;
    for (int run = 0; run < runs; ++run) {
        Engine::ConversationStore store(folder);
        start.push_back(timed([&] { hits(store, QStringLiteral("Needle-250")); }));
        rare.push_back(timed([&] { hits(store, QStringLiteral("needle-777")); }));
        missing.push_back(timed([&] { hits(store, QStringLiteral("kiwi-none")); }));
        common.push_back(timed([&] { commonHits = hits(store, QStringLiteral("PARSER")); }));
    }
    std::printf("store: first search of a new store (index read): median %.1f ms\n", median(start));
    std::printf("store: a rare word: median %.1f ms; a missing one: %.1f ms; in every "
                "conversation (%lld hits): %.1f ms\n",
                median(rare), median(missing), (long long)commonHits, median(common));

    Gui::ChatView view;
    view.resize(900, 700);
    view.show();
    for (int messages : {100, 1000}) {
        view.showConversation(conversation(250, messages));
        QCoreApplication::processEvents();
        std::vector<double> find, next;
        int count = 0;
        for (int run = 0; run < runs; ++run) {
            find.push_back(timed([&] { count = view.findAll(QStringLiteral("config")); }));
            next.push_back(timed([&] { view.findNext(); }));
        }
        std::printf("find: %d messages, \"config\" (%d matches): findAll median %.1f ms, next "
                    "%.1f ms\n",
                    messages, count, median(find), median(next));
    }

    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("XDG_DATA_HOME"), home.path());
    std::vector<double> cli, grep, ratios;
    for (int pair = 0; pair <= runs; ++pair) {
        double a = 0, b = 0;
        const auto runA = [&] {
            a = runProcess(QStringLiteral(SWITCHBOARD_CLI),
                           {QStringLiteral("conversations"), QStringLiteral("--all"),
                            QStringLiteral("--search"), QStringLiteral("Needle-250")},
                           environment, QStringLiteral("Conversation 250"));
        };
        const auto runB = [&] {
            b = runProcess(QStringLiteral("grep"),
                           {QStringLiteral("-rilF"), QStringLiteral("Needle-250"), folder},
                           environment, QStringLiteral(".jsonl"));
        };
        if (pair % 2 == 0) {
            runA();
            runB();
        } else {
            runB();
            runA();
        }
        if (pair == 0 || a < 0 || b < 0)
            continue; // the warm-up pair
        cli.push_back(a);
        grep.push_back(b);
        ratios.push_back(a / b);
    }
    std::printf("cli vs grep: switchboard-cli conversations --search median %.1f ms, grep -rilF "
                "median %.1f ms, A/B median %.2f (%zu pairs)\n",
                median(cli), median(grep), median(ratios), ratios.size());
    return 0;
}
