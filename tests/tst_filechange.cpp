// Diffs before writes: the unified diff a file change shows, what it says instead of one
// (binary, too large, a call that will fail, a file that may hold secrets), and the runner
// handing the change of the real write_file and edit_file to the approval and the result.
#include "runtool.h"

#include <engine/approval/approval.h>
#include <engine/approval/toolrunner.h>
#include <engine/tools/builtintools.h>
#include <engine/tools/filechange.h>
#include <engine/tools/toolregistry.h>
#include <engine/tools/workspace.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Engine;

class TestFileChange : public QObject
{
    Q_OBJECT

    static bool write(const QString &file, const QByteArray &bytes)
    {
        QFile out(file);
        return out.open(QIODevice::WriteOnly) && out.write(bytes) == bytes.size();
    }

    static QByteArray read(const QString &file)
    {
        QFile in(file);
        return in.open(QIODevice::ReadOnly) ? in.readAll() : QByteArray("(unreadable)");
    }

private slots:
    // The hunks GNU diff -u writes for the same files.
    void unifiedDiffHunks()
    {
        QStringList before;
        for (int i = 1; i <= 20; ++i)
            before << QStringLiteral("line %1").arg(i);
        QStringList after = before;
        after[1] = QStringLiteral("line two");        // a change near the start
        after.insert(15, QStringLiteral("inserted")); // one far from it: a second hunk
        after.removeLast();
        int added = 0, removed = 0;
        const QString diff = unifiedDiff(before, after, 3, &added, &removed);
        QCOMPARE(diff, QStringLiteral("@@ -1,5 +1,5 @@\n"
                                      " line 1\n"
                                      "-line 2\n"
                                      "+line two\n"
                                      " line 3\n"
                                      " line 4\n"
                                      " line 5\n"
                                      "@@ -13,8 +13,8 @@\n"
                                      " line 13\n"
                                      " line 14\n"
                                      " line 15\n"
                                      "+inserted\n"
                                      " line 16\n"
                                      " line 17\n"
                                      " line 18\n"
                                      " line 19\n"
                                      "-line 20\n"));
        QCOMPARE(added, 2);
        QCOMPARE(removed, 2);
        // Changes closer than twice the context share a hunk.
        QStringList close = before;
        close[4] = QStringLiteral("five");
        close[9] = QStringLiteral("ten");
        QCOMPARE(unifiedDiff(before, close).count(QLatin1String("@@ -")), 1);
        QVERIFY(unifiedDiff(before, before).isEmpty());
    }

    void kinds()
    {
        const FileChange created
                = FileChange::between(QStringLiteral("n.txt"), std::nullopt, "a\nb\n");
        QVERIFY(created.kind == FileChange::Kind::Created);
        QCOMPARE(created.diff,
                 QStringLiteral("--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n"));
        QCOMPARE(created.summary(), QStringLiteral("new file, 2 line(s)")); // no translation loaded

        const FileChange edited = FileChange::between(QStringLiteral("e.txt"), "a\nb", "a\nc");
        QVERIFY(edited.kind == FileChange::Kind::Edited);
        QCOMPARE(edited.diff, QStringLiteral("--- a/e.txt\n+++ b/e.txt\n@@ -1,2 +1,2 @@\n a\n"
                                             "-b\n\\ No newline at end of file\n"
                                             "+c\n\\ No newline at end of file\n"));
        QCOMPARE(edited.summary(), QStringLiteral("+1 −1"));
        // Only the newline at the end differs: still a change.
        QVERIFY(FileChange::between(QStringLiteral("x"), "a", "a\n")
                        .diff.contains(QLatin1String("\\ No newline")));

        QVERIFY(FileChange::between(QStringLiteral("s"), "same\n", "same\n").kind
                == FileChange::Kind::Unchanged);
        const FileChange binary
                = FileChange::between(QStringLiteral("b.bin"), QByteArray("a\0b", 3), "text\n");
        QVERIFY(binary.kind == FileChange::Kind::Binary);
        QVERIFY(binary.diff.isEmpty());
        QCOMPARE(binary.summary(), QStringLiteral("3 bytes → 5 bytes"));
        QVERIFY(FileChange::between(QStringLiteral("l"), std::nullopt, "\xff\xfe").kind
                == FileChange::Kind::Binary); // not UTF-8
        const FileChange huge = FileChange::between(
                QStringLiteral("h"), "x", QByteArray(FileChange::MaxCompareBytes + 1, 'x'));
        QVERIFY(huge.kind == FileChange::Kind::TooLarge);
        QVERIFY(huge.note.contains(QLatin1String("Too large")));

        // Every line different on both sides past the bound: said, not compared for minutes.
        QByteArray many, other;
        for (int i = 0; i < 6000; ++i) {
            many += "a" + QByteArray::number(i) + "\n";
            other += "b" + QByteArray::number(i) + "\n";
        }
        const FileChange different = FileChange::between(QStringLiteral("d"), many, other);
        QVERIFY(different.kind == FileChange::Kind::TooLarge);
        QVERIFY2(different.note.contains(QLatin1String("6000 lines")), qPrintable(different.note));
        // One line changed in the same big file: the common start and end are not compared.
        QByteArray one = many;
        one.replace("a3000\n", "changed\n");
        const FileChange small = FileChange::between(QStringLiteral("d"), many, one);
        QVERIFY(small.kind == FileChange::Kind::Edited);
        QCOMPARE(small.summary(), QStringLiteral("+1 −1"));

        // A diff longer than the bound is cut at a line, saying how much more there was.
        QByteArray longLines;
        for (int i = 0; i < 20000; ++i)
            longLines += QByteArray(60, 'y') + "\n";
        const FileChange cut = FileChange::between(QStringLiteral("c"), std::nullopt, longLines);
        QVERIFY(cut.diff.size() <= FileChange::MaxDiffChars + 200);
        QVERIFY(cut.diff.endsWith(QLatin1String("more lines not shown\n")));
        QCOMPARE(cut.added, 20000);
    }

    void savedAndReadBack()
    {
        const FileChange change = FileChange::between(QStringLiteral("e.txt"), "a\n", "b\n");
        const std::optional<FileChange> back = FileChange::fromJson(change.toJson());
        QVERIFY(back);
        QCOMPARE(back->path, change.path);
        QVERIFY(back->kind == change.kind);
        QCOMPARE(back->diff, change.diff);
        QCOMPARE(back->summary(), change.summary());
        // What a hand-edited conversation file may hold is refused, never trusted.
        QVERIFY(!FileChange::fromJson(Json{{"path", "x"}, {"kind", "exploded"}}));
        QVERIFY(!FileChange::fromJson(Json{{"kind", "edited"}}));
        QVERIFY(!FileChange::fromJson(Json::array()));
        const auto odd = FileChange::fromJson(
                Json{{"path", "x"}, {"kind", "edited"}, {"added", -5}, {"diff", 7}});
        QVERIFY(odd && odd->added == 0 && odd->diff.isEmpty());
    }

    // A server's tool whose arguments name a file and what to write in it.
    void guessedFromAServersArguments()
    {
        QTemporaryDir dir;
        const Workspace workspace(dir.path());
        QVERIFY(write(dir.filePath(QStringLiteral("notes.md")), "one\ntwo\nthree\n"));
        QVERIFY(write(dir.filePath(QStringLiteral(".env")), "TOKEN=hunter2\n"));

        // The filesystem server's edit_file: a list of edits.
        auto change = guessedFileChange(
                Json{{"path", "notes.md"},
                     {"edits", Json::array({Json{{"oldText", "two"}, {"newText", "2"}},
                                            Json{{"oldText", "three"}, {"newText", "3"}}})}},
                workspace);
        QVERIFY(change && change->kind == FileChange::Kind::Edited);
        QCOMPARE(change->summary(), QStringLiteral("+2 −2"));
        // write_file-like: the whole content, under another name.
        change = guessedFileChange(
                Json{{"file_path", dir.filePath(QStringLiteral("new.txt")).toStdString()},
                     {"contents", "hello\n"}},
                workspace);
        QVERIFY(change && change->kind == FileChange::Kind::Created);
        QCOMPARE(change->path, QStringLiteral("new.txt"));
        // Text that is not in the file: the call will likely fail, and the card says so.
        change = guessedFileChange(
                Json{{"path", "notes.md"}, {"old_string", "four"}, {"new_string", "4"}}, workspace);
        QVERIFY(change && change->kind == FileChange::Kind::Unknown);
        // A file that may hold secrets is not shown (the diff is kept with the conversation).
        change = guessedFileChange(Json{{"path", ".env"}, {"content", "TOKEN=x\n"}}, workspace);
        QVERIFY(change && change->kind == FileChange::Kind::Unknown);
        QVERIFY(change->diff.isEmpty());
        QVERIFY(!change->note.contains(QLatin1String("hunter2")));
        // Outside the workspace: not read.
        change = guessedFileChange(Json{{"path", "/etc/passwd"}, {"content", "x"}}, workspace);
        QVERIFY(change && change->kind == FileChange::Kind::Unknown);
        QVERIFY(change->diff.isEmpty());
        // No file, or no new content: not a file change we can tell.
        QVERIFY(!guessedFileChange(Json{{"query", "x"}, {"content", "y"}}, workspace));
        QVERIFY(!guessedFileChange(Json{{"path", "notes.md"}}, workspace));
        QVERIFY(!guessedFileChange(Json::array(), workspace));
    }

    // The real write_file and edit_file through the runner: the gate is shown the change
    // against the file on disk, and the result keeps it after the file changed.
    void runnerShowsTheChangeBeforeWriting()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("a.txt"));
        QVERIFY(write(file, "alpha\nbeta\ngamma\n"));
        ToolRegistry registry;
        for (auto &tool : createBuiltinTools(std::make_shared<Workspace>(dir.path())))
            registry.add(std::move(tool));
        FixedApprovalGate gate(ApprovalDecision(ApprovalChoice::AllowOnce));
        ToolRunner runner(&registry, &gate, dir.path());
        runner.setSecrets({QStringLiteral("s3cr3t-value")});
        const auto run = [&runner](const QString &name, const Json &arguments) {
            return runAndWait(runner, name, QStringLiteral("c"), arguments);
        };

        auto result = run(QStringLiteral("edit_file"),
                          Json{{"path", "a.txt"}, {"old_string", "beta"}, {"new_string", "BETA"}});
        QVERIFY(result && !result->output.isError);
        QVERIFY(gate.lastRequest().change);
        QCOMPARE(gate.lastRequest().change->diff,
                 QStringLiteral("--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n alpha\n-beta\n"
                                "+BETA\n gamma\n"));
        QVERIFY(result->change && result->change->diff == gate.lastRequest().change->diff);
        QCOMPARE(read(file), QByteArray("alpha\nBETA\ngamma\n"));

        // A secret the app knows never shows in the diff (it is kept with the conversation).
        result = run(QStringLiteral("write_file"),
                     Json{{"path", "a.txt"}, {"content", "alpha\nkey=s3cr3t-value\n"}});
        QVERIFY(result && result->change);
        QVERIFY(!result->change->diff.contains(QLatin1String("s3cr3t-value")));
        QVERIFY(result->change->diff.contains(QLatin1String("-BETA")));
        QCOMPARE(result->change->summary(), QStringLiteral("+1 −2"));

        // A new file, and an edit that will fail: said before it is approved.
        result = run(QStringLiteral("write_file"),
                     Json{{"path", "sub/new.txt"}, {"content", "x\n"}});
        QVERIFY(result && result->change && result->change->kind == FileChange::Kind::Created);
        QCOMPARE(result->change->path, QStringLiteral("sub/new.txt"));
        result = run(QStringLiteral("edit_file"),
                     Json{{"path", "a.txt"}, {"old_string", "nowhere"}, {"new_string", "y"}});
        QVERIFY(result && result->output.isError);
        QVERIFY(gate.lastRequest().change->kind == FileChange::Kind::Unknown);
        QVERIFY(gate.lastRequest().change->note.contains(QLatin1String("not found")));

        // A read tool changes nothing: no change computed.
        result = run(QStringLiteral("read_file"), Json{{"path", "a.txt"}});
        QVERIFY(result && !result->change);
    }
};

QTEST_GUILESS_MAIN(TestFileChange)
#include "tst_filechange.moc"
