// Streams 2,000 tokens at 200 tokens/s from a scripted model (the tests' fake
// OpenAI-compatible server on 127.0.0.1) into the real main window, and measures how long
// the event loop stalls: a 2 ms timer records the gaps between its ticks. Prints
//   tokens=2000 seconds=S max_stall_ms=M p99_stall_ms=P
// A benchmark, not a test: run it with `build/bench/guistream/bench_guistream` (offscreen or
// under xvfb-run). Issue 4's target: max stall under 50 ms.
#include "../../tests/fakellmserver.h"
#include "../lib/stallsampler.h"

#include <ui/chatview.h>
#include <ui/mainwindow.h>

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QPlainTextEdit>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    constexpr int Tokens = 2000;
    constexpr int TokenIntervalMs = 5; // 200 tokens/s

    FakeLlmServer model(FakeLlmServer::Dialect::OpenAi);
    if (!model.listen()) {
        std::fprintf(stderr, "bench_guistream: cannot listen on 127.0.0.1\n");
        return 2;
    }
    FakeLlmServer::Reply reply;
    for (int i = 0; i < Tokens; ++i) {
        const std::string token = (i % 12 == 11) ? "\\n\\n" : (i % 5 == 0 ? "**word** " : "word ");
        reply.events << QByteArray::fromStdString(R"({"choices":[{"index":0,"delta":{"content":")"
                                                  + token + R"("}}]})");
    }
    reply.events << QByteArray(R"({"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]})")
                 << QByteArray("[DONE]");
    reply.delayBetweenEventsMs = TokenIntervalMs;
    model.enqueue(reply);

    QTemporaryDir workspace, data;
    qputenv("OPENAI_BASE_URL", model.baseUrl().toUtf8());
    qunsetenv("OPENAI_API_KEY");
    qunsetenv("ANTHROPIC_API_KEY");
    Gui::MainWindowOptions options;
    options.workspace = QDir(workspace.path()).canonicalPath();
    options.conversationFolder = data.path();
    Gui::MainWindow window(options);
    window.show();

    Bench::StallSampler sampler;
    QElapsedTimer clock;

    QObject::connect(window.agent(), &Engine::Agent::turnFinished, &app, [&] {
        sampler.stop();
        const double seconds = clock.nsecsElapsed() / 1e9;
        std::printf("tokens=%d seconds=%.2f max_stall_ms=%lld p99_stall_ms=%lld\n", Tokens, seconds,
                    sampler.stallMs(), sampler.stallMs(99));
        QApplication::quit();
    });
    QTimer::singleShot(100, &window, [&] {
        auto *composer = window.findChild<QPlainTextEdit *>(QStringLiteral("composer"));
        composer->setPlainText(QStringLiteral("stream"));
        clock.start();
        sampler.start();
        window.submit();
    });
    QTimer::singleShot(60000, &app, [] {
        std::fprintf(stderr, "bench_guistream: no answer within 60 s\n");
        QApplication::exit(1);
    });
    return app.exec();
}
