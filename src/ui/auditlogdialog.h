#pragma once

#include <engine/tools/tool.h>

#include <QDialog>

#include <vector>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace Gui {

class AuditLogModel;

// Tools → Audit log…: the audit log's newest records in a table, filtered by a text box over
// tool, source and decision. Reads the file on a worker thread (at most
// AuditLog::DefaultReadBytes from its end), so a big log never freezes the window. Non-modal;
// owned by the MainWindow, which opens it with open().
class AuditLogDialog : public QDialog
{
    Q_OBJECT
public:
    explicit AuditLogDialog(QString path, QWidget *parent = nullptr);

    // Reads the file again (in the background); the table follows when it is read.
    void reload();
    QTableView *table() const { return m_table; }
    QLineEdit *filterEdit() const { return m_filter; }
    bool isLoading() const { return m_loading; }

signals:
    void loaded(int records);

private:
    void showRecords(int generation, const QString &error, std::vector<Engine::Json> records);

    QString m_path;
    AuditLogModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QTableView *m_table = nullptr;
    QLineEdit *m_filter = nullptr;
    QLabel *m_status = nullptr;
    int m_generation = 0; // an older read that finishes late is ignored
    bool m_loading = false;
};

} // namespace Gui
