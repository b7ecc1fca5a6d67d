#include <engine/approval/auditlog.h>
#include <ui/auditlogdialog.h>

#include <QApplication>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace Engine;
using Gui::AuditLogDialog;

// Tools → Audit log…: the table lists the file's records newest first, the filter box narrows
// them by tool, source or decision, and a big log is read off the GUI thread from its tail.
class tst_AuditLogDialog : public QObject
{
    Q_OBJECT

    static QString cell(QTableView *table, int row, int column)
    {
        return table->model()->index(row, column).data().toString();
    }

private slots:
    void listsAndFilters()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("audit.jsonl"));
        AuditLog log(path);
        ToolRunEvent call;
        call.toolName = QStringLiteral("mcp__github__create_issue");
        call.source = QStringLiteral("github");
        call.risk = Risk::Mutating;
        log.recordDecision(call, {ApprovalChoice::Deny, QStringLiteral("not now")}, false, {});
        call.toolName = QStringLiteral("read_file");
        call.source = QStringLiteral("builtin");
        call.risk = Risk::Read;
        log.recordDecision(call, {ApprovalChoice::AllowOnce, {}}, true, QStringLiteral("read"));
        log.recordStart(call);
        call.durationMs = 12;
        ToolRunResult result;
        result.ran = true;
        log.recordFinish(call, result);

        AuditLogDialog dialog(path);
        QSignalSpy loaded(&dialog, &AuditLogDialog::loaded);
        dialog.show();
        QVERIFY(loaded.wait(5000));
        QCOMPARE(loaded.at(0).at(0).toInt(), 4);
        QVERIFY(!dialog.isModal());
        QTableView *table = dialog.table();
        QCOMPARE(table->model()->rowCount(), 4);
        // Newest first.
        QCOMPARE(cell(table, 0, 1), QStringLiteral("end"));
        QCOMPARE(cell(table, 0, 5), QStringLiteral("ok"));
        QCOMPARE(cell(table, 0, 6), QStringLiteral("12 ms"));
        QCOMPARE(cell(table, 3, 2), QStringLiteral("mcp__github__create_issue"));
        QCOMPARE(cell(table, 3, 5), QStringLiteral("deny: not now"));

        QTest::keyClicks(dialog.filterEdit(), QStringLiteral("GitHub"));
        QCOMPARE(table->model()->rowCount(), 1);
        QCOMPARE(cell(table, 0, 3), QStringLiteral("github"));
        dialog.filterEdit()->setText(QStringLiteral("deny"));
        QCOMPARE(table->model()->rowCount(), 1);
        dialog.filterEdit()->setText(QStringLiteral("read_file"));
        QCOMPARE(table->model()->rowCount(), 3);
        dialog.filterEdit()->setText(QStringLiteral("(read)")); // the automatic decision's why
        QCOMPARE(table->model()->rowCount(), 1);
        dialog.filterEdit()->clear();
        QCOMPARE(table->model()->rowCount(), 4);

        // New records appear on reload.
        log.recordFinish(call, result);
        dialog.reload();
        QVERIFY(loaded.wait(5000));
        QCOMPARE(table->model()->rowCount(), 5);
    }

    void bigLogLoadsItsTailInTheBackground()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("audit.jsonl"));
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            // ~12 MB: more than a reader loads.
            const QByteArray line = QByteArray("{\"event\":\"end\",\"tool\":\"filler\",\"outcome\":"
                                               "\"ok\",\"pad\":\"")
                                    + QByteArray(200, 'x') + "\"}\n";
            for (int i = 0; i < 12 * 1024 * 1024 / line.size(); ++i)
                file.write(line);
            file.write("{\"event\":\"end\",\"tool\":\"the_last_one\",\"outcome\":\"ok\"}\n");
        }
        AuditLogDialog dialog(path);
        QSignalSpy loaded(&dialog, &AuditLogDialog::loaded);
        dialog.show();
        QVERIFY(dialog.isLoading()); // the constructor returned before reading
        QVERIFY(loaded.wait(20000));
        const int rows = dialog.table()->model()->rowCount();
        QVERIFY(rows > 1000);
        QVERIFY(qint64(rows) * 200 <= AuditLog::DefaultReadBytes);
        QCOMPARE(cell(dialog.table(), 0, 2), QStringLiteral("the_last_one"));
    }
};

QTEST_MAIN(tst_AuditLogDialog)
#include "tst_auditlogdialog.moc"
