// What QNetworkAccessManager alone can do: initialize, then N tools/call POSTed one after the
// other to a Streamable HTTP server answering application/json (the shared echo server's
// --http mode), each answer read whole when its reply finishes. No MCP client, no JSON
// parsing, no SSE: the ceiling HttpTransport works under on this machine.
//   bench_qnamfloor --http URL [--calls N]
// Prints `calls=N seconds=S calls_per_s=R`, as raw-http.mjs does.
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QUrl>

#include <cstdio>
#include <functional>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QUrl url;
    int calls = 3000;
    const QStringList args = app.arguments();
    for (qsizetype i = 1; i + 1 < args.size(); i += 2) {
        if (args[i] == QLatin1String("--http"))
            url = QUrl(args[i + 1]);
        else if (args[i] == QLatin1String("--calls"))
            calls = args[i + 1].toInt();
    }
    if (!url.isValid() || calls <= 0) {
        std::fprintf(stderr, "usage: bench_qnamfloor --http URL [--calls N]\n");
        return 2;
    }
    QNetworkAccessManager manager;
    QByteArray session;
    int done = 0;
    QElapsedTimer timer;
    const auto post = [&](const QByteArray &body) {
        QNetworkRequest request(url);
        request.setRawHeader("Accept", "application/json, text/event-stream");
        request.setHeader(QNetworkRequest::ContentTypeHeader,
                          QByteArrayLiteral("application/json"));
        if (!session.isEmpty()) {
            request.setRawHeader("Mcp-Session-Id", session);
            request.setRawHeader("MCP-Protocol-Version", "2025-11-25");
        }
        return manager.post(request, body);
    };
    std::function<void()> next = [&] {
        if (done == calls) {
            const double seconds = double(timer.nsecsElapsed()) / 1e9;
            std::printf("calls=%d seconds=%.4f calls_per_s=%.0f\n", calls, seconds,
                        calls / seconds);
            app.quit();
            return;
        }
        QNetworkReply *reply = post(
                R"({"jsonrpc":"2.0","id":)" + QByteArray::number(done + 1)
                + R"(,"method":"tools/call","params":{"name":"echo","arguments":{"text":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}}})");
        QObject::connect(reply, &QNetworkReply::finished, &app, [&, reply] {
            const bool ok = reply->error() == QNetworkReply::NoError
                            && reply->readAll().contains("\"result\"");
            reply->deleteLater();
            if (!ok) {
                std::fprintf(stderr, "bench_qnamfloor: call %d failed\n", done + 1);
                app.exit(1);
                return;
            }
            ++done;
            next();
        });
    };
    QNetworkReply *init = post(
            R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench_qnamfloor","version":"1"}}})");
    QObject::connect(init, &QNetworkReply::finished, &app, [&] {
        session = init->rawHeader("Mcp-Session-Id");
        init->deleteLater();
        QNetworkReply *initialized
                = post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
        QObject::connect(initialized, &QNetworkReply::finished, &app, [&, initialized] {
            initialized->deleteLater();
            timer.start();
            next();
        });
    });
    return app.exec();
}
