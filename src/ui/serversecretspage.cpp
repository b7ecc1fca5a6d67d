#include "serversecretspage.h"

#include "textlabel.h"

#include <engine/secrets/serversecrets.h>

#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace Gui {

namespace {

enum Column { NameColumn, UsedByColumn, StoredColumn };

} // namespace

ServerSecretsPage::ServerSecretsPage(Engine::ServerSecrets *secrets,
                                     QMap<QString, QStringList> usage, QWidget *parent)
    : QWidget(parent)
    , m_secrets(secrets)
    , m_usage(std::move(usage))
{
    setObjectName(QStringLiteral("serverSecretsPage"));
    auto intro = textLabel(
            this, tr("Secrets a server reads from the system keychain: write ${secret:NAME} in "
                     "its args, env or headers. Only the names are shown; the values never reach "
                     "a file."));

    m_list = new QTreeWidget(this);
    m_list->setObjectName(QStringLiteral("secretsList"));
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setHeaderLabels({tr("Name"), tr("Used by"), tr("Stored")});
    m_list->header()->setSectionResizeMode(NameColumn, QHeaderView::ResizeToContents);
    m_list->header()->setSectionResizeMode(UsedByColumn, QHeaderView::Stretch);
    m_list->header()->setSectionResizeMode(StoredColumn, QHeaderView::ResizeToContents);
    m_list->header()->setStretchLastSection(false);

    m_addButton = new QPushButton(tr("&Add…"), this);
    m_addButton->setObjectName(QStringLiteral("addSecretButton"));
    m_replaceButton = new QPushButton(tr("&Replace…"), this);
    m_replaceButton->setObjectName(QStringLiteral("replaceSecretButton"));
    m_deleteButton = new QPushButton(tr("&Delete"), this);
    m_deleteButton->setObjectName(QStringLiteral("deleteSecretButton"));
    auto buttons = new QHBoxLayout;
    buttons->addWidget(m_addButton);
    buttons->addWidget(m_replaceButton);
    buttons->addWidget(m_deleteButton);
    buttons->addStretch(1);

    m_status = textLabel(this, QString(), QStringLiteral("secretsStatus"));

    auto layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_list, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_status);

    connect(m_list, &QTreeWidget::itemSelectionChanged, this, &ServerSecretsPage::updateButtons);
    connect(m_list, &QTreeWidget::itemActivated, this, [this] { askValue(selectedName()); });
    connect(m_addButton, &QPushButton::clicked, this, [this] { askValue(QString()); });
    connect(m_replaceButton, &QPushButton::clicked, this, [this] { askValue(selectedName()); });
    connect(m_deleteButton, &QPushButton::clicked, this, &ServerSecretsPage::deleteSelected);
    if (m_secrets) {
        connect(m_secrets, &Engine::ServerSecrets::changed, this, &ServerSecretsPage::refresh);
        if (!m_secrets->indexError().isEmpty())
            showOutcome(m_secrets->indexError(), true);
    } else {
        showOutcome(tr("No keychain is set up for this window."), true);
    }
    refresh();
}

void ServerSecretsPage::refresh()
{
    const QString selected = selectedName();
    const QStringList stored = m_secrets ? m_secrets->names() : QStringList();
    QMap<QString, QStringList> rows = m_usage;
    for (const QString &name : stored)
        rows[name];
    m_list->clear();
    for (auto it = rows.cbegin(); it != rows.cend(); ++it) {
        auto item = new QTreeWidgetItem(m_list);
        item->setText(NameColumn, it.key());
        item->setData(NameColumn, Qt::UserRole, it.key());
        item->setText(UsedByColumn, it.value().isEmpty() ? tr("no server")
                                                         : it.value().join(QLatin1String(", ")));
        QString state = tr("not stored");
        if (stored.contains(it.key()))
            state = m_secrets->isSessionOnly(it.key()) ? tr("until the app quits")
                                                       : tr("in the keychain");
        item->setText(StoredColumn, state);
        item->setData(StoredColumn, Qt::UserRole, stored.contains(it.key()));
        if (it.key() == selected)
            m_list->setCurrentItem(item);
    }
    if (rows.isEmpty()) {
        auto item = new QTreeWidgetItem(m_list);
        item->setText(NameColumn, tr("No server secrets yet."));
        item->setFlags(Qt::NoItemFlags);
    }
    updateButtons();
}

QString ServerSecretsPage::selectedName() const
{
    const QTreeWidgetItem *item = m_list->currentItem();
    return item && item->isSelected() ? item->data(NameColumn, Qt::UserRole).toString() : QString();
}

void ServerSecretsPage::updateButtons()
{
    const QTreeWidgetItem *item = m_list->currentItem();
    const bool selected = !selectedName().isEmpty();
    const bool stored = selected && item->data(StoredColumn, Qt::UserRole).toBool();
    m_addButton->setEnabled(m_secrets && !m_busy);
    m_replaceButton->setEnabled(m_secrets && !m_busy && selected);
    m_replaceButton->setText(stored || !selected ? tr("&Replace…") : tr("&Set…"));
    m_deleteButton->setEnabled(m_secrets && !m_busy && stored);
}

void ServerSecretsPage::showOutcome(const QString &text, bool error)
{
    m_status->setText(error ? tr("Error: %1").arg(text) : text);
}

// A small dialog: the name (typed for a new secret, fixed for a replaced one) and the value in
// a password field. Nothing is stored before OK.
void ServerSecretsPage::askValue(const QString &name)
{
    if (!m_secrets || m_busy)
        return;
    auto dialog = new QDialog(this);
    dialog->setObjectName(QLatin1String(ValueDialogName));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(name.isEmpty() ? tr("Add a server secret")
                                          : tr("Set the secret %1").arg(name));
    auto nameEdit = new QLineEdit(name, dialog);
    nameEdit->setObjectName(QStringLiteral("secretNameEdit"));
    nameEdit->setReadOnly(!name.isEmpty());
    nameEdit->setPlaceholderText(QStringLiteral("GITHUB_TOKEN"));
    auto valueEdit = new QLineEdit(dialog);
    valueEdit->setObjectName(QStringLiteral("secretValueEdit"));
    valueEdit->setEchoMode(QLineEdit::Password);
    valueEdit->setMaxLength(int(Engine::ServerSecrets::MaxValueChars));
    auto problem = textLabel(dialog, QString(), QStringLiteral("secretNameProblem"));
    auto usedAs = textLabel(dialog);
    auto buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dialog);
    auto form = new QFormLayout(dialog);
    form->addRow(tr("&Name:"), nameEdit);
    form->addRow(tr("&Value:"), valueEdit);
    form->addRow(usedAs);
    form->addRow(problem);
    form->addRow(buttons);
    auto check = [=] {
        const QString typed = nameEdit->text();
        const QString why = typed.isEmpty() ? QString() : Engine::ServerSecrets::nameProblem(typed);
        problem->setText(why);
        problem->setVisible(!why.isEmpty());
        usedAs->setText(typed.isEmpty() || !why.isEmpty()
                                ? QString()
                                : tr("A server reads it as ${secret:%1}.").arg(typed));
        buttons->button(QDialogButtonBox::Ok)
                ->setEnabled(!typed.isEmpty() && why.isEmpty() && !valueEdit->text().isEmpty());
    };
    connect(nameEdit, &QLineEdit::textChanged, dialog, check);
    connect(valueEdit, &QLineEdit::textChanged, dialog, check);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, dialog, [this, dialog, nameEdit, valueEdit] {
        store(nameEdit->text(), valueEdit->text());
        valueEdit->clear();
        dialog->accept();
    });
    check();
    (name.isEmpty() ? nameEdit : valueEdit)->setFocus();
    dialog->open();
}

void ServerSecretsPage::store(const QString &name, const QString &value)
{
    m_busy = true;
    updateButtons();
    showOutcome(tr("Storing %1…").arg(name), false);
    m_secrets->set(name, value, this, [this, name](const Engine::ServerSecrets::Outcome &outcome) {
        m_busy = false;
        refresh();
        if (!outcome.ok) {
            showOutcome(outcome.error, true);
            return;
        }
        if (outcome.sessionOnly)
            showOutcome(tr("The keychain did not answer (%1): %2 is kept until the app quits. "
                           "To keep it, export it as an environment variable and write ${%2} "
                           "instead.")
                                .arg(outcome.error, name),
                        true);
        else if (!outcome.error.isEmpty())
            showOutcome(outcome.error, true);
        else
            showOutcome(tr("%1 is stored in the keychain.").arg(name), false);
        emit secretChanged(name);
    });
}

void ServerSecretsPage::deleteSelected()
{
    const QString name = selectedName();
    if (name.isEmpty() || !m_secrets || m_busy)
        return;
    const QStringList users = m_usage.value(name);
    QString question = tr("Delete the secret %1 from the keychain?").arg(name);
    if (!users.isEmpty())
        question += QLatin1Char(' ')
                    + tr("%n server(s) read it and will not start without it: %1.", nullptr,
                         int(users.size()))
                              .arg(users.join(QLatin1String(", ")));
    auto box = new QMessageBox(QMessageBox::Question, tr("Delete a server secret"), question,
                               QMessageBox::Yes | QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("deleteSecretQuestion"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setDefaultButton(QMessageBox::Cancel);
    connect(box, &QMessageBox::finished, this, [this, name](int result) {
        if (result != QMessageBox::Yes)
            return;
        m_busy = true;
        updateButtons();
        m_secrets->remove(name, this, [this, name](const Engine::ServerSecrets::Outcome &outcome) {
            m_busy = false;
            refresh();
            if (!outcome.ok)
                showOutcome(tr("%1 could not be deleted: %2").arg(name, outcome.error), true);
            else
                showOutcome(tr("%1 is deleted.").arg(name), false);
            emit secretChanged(name);
        });
    });
    box->open();
}

} // namespace Gui
