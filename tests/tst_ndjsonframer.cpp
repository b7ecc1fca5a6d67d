#include <mcp/transport/transport.h>
#include <mcp/wire/ndjsonframer.h>

#include <QTest>

using namespace Mcp;

// The framer: lines whole, split at every byte, CRLF, garbage, blank lines, unicode, and
// lines over the cap (dropped without being stored, identified by head and tail).
class tst_NdjsonFramer : public QObject
{
    Q_OBJECT

private:
    struct Collected
    {
        std::vector<std::string> lines;
        std::vector<NdjsonFramer::Oversize> dropped;
    };

    static void attach(NdjsonFramer &framer, Collected &out)
    {
        framer.setLineSink([&out](std::string_view line) { out.lines.emplace_back(line); });
        framer.setOversizeSink(
                [&out](const NdjsonFramer::Oversize &d) { out.dropped.push_back(d); });
    }

    static QStringList toList(const std::vector<std::string> &lines)
    {
        QStringList list;
        for (const auto &l : lines)
            list << QString::fromStdString(l);
        return list;
    }

private slots:
    void lines_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QByteArrayList>("expected");

        QTest::newRow("one") << QByteArray("{\"a\":1}\n") << QByteArrayList{"{\"a\":1}"};
        QTest::newRow("two") << QByteArray("{}\n[]\n") << QByteArrayList{"{}", "[]"};
        QTest::newRow("crlf") << QByteArray("{}\r\n{\"b\":2}\r\n")
                              << QByteArrayList{"{}", "{\"b\":2}"};
        QTest::newRow("blank lines kept as empty")
                << QByteArray("\n\n{}\n") << QByteArrayList{"", "", "{}"};
        QTest::newRow("no final newline waits") << QByteArray("{}\n{\"x\"") << QByteArrayList{"{}"};
        QTest::newRow("garbage") << QByteArray("not json\n\x01\x02\xff\n{}\n")
                                 << QByteArrayList{"not json", "\x01\x02\xff", "{}"};
        QTest::newRow("unicode") << QByteArray("{\"t\":\"日本語 – ✓ 😀\"}\n")
                                 << QByteArrayList{"{\"t\":\"日本語 – ✓ 😀\"}"};
        QTest::newRow("embedded CR kept") << QByteArray("a\rb\n") << QByteArrayList{"a\rb"};
    }

    void lines()
    {
        QFETCH(QByteArray, input);
        QFETCH(QByteArrayList, expected);

        // Whole, split at every byte position, and one byte at a time.
        for (int split = 0; split <= input.size(); ++split) {
            NdjsonFramer framer;
            Collected out;
            attach(framer, out);
            framer.feed(input.constData(), std::size_t(split));
            framer.feed(input.constData() + split, std::size_t(input.size() - split));
            QByteArrayList got;
            for (const auto &l : out.lines)
                got << QByteArray::fromStdString(l);
            QCOMPARE(got, expected);
            QVERIFY(out.dropped.empty());
        }
        NdjsonFramer framer;
        Collected out;
        attach(framer, out);
        for (char c : input)
            framer.feed(&c, 1);
        QCOMPARE(int(out.lines.size()), int(expected.size()));
    }

    void finishDeliversUnterminatedLine()
    {
        NdjsonFramer framer;
        Collected out;
        attach(framer, out);
        framer.feed("{}\n{\"last\":true}", 16);
        QCOMPARE(int(out.lines.size()), 1);
        framer.finish();
        QCOMPARE(toList(out.lines), (QStringList{"{}", "{\"last\":true}"}));
        QCOMPARE(framer.pendingBytes(), std::size_t(0));
    }

    void oversize_data()
    {
        QTest::addColumn<int>("chunk");
        QTest::newRow("whole") << 0;
        QTest::newRow("chunks of 1") << 1;
        QTest::newRow("chunks of 7") << 7;
        QTest::newRow("chunks of 300") << 300;
        QTest::newRow("chunks of 4096") << 4096;
    }

    void oversize()
    {
        QFETCH(int, chunk);
        const std::int64_t cap = 1000;
        std::string big = "{\"jsonrpc\":\"2.0\",\"id\":42,\"result\":{\"text\":\"";
        big += std::string(5000, 'x');
        big += "\"}}";
        const std::string input = "{\"small\":1}\n" + big + "\n{\"after\":2}\n";

        NdjsonFramer framer(cap);
        Collected out;
        attach(framer, out);
        const std::size_t step = chunk == 0 ? input.size() : std::size_t(chunk);
        for (std::size_t i = 0; i < input.size(); i += step) {
            framer.feed(input.data() + i, std::min(step, input.size() - i));
            // Memory stays bounded by the cap while the long line streams through.
            QVERIFY(framer.pendingBytes() <= std::size_t(cap));
        }
        QCOMPARE(toList(out.lines), (QStringList{"{\"small\":1}", "{\"after\":2}"}));
        QCOMPARE(int(out.dropped.size()), 1);
        QCOMPARE(out.dropped[0].bytes, std::int64_t(big.size()));
        QCOMPARE(out.dropped[0].head, big.substr(0, NdjsonFramer::OversizeSampleBytes));
        QCOMPARE(out.dropped[0].tail, big.substr(big.size() - NdjsonFramer::OversizeSampleBytes));
        QCOMPARE(guessMessageId(out.dropped[0].head, out.dropped[0].tail).dump(),
                 std::string("42"));
    }

    void exactlyAtCapIsKept()
    {
        NdjsonFramer framer(10);
        Collected out;
        attach(framer, out);
        framer.feed("0123456789\n01234567890\n", 23);
        QCOMPARE(toList(out.lines), QStringList{"0123456789"});
        QCOMPARE(int(out.dropped.size()), 1);
        QCOMPARE(out.dropped[0].bytes, std::int64_t(11));
    }

    void oversizeAtEndOfStream()
    {
        NdjsonFramer framer(4);
        Collected out;
        attach(framer, out);
        framer.feed("abcdefgh", 8);
        QVERIFY(out.dropped.empty());
        framer.finish();
        QCOMPARE(int(out.dropped.size()), 1);
        QCOMPARE(out.dropped[0].bytes, std::int64_t(8));
    }

    void largeLineArrivesWhole()
    {
        // 20 MB in 64 KiB chunks, as a pipe delivers it.
        const std::string payload(20 * 1000 * 1000, 'y');
        const std::string input = "{\"t\":\"" + payload + "\"}\n";
        NdjsonFramer framer;
        Collected out;
        attach(framer, out);
        for (std::size_t i = 0; i < input.size(); i += 65536)
            framer.feed(input.data() + i, std::min<std::size_t>(65536, input.size() - i));
        QCOMPARE(int(out.lines.size()), 1);
        QCOMPARE(out.lines[0].size(), input.size() - 1);
    }

    void guessId_data()
    {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<QByteArray>("tail");
        QTest::addColumn<QByteArray>("expected"); // JSON of the id, or "null"
        QTest::newRow("first member") << QByteArray("{\"id\":7,\"jsonrpc\":\"2.0\",\"result\":{\"x")
                                      << QByteArray("xx\"}}") << QByteArray("7");
        QTest::newRow("after jsonrpc") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":\"abc\",\"result")
                                       << QByteArray("}}") << QByteArray("\"abc\"");
        QTest::newRow("last member (TS SDK order)")
                << QByteArray("{\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"xxx")
                << QByteArray("xxx\"}]},\"jsonrpc\":\"2.0\",\"id\":12}") << QByteArray("12");
        QTest::newRow("nested id is not it") << QByteArray("{\"result\":{\"id\":5,\"text\":\"xxx")
                                             << QByteArray("xx\"}}") << QByteArray("null");
        QTest::newRow("garbage") << QByteArray("\xff\xfe") << QByteArray("zz")
                                 << QByteArray("null");
    }

    void guessId()
    {
        QFETCH(QByteArray, head);
        QFETCH(QByteArray, tail);
        QFETCH(QByteArray, expected);
        const Json id = guessMessageId(std::string_view(head.constData(), size_t(head.size())),
                                       std::string_view(tail.constData(), size_t(tail.size())));
        QCOMPARE(QByteArray::fromStdString(id.dump()), expected);
    }
};

QTEST_GUILESS_MAIN(tst_NdjsonFramer)
#include "tst_ndjsonframer.moc"
