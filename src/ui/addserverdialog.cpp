#include "addserverdialog.h"

#include "registryicons.h"
#include "textlabel.h"

#include <engine/install/bundledownload.h>

#include <mcp/registry/registryclient.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace Gui {

using Mcp::Registry::Field;
using Mcp::Registry::Listing;
using Mcp::Registry::RegistryClient;

namespace {

// "npm @x/y 1.0.0", "remote: https://…" — how one way of running the entry reads in the list.
QString packageText(const Mcp::Registry::Package &package)
{
    return QStringLiteral("%1 %2 %3")
            .arg(package.registryType, package.identifier, package.version);
}

} // namespace

AddServerDialog::AddServerDialog(Options options, QWidget *parent)
    : QDialog(parent)
    , m_options(std::move(options))
{
    setObjectName(QStringLiteral("addServerDialog"));
    setWindowTitle(tr("Add a server"));
    m_client = new RegistryClient(m_options.registry, this);
    m_client->setCacheDir(m_options.cacheDir);

    // ---- left: the search
    m_searchEdit = new QLineEdit(m_options.search, this);
    m_searchEdit->setObjectName(QStringLiteral("registrySearchEdit"));
    m_searchEdit->setPlaceholderText(tr("Search the MCP Registry"));
    m_searchEdit->setClearButtonEnabled(true);
    m_list = new QListWidget(this);
    m_list->setIconSize(QSize(IconSide, IconSide));
    m_icons = new RegistryIcons(this);
    QPixmap blank(IconSide, IconSide);
    blank.fill(Qt::transparent);
    m_blankIcon = QIcon(blank);
    m_list->setObjectName(QStringLiteral("registryResults"));
    m_list->setWordWrap(true);
    m_list->setUniformItemSizes(false);
    m_list->setTextElideMode(Qt::ElideRight);
    m_list->setSpacing(2);
    m_searchStatus = textLabel(this, QString(), QStringLiteral("registryStatus"));
    m_moreButton = new QPushButton(tr("&More results"), this);
    m_moreButton->setObjectName(QStringLiteral("moreResultsButton"));
    m_moreButton->hide();
    auto left = new QWidget(this);
    auto leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_searchEdit);
    leftLayout->addWidget(m_list, 1);
    leftLayout->addWidget(m_moreButton);
    leftLayout->addWidget(m_searchStatus);

    // ---- right: the chosen entry and its form
    m_details = new QStackedWidget(this);
    auto nothing = textLabel(this);
    nothing->setText(tr("Choose a server to see what it runs and what it asks for."));
    nothing->setAlignment(Qt::AlignCenter);
    m_details->addWidget(nothing);
    auto page = new QWidget(this);
    m_title = textLabel(page, QString(), QStringLiteral("serverTitle"));
    QFont bold = m_title->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.15);
    m_title->setFont(bold);
    m_about = textLabel(page, QString(), QStringLiteral("serverAbout"));
    m_wayCombo = new QComboBox(page);
    m_wayCombo->setObjectName(QStringLiteral("installWayCombo"));
    m_formHost = new QWidget(page);
    m_form = new QFormLayout(m_formHost);
    m_form->setContentsMargins(0, 0, 0, 0);
    auto scroll = new QScrollArea(page);
    scroll->setWidget(m_formHost);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_nameEdit = new QLineEdit(page);
    m_nameEdit->setObjectName(QStringLiteral("serverNameEdit"));
    m_scopeCombo = new QComboBox(page);
    m_scopeCombo->setObjectName(QStringLiteral("scopeCombo"));
    m_scopeCombo->addItem(
            tr("Your configuration (%1)").arg(QDir::toNativeSeparators(m_options.userFile)),
            m_options.userFile);
    if (!m_options.workspaceFile.isEmpty())
        m_scopeCombo->addItem(
                tr("This workspace (%1)").arg(QDir::toNativeSeparators(m_options.workspaceFile)),
                m_options.workspaceFile);
    m_preview = textLabel(page, QString(), QStringLiteral("installPreview"));
    m_preview->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_problem = textLabel(page, QString(), QStringLiteral("installProblem"));
    auto placement = new QFormLayout;
    placement->addRow(tr("Install &as:"), m_wayCombo);
    placement->addRow(tr("&Name:"), m_nameEdit);
    placement->addRow(tr("Add &to:"), m_scopeCombo);
    auto pageLayout = new QVBoxLayout(page);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    pageLayout->addWidget(m_title);
    pageLayout->addWidget(m_about);
    pageLayout->addLayout(placement);
    pageLayout->addWidget(scroll, 1);
    pageLayout->addWidget(m_preview);
    pageLayout->addWidget(m_problem);
    m_details->addWidget(page);

    auto splitter = new QSplitter(this);
    splitter->addWidget(left);
    splitter->addWidget(m_details);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    splitter->setChildrenCollapsible(false);

    auto buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_installButton = buttons->addButton(tr("&Install"), QDialogButtonBox::AcceptRole);
    m_installButton->setObjectName(QStringLiteral("installButton"));
    m_installButton->setEnabled(false);
    auto layout = new QVBoxLayout(this);
    layout->addWidget(splitter, 1);
    layout->addWidget(buttons);
    resize(960, 620);

    m_debounce.setSingleShot(true);
    m_debounce.setInterval(SearchDelayMs);
    connect(&m_debounce, &QTimer::timeout, this, &AddServerDialog::search);
    connect(m_searchEdit, &QLineEdit::textChanged, this, [this] { m_debounce.start(); });
    connect(m_moreButton, &QPushButton::clicked, this, [this] {
        const quint64 serial = m_searchSerial;
        m_moreButton->setEnabled(false);
        m_client->search(m_searchEdit->text().trimmed(), m_nextCursor,
                         RegistryClient::DefaultPageSize,
                         [this, serial](RegistryClient::PageResult result) {
                             m_moreButton->setEnabled(true);
                             if (serial != m_searchSerial)
                                 return;
                             if (const QString *error = std::get_if<QString>(&result)) {
                                 m_searchStatus->setText(*error);
                                 return;
                             }
                             const auto &page = std::get<Mcp::Registry::ListPage>(result);
                             m_nextCursor = page.nextCursor;
                             showResults(page.servers, true);
                         });
    });
    connect(m_list, &QListWidget::currentRowChanged, this, &AddServerDialog::choose);
    connect(m_wayCombo, &QComboBox::currentIndexChanged, this, &AddServerDialog::buildForm);
    connect(m_nameEdit, &QLineEdit::textChanged, this, &AddServerDialog::updatePreview);
    connect(m_scopeCombo, &QComboBox::currentIndexChanged, this, &AddServerDialog::updatePreview);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_installButton, &QPushButton::clicked, this, &AddServerDialog::install);
    search();
}

QIcon AddServerDialog::resultIcon(int row) const
{
    const QListWidgetItem *item = m_list->item(row);
    return item && item->icon().cacheKey() != m_blankIcon.cacheKey() ? item->icon() : QIcon();
}

int AddServerDialog::iconsPending() const
{
    return m_icons->pending();
}

int AddServerDialog::resultCount() const
{
    return int(m_results.size());
}

QString AddServerDialog::preview() const
{
    return m_preview->text();
}

void AddServerDialog::search()
{
    m_debounce.stop();
    const quint64 serial = ++m_searchSerial;
    m_searchStatus->setText(tr("Searching…"));
    m_moreButton->hide();
    m_client->search(
            m_searchEdit->text().trimmed(), QString(), RegistryClient::DefaultPageSize,
            [this, serial](RegistryClient::PageResult result) {
                if (serial != m_searchSerial)
                    return; // an answer to what the person typed before
                if (const QString *error = std::get_if<QString>(&result)) {
                    m_results.clear();
                    m_list->clear();
                    m_searchStatus->setText(*error);
                    return;
                }
                const auto &page = std::get<Mcp::Registry::ListPage>(result);
                m_nextCursor = page.nextCursor;
                showResults(page.servers, false);
                if (page.fromCache.isValid())
                    m_searchStatus->setText(
                            tr("Offline: the registry could not be asked; these are "
                               "its results from %1.")
                                    .arg(QLocale().toString(page.fromCache, QLocale::ShortFormat)));
            });
}

void AddServerDialog::showResults(const QList<Listing> &servers, bool append)
{
    if (!append) {
        m_results.clear();
        m_list->clear();
    }
    for (const Listing &listing : servers) {
        if (listing.status == QLatin1String("deleted"))
            continue; // gone from the registry: nothing to install
        const Mcp::Registry::ServerJson &s = listing.server;
        QString head = s.title.isEmpty() ? s.name : s.title;
        head += QStringLiteral("  ") + s.version;
        if (listing.status == QLatin1String("deprecated"))
            head += QLatin1Char(' ') + tr("[deprecated]");
        auto item = new QListWidgetItem(head + QLatin1Char('\n') + s.name + QStringLiteral(" — ")
                                                + s.description.simplified(),
                                        m_list);
        item->setToolTip(s.description);
        // Its icon, once fetched (only for what is listed); a blank one keeps the rows aligned.
        item->setIcon(m_blankIcon);
        const bool dark = palette().color(QPalette::Window).lightness() < 128;
        if (const QString src = RegistryIcons::chooseIcon(s, dark); !src.isEmpty()) {
            item->setData(IconSourceRole, src);
            m_icons->request(src, this, [this, src](const QIcon &icon) {
                if (icon.isNull())
                    return;
                for (int row = 0; row < m_list->count(); ++row) {
                    if (m_list->item(row)->data(IconSourceRole).toString() == src)
                        m_list->item(row)->setIcon(icon);
                }
            });
        }
        if (listing.status == QLatin1String("deprecated"))
            item->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
        m_results << listing;
    }
    // A link (or a name typed whole) names one entry: it is chosen.
    if (m_list->currentRow() < 0) {
        for (int row = 0; row < m_results.size(); ++row) {
            if (m_results.at(row).server.name == m_searchEdit->text().trimmed()) {
                m_list->setCurrentRow(row);
                break;
            }
        }
    }
    m_moreButton->setVisible(!m_nextCursor.isEmpty());
    m_searchStatus->setText(m_results.isEmpty()
                                    ? tr("No server found.")
                                    : tr("%n server(s).", nullptr, int(m_results.size())));
}

void AddServerDialog::choose()
{
    const int row = m_list->currentRow();
    if (row < 0 || row >= m_results.size()) {
        m_details->setCurrentIndex(0);
        m_installButton->setEnabled(false);
        return;
    }
    const Listing &listing = m_results.at(row);
    const Mcp::Registry::ServerJson &s = listing.server;
    m_title->setText(s.title.isEmpty() ? s.name : s.title);
    QStringList about{tr("%1, version %2").arg(s.name, s.version), s.description};
    if (!s.repositoryUrl.isEmpty())
        about << tr("Source: %1").arg(s.repositoryUrl);
    if (!s.websiteUrl.isEmpty())
        about << tr("Website: %1").arg(s.websiteUrl);
    if (listing.status == QLatin1String("deprecated"))
        about << tr("Deprecated: %1").arg(listing.statusMessage);
    m_about->setText(about.join(QLatin1Char('\n')));
    m_nameEdit->setText(Engine::ServerInstaller::suggestedName(s.name));
    {
        const QSignalBlocker block(m_wayCombo);
        m_wayCombo->clear();
        for (int i = 0; i < s.packages.size(); ++i)
            m_wayCombo->addItem(packageText(s.packages.at(i)), QStringLiteral("package:%1").arg(i));
        for (int i = 0; i < s.remotes.size(); ++i)
            m_wayCombo->addItem(tr("remote: %1").arg(s.remotes.at(i).transport.url),
                                QStringLiteral("remote:%1").arg(i));
    }
    m_details->setCurrentIndex(1);
    buildForm();
}

// One row per question of the chosen package or remote.
void AddServerDialog::buildForm()
{
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
    m_answers.clear();
    for (const Field &field : Engine::ServerInstaller::fields(request())) {
        const Mcp::Registry::Input &input = field.input;
        QWidget *editor = nullptr;
        if (!input.choices.isEmpty()) {
            auto combo = new QComboBox(m_formHost);
            if (!input.isRequired)
                combo->addItem(QString());
            combo->addItems(input.choices);
            combo->setCurrentIndex(std::max(0, combo->findText(input.defaultValue)));
            connect(combo, &QComboBox::currentIndexChanged, this, &AddServerDialog::updatePreview);
            editor = combo;
        } else if (input.format == Mcp::Registry::Input::Format::Boolean) {
            auto check = new QCheckBox(m_formHost);
            check->setChecked(input.defaultValue == QLatin1String("true"));
            connect(check, &QCheckBox::toggled, this, &AddServerDialog::updatePreview);
            editor = check;
        } else if (field.repeated) {
            auto lines = new QPlainTextEdit(m_formHost);
            lines->setPlaceholderText(tr("one per line"));
            lines->setFixedHeight(lines->fontMetrics().lineSpacing() * 4);
            connect(lines, &QPlainTextEdit::textChanged, this, &AddServerDialog::updatePreview);
            editor = lines;
        } else {
            auto line = new QLineEdit(m_formHost);
            if (input.isSecret) {
                line->setEchoMode(QLineEdit::Password);
                line->setToolTip(tr("Kept in the system keychain, never in a file"));
            }
            line->setPlaceholderText(!input.defaultValue.isEmpty() ? input.defaultValue
                                                                   : input.placeholder);
            connect(line, &QLineEdit::textChanged, this, &AddServerDialog::updatePreview);
            editor = line;
        }
        editor->setObjectName(QStringLiteral("answer:") + field.key);
        QString label = field.label;
        if (input.isRequired)
            label += QStringLiteral(" *");
        if (input.isSecret)
            label += QLatin1Char(' ') + tr("(secret)");
        auto row = new QWidget(m_formHost);
        auto rowLayout = new QVBoxLayout(row);
        rowLayout->setContentsMargins(0, 0, 0, 0);
        rowLayout->addWidget(editor);
        if (!input.description.isEmpty()) {
            auto note = textLabel(row);
            note->setText(input.description);
            note->setForegroundRole(QPalette::PlaceholderText);
            rowLayout->addWidget(note);
        }
        m_form->addRow(label + QLatin1Char(':'), row);
        m_answers << Answer{field, editor};
    }
    if (m_answers.isEmpty()) {
        auto none = textLabel(m_formHost);
        none->setText(tr("It asks for nothing."));
        m_form->addRow(none);
    }
    updatePreview();
}

Engine::InstallRequest AddServerDialog::request() const
{
    Engine::InstallRequest request;
    const int row = m_list->currentRow();
    if (row < 0 || row >= m_results.size())
        return request;
    request.server = m_results.at(row).server;
    const QString way = m_wayCombo->currentData().toString();
    const int index = way.section(QLatin1Char(':'), 1).toInt();
    if (way.startsWith(QLatin1String("package:")))
        request.package = index;
    else if (way.startsWith(QLatin1String("remote:")))
        request.remote = index;
    request.name = m_nameEdit->text().trimmed();
    request.file = m_scopeCombo->currentData().toString();
    request.registry = m_options.registry.toString();
    for (const Answer &answer : m_answers) {
        QString value;
        if (auto line = qobject_cast<QLineEdit *>(answer.editor))
            value = line->text();
        else if (auto combo = qobject_cast<QComboBox *>(answer.editor))
            value = combo->currentText();
        else if (auto check = qobject_cast<QCheckBox *>(answer.editor))
            value = check->isChecked() ? QStringLiteral("true") : QStringLiteral("false");
        else if (auto lines = qobject_cast<QPlainTextEdit *>(answer.editor))
            value = lines->toPlainText();
        if (!value.trimmed().isEmpty())
            request.answers[answer.field.key] = value;
    }
    return request;
}

const Mcp::Registry::Package *AddServerDialog::chosenBundle(const Engine::InstallRequest &req) const
{
    if (req.package < 0 || req.package >= req.server.packages.size())
        return nullptr;
    const int row = m_list->currentRow();
    const Mcp::Registry::Package &package = m_results.at(row).server.packages.at(req.package);
    return package.registryType == QLatin1String("mcpb") ? &package : nullptr;
}

void AddServerDialog::updatePreview()
{
    const Engine::InstallRequest req = request();
    // A bundle: it names itself and asks its own questions once downloaded.
    if (const Mcp::Registry::Package *bundle = chosenBundle(req)) {
        const QString problem = Engine::BundleDownload::problem(*bundle);
        m_preview->setText(tr("Downloads: %1\nSHA-256: %2\nThen the bundle's own confirmation "
                              "shows what it is and asks for its settings.")
                                   .arg(bundle->identifier, bundle->fileSha256));
        m_problem->setText(problem);
        m_installButton->setText(tr("&Download…"));
        m_installButton->setEnabled(problem.isEmpty() && !m_busy);
        return;
    }
    m_installButton->setText(tr("&Install"));
    QString problem;
    const std::optional<Mcp::Registry::Plan> plan = Engine::ServerInstaller::preview(req, &problem);
    QStringList names = m_options.existingNames;
    if (problem.isEmpty())
        problem = Engine::ServerInstaller::nameProblem(req.name, names);
    QStringList lines;
    if (plan) {
        lines << (plan->url.isEmpty() ? tr("Runs: %1") : tr("Connects to: %1"))
                         .arg(plan->display());
        // What else it is given, as written: secrets as ${secret:NAME}, never their values.
        for (const auto &[variable, value] : plan->env)
            lines << tr("Environment: %1=%2").arg(variable, value);
        for (const auto &[header, value] : plan->headers)
            lines << tr("Header: %1: %2").arg(header, value);
    }
    m_preview->setText(lines.join(QLatin1Char('\n')));
    QStringList notes;
    if (!problem.isEmpty())
        notes << problem;
    if (plan)
        if (const QString missing = Engine::ServerInstaller::missingRuntime(plan->runtime);
            !missing.isEmpty())
            notes << missing;
    m_problem->setText(notes.join(QLatin1Char('\n')));
    m_installButton->setEnabled(plan && problem.isEmpty() && !m_busy);
}

void AddServerDialog::download(const Mcp::Registry::Package &package)
{
    m_busy = true;
    m_installButton->setEnabled(false);
    m_problem->setText(tr("Downloading…"));
    auto *download = new Engine::BundleDownload(this);
    connect(download, &Engine::BundleDownload::progress, this,
            [this](qint64 received, qint64 total) {
                m_problem->setText(total > 0 ? tr("Downloading… %1 of %2 KiB")
                                                       .arg(received / 1024)
                                                       .arg(total / 1024)
                                             : tr("Downloading… %1 KiB").arg(received / 1024));
            });
    download->fetch(package,
                    m_options.downloadDir.isEmpty() ? Engine::BundleDownload::defaultDir()
                                                    : m_options.downloadDir,
                    this, [this, download](const Engine::BundleDownload::Result &result) {
                        download->deleteLater();
                        m_busy = false;
                        if (!result.error.isEmpty()) {
                            updatePreview();
                            m_problem->setText(result.error);
                            return;
                        }
                        accept();
                        emit bundleDownloaded(result.file);
                    });
}

void AddServerDialog::install()
{
    const Engine::InstallRequest req = request();
    if (const Mcp::Registry::Package *bundle = chosenBundle(req)) {
        if (!m_busy && Engine::BundleDownload::problem(*bundle).isEmpty())
            download(*bundle);
        return;
    }
    QString problem;
    if (m_busy || !Engine::ServerInstaller::preview(req, &problem))
        return;
    m_busy = true;
    m_installButton->setEnabled(false);
    m_problem->setText(tr("Installing…"));
    auto installer = new Engine::ServerInstaller(m_options.secrets, this);
    const bool workspace = req.file == m_options.workspaceFile;
    installer->install(req, this, [this, req, workspace](const Engine::InstallOutcome &outcome) {
        m_busy = false;
        if (!outcome.ok) {
            m_problem->setText(outcome.error);
            updatePreview();
            m_problem->setText(outcome.error);
            return;
        }
        emit installed(req.name, req.file, workspace, outcome.notes);
        accept();
    });
}

} // namespace Gui
