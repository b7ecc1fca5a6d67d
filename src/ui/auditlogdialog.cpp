#include "auditlogdialog.h"

#include "auditlogmodel.h"

#include <engine/approval/auditlog.h>

#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QThreadPool>
#include <QVBoxLayout>

namespace Gui {

AuditLogDialog::AuditLogDialog(QString path, QWidget *parent)
    : QDialog(parent)
    , m_path(std::move(path))
{
    setObjectName(QStringLiteral("auditLogDialog"));
    setWindowTitle(tr("Audit log"));
    resize(960, 520);

    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("auditFilter"));
    m_filter->setPlaceholderText(tr("Filter by tool, source or decision"));
    m_filter->setClearButtonEnabled(true);

    m_model = new AuditLogModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterRole(AuditLogModel::FilterRole);
    m_proxy->setFilterKeyColumn(0);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    connect(m_filter, &QLineEdit::textChanged, m_proxy,
            &QSortFilterProxyModel::setFilterFixedString);

    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("auditTable"));
    m_table->setModel(m_proxy);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("auditStatus"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton *refresh = buttons->addButton(tr("&Refresh"), QDialogButtonBox::ActionRole);
    connect(refresh, &QPushButton::clicked, this, &AuditLogDialog::reload);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_filter);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    reload();
}

void AuditLogDialog::reload()
{
    const int generation = ++m_generation;
    m_loading = true;
    m_status->setText(tr("Reading %1…").arg(QDir::toNativeSeparators(m_path)));
    QPointer<AuditLogDialog> self(this);
    const QString path = m_path;
    // The file may be megabytes: read and parse it off the GUI thread.
    QThreadPool::globalInstance()->start([self, path, generation] {
        QString error;
        std::vector<Engine::Json> records
                = Engine::AuditLog::readRecords(path, Engine::AuditLog::DefaultReadBytes, &error);
        // Back on the GUI thread, where `self` is checked and the dialog lives.
        QMetaObject::invokeMethod(
                QCoreApplication::instance(),
                [self, generation, error, records = std::move(records)]() mutable {
                    if (self)
                        self->showRecords(generation, error, std::move(records));
                },
                Qt::QueuedConnection);
    });
}

void AuditLogDialog::showRecords(int generation, const QString &error,
                                 std::vector<Engine::Json> records)
{
    if (generation != m_generation)
        return;
    m_loading = false;
    const int count = int(records.size());
    m_model->setRecords(std::move(records));
    m_table->resizeColumnsToContents();
    if (!error.isEmpty())
        m_status->setText(tr("Cannot read %1: %2").arg(QDir::toNativeSeparators(m_path), error));
    else
        m_status->setText(tr("%n record(s) from %1 (newest first)", nullptr, count)
                                  .arg(QDir::toNativeSeparators(m_path)));
    emit loaded(count);
}

} // namespace Gui
