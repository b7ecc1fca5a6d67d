#include <mcp/wire/sseparser.h>

#include <QTest>

using namespace Mcp;

// The SSE parser: events whole, split at every byte and fed a byte at a time; LF, CRLF and
// CR line ends (also a CR and its LF in different chunks); multi-line data; comments; retry;
// ids; a BOM; garbage; unicode; events over the cap (dropped with an error, parsing resumes).
class tst_SseParser : public QObject
{
    Q_OBJECT

private:
    // "id|event|data|retry" per event, so rows read easily and failures print well.
    static QByteArray format(const SseEvent &e)
    {
        return e.id + '|' + e.event + '|' + e.data + '|'
               + (e.retryMs ? QByteArray::number(*e.retryMs) : QByteArray("-"));
    }

    struct Collected
    {
        QByteArrayList events;
        QStringList errors;
    };

    static void attach(SseParser &parser, Collected &out)
    {
        parser.setEventSink([&out](const SseEvent &e) { out.events << format(e); });
        parser.setErrorSink([&out](const QString &message) { out.errors << message; });
    }

private slots:
    void events_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QByteArrayList>("expected");
        QTest::addColumn<QByteArray>("lastId");

        QTest::newRow("one") << QByteArray("data: hello\n\n") << QByteArrayList{"||hello|-"}
                             << QByteArray();
        QTest::newRow("no space after colon")
                << QByteArray("data:hello\n\n") << QByteArrayList{"||hello|-"} << QByteArray();
        QTest::newRow("only one space stripped")
                << QByteArray("data:  two\n\n") << QByteArrayList{"|| two|-"} << QByteArray();
        QTest::newRow("crlf") << QByteArray("event: a\r\ndata: x\r\n\r\n")
                              << QByteArrayList{"|a|x|-"} << QByteArray();
        QTest::newRow("cr") << QByteArray("event: a\rdata: x\r\rdata: y\r\r")
                            << QByteArrayList{"|a|x|-", "||y|-"} << QByteArray();
        QTest::newRow("mixed line ends") << QByteArray("data: 1\r\ndata: 2\rdata: 3\n\r\n")
                                         << QByteArrayList{"||1\n2\n3|-"} << QByteArray();
        QTest::newRow("multi-line data") << QByteArray("data: a\ndata: b\ndata:\ndata: c\n\n")
                                         << QByteArrayList{"||a\nb\n\nc|-"} << QByteArray();
        QTest::newRow("empty data is an event") << QByteArray("data\n\ndata:\n\n")
                                                << QByteArrayList{"|||-", "|||-"} << QByteArray();
        QTest::newRow("no data: no event") << QByteArray("event: x\n\n\n\ndata: y\n\n")
                                           << QByteArrayList{"||y|-"} << QByteArray();
        QTest::newRow("comments") << QByteArray(
                ": keep-alive\n:\ndata: a\n: in between\ndata: b\n\n")
                                  << QByteArrayList{"||a\nb|-"} << QByteArray();
        QTest::newRow("ids persist") << QByteArray("id: 1\ndata: a\n\ndata: b\n\nid\ndata: c\n\n")
                                     << QByteArrayList{"1||a|-", "1||b|-", "||c|-"} << QByteArray();
        QTest::newRow("id without data still sets last id")
                << QByteArray("data: a\n\nid: 7\n\n") << QByteArrayList{"||a|-"} << QByteArray("7");
        QTest::newRow("id with NUL ignored")
                << QByteArray("id: 1\ndata: a\n\nid: x\0y\ndata: b\n\n", 32)
                << QByteArrayList{"1||a|-", "1||b|-"} << QByteArray("1");
        QTest::newRow("retry") << QByteArray("retry: 2500\ndata: a\n\ndata: b\n\n")
                               << QByteArrayList{"||a|2500", "||b|-"} << QByteArray();
        QTest::newRow("bad retry ignored")
                << QByteArray("retry: 12a\nretry: -5\nretry:\nretry: 99999999999\ndata: a\n\n")
                << QByteArrayList{"||a|-"} << QByteArray();
        QTest::newRow("unknown fields ignored") << QByteArray("foo: bar\nDATA: no\ndata: yes\n\n")
                                                << QByteArrayList{"||yes|-"} << QByteArray();
        QTest::newRow("bom") << QByteArray("\xEF\xBB\xBF"
                                           "data: a\n\n")
                             << QByteArrayList{"||a|-"} << QByteArray();
        QTest::newRow("bom only at start") << QByteArray("data: a\n\n\xEF\xBB\xBF"
                                                         "data: b\n\n")
                                           << QByteArrayList{"||a|-"} << QByteArray();
        QTest::newRow("unterminated event is not dispatched")
                << QByteArray("data: a\n\ndata: b\n") << QByteArrayList{"||a|-"} << QByteArray();
        QTest::newRow("garbage") << QByteArray("\x01\x02\xff\xfe:zz\n\x00\n\ndata: ok\n\n", 21)
                                 << QByteArrayList{"||ok|-"} << QByteArray();
        QTest::newRow("unicode") << QByteArray("event: ü\ndata: 日本語 – ✓ 😀\n\n")
                                 << QByteArrayList{"|ü|日本語 – ✓ 😀|-"} << QByteArray();
        QTest::newRow("openai shape")
                << QByteArray("data: {\"choices\":[]}\n\ndata: [DONE]\n\n")
                << QByteArrayList{"||{\"choices\":[]}|-", "||[DONE]|-"} << QByteArray();
        QTest::newRow("anthropic shape")
                << QByteArray("event: ping\ndata: {\"type\": \"ping\"}\n\n")
                << QByteArrayList{"|ping|{\"type\": \"ping\"}|-"} << QByteArray();
    }

    void events()
    {
        QFETCH(QByteArray, input);
        QFETCH(QByteArrayList, expected);
        QFETCH(QByteArray, lastId);

        // Whole, then split into two at every byte position.
        for (int split = 0; split <= input.size(); ++split) {
            SseParser parser;
            Collected out;
            attach(parser, out);
            parser.feed(QByteArrayView(input).first(split));
            parser.feed(QByteArrayView(input).sliced(split));
            QVERIFY2(out.events == expected,
                     qPrintable(QStringLiteral("split at %1: %2")
                                        .arg(split)
                                        .arg(QString::fromUtf8(out.events.join(" / ")))));
            QVERIFY(out.errors.isEmpty());
            QCOMPARE(parser.lastEventId(), lastId);
        }
        // One byte at a time (also empty feeds in between).
        SseParser parser;
        Collected out;
        attach(parser, out);
        for (char c : input) {
            parser.feed(QByteArrayView(&c, 1));
            parser.feed(QByteArrayView());
        }
        QCOMPARE(out.events, expected);
    }

    void crAtChunkEndThenLf()
    {
        // A CR ending one chunk and an LF starting the next are one line end, not two (two
        // would be a blank line and dispatch early).
        SseParser parser;
        Collected out;
        attach(parser, out);
        parser.feed("data: a\r");
        parser.feed("\ndata: b\r");
        parser.feed("\n");
        QVERIFY(out.events.isEmpty());
        parser.feed("\r");
        QCOMPARE(out.events, QByteArrayList{"||a\nb|-"});
        parser.feed("\ndata: c\n\n");
        QCOMPARE(out.events, (QByteArrayList{"||a\nb|-", "||c|-"}));
    }

    void oversize_data()
    {
        QTest::addColumn<int>("chunkSize");
        QTest::newRow("whole") << 0;
        QTest::newRow("1") << 1;
        QTest::newRow("7") << 7;
        QTest::newRow("4096") << 4096;
    }

    void oversize()
    {
        QFETCH(int, chunkSize);
        // One event over the cap (many lines), one line over the cap with no newline for a
        // long time, and normal events around them.
        const QByteArray big = "data: " + QByteArray(60, 'x') + "\n";
        const QByteArray input = "data: before\n\n" + big + big + big + "\n"
                                 + "data: " + QByteArray(500, 'y') + "\n\n" + "data: after\n\n";
        SseParser parser(100);
        Collected out;
        attach(parser, out);
        if (chunkSize == 0) {
            parser.feed(input);
        } else {
            for (qsizetype i = 0; i < input.size(); i += chunkSize)
                parser.feed(QByteArrayView(input).sliced(
                        i, std::min<qsizetype>(chunkSize, input.size() - i)));
        }
        QCOMPARE(out.events, (QByteArrayList{"||before|-", "||after|-"}));
        QCOMPARE(out.errors.size(), 2);
        QVERIFY(out.errors.first().contains(QLatin1String("100")));
    }

    void eventAtCapIsKept()
    {
        SseParser parser(10);
        Collected out;
        attach(parser, out);
        parser.feed("data:0123\n\n"); // 9 bytes of line, 5 of data + newline
        QCOMPARE(out.events, QByteArrayList{"||0123|-"});
        QVERIFY(out.errors.isEmpty());
    }

    void resetKeepsLastIdAndRetry()
    {
        SseParser parser;
        Collected out;
        attach(parser, out);
        parser.feed("retry: 300\nid: 42\ndata: a\n\ndata: partial");
        parser.reset();
        QCOMPARE(parser.lastEventId(), QByteArray("42"));
        QCOMPARE(parser.retryMs().value_or(-1), 300);
        parser.feed("\xEF\xBB\xBF"
                    "data: b\n\n"); // a new stream may start with a BOM again
        QCOMPARE(out.events, (QByteArrayList{"42||a|300", "42||b|-"}));
        parser.clear();
        QVERIFY(parser.lastEventId().isEmpty());
        QVERIFY(!parser.retryMs());
    }
};

QTEST_GUILESS_MAIN(tst_SseParser)
#include "tst_sseparser.moc"
