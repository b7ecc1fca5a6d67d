#include "installbundledialog.h"

#include "textlabel.h"

#include <engine/install/bundleinstaller.h>

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace Gui {

using Mcp::Bundles::Signature;
using Mcp::Bundles::UserConfigOption;

namespace {

// The bundle's icon (a PNG inside it, at most 1 MiB), or a null pixmap.
QPixmap iconOf(const Mcp::Bundles::Bundle &bundle)
{
    if (bundle.manifest.icon.isEmpty())
        return {};
    QPixmap pixmap;
    pixmap.loadFromData(Mcp::Bundles::entryData(bundle, bundle.manifest.icon, 1024 * 1024));
    return pixmap.isNull() ? pixmap
                           : pixmap.scaled(48, 48, Qt::KeepAspectRatio, Qt::SmoothTransformation);
}

} // namespace

InstallBundleDialog::InstallBundleDialog(Options options, QWidget *parent)
    : QDialog(parent)
    , m_options(std::move(options))
{
    setObjectName(QStringLiteral("installBundleDialog"));
    const Mcp::Bundles::Manifest &m = m_options.bundle.manifest;
    const bool update = m_options.installed.has_value();
    const QMap<QString, QString> kept
            = update ? m_options.installed->userConfig : QMap<QString, QString>();
    setWindowTitle(update ? tr("Update %1").arg(m.title()) : tr("Install %1").arg(m.title()));

    auto icon = new QLabel(this);
    const QPixmap pixmap = iconOf(m_options.bundle);
    icon->setPixmap(pixmap);
    icon->setVisible(!pixmap.isNull());
    auto title = textLabel(
            this,
            update ? tr("%1: %2 → %3").arg(m.title(), m_options.installed->version, m.version)
                   : tr("%1 %2").arg(m.title(), m.version),
            QStringLiteral("bundleTitle"));
    QFont bold = title->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.15);
    title->setFont(bold);
    QString byline = tr("by %1").arg(m.authorName);
    if (!m.homepage.isEmpty())
        byline += QStringLiteral(" — ") + m.homepage;
    auto head = new QHBoxLayout;
    head->addWidget(icon, 0, Qt::AlignTop);
    auto headText = new QVBoxLayout;
    headText->addWidget(title);
    headText->addWidget(textLabel(this, byline));
    head->addLayout(headText, 1);

    // Who vouches for it, plainly.
    const Signature &signature = m_options.bundle.signature;
    QString signedBy;
    switch (signature.status) {
    case Signature::Status::Signed:
        signedBy = tr("Signed by %1 (certified by %2).").arg(signature.signer, signature.issuer);
        break;
    case Signature::Status::SelfSigned:
        signedBy = tr("Signed by \"%1\" with a certificate of its own: nobody vouches for who that "
                      "is.")
                           .arg(signature.signer);
        break;
    case Signature::Status::Untrusted:
        signedBy = tr("Signed by \"%1\", whose certificate this system does not trust.")
                           .arg(signature.signer);
        break;
    default:
        signedBy = tr("Not signed: nothing says who made this file. Install it only if you trust "
                      "where it came from.");
        break;
    }
    auto signatureLabel = textLabel(this, signedBy, QStringLiteral("bundleSignature"));
    if (signature.status != Signature::Status::Signed) {
        QFont font = signatureLabel->font();
        font.setBold(true);
        signatureLabel->setFont(font);
    }
    QStringList declared;
    for (const auto &[name, description] : m.tools)
        declared << name;
    QString offers = m.description.simplified();
    if (!declared.isEmpty())
        offers += QLatin1Char('\n') + tr("Tools: %1").arg(declared.join(QLatin1String(", ")));
    QStringList prompts;
    for (const auto &[name, description] : m.prompts)
        prompts << name;
    if (!prompts.isEmpty())
        offers += QLatin1Char('\n') + tr("Prompts: %1").arg(prompts.join(QLatin1String(", ")));
    offers += QLatin1Char('\n')
              + tr("Runs with %1; unpacked into %2.")
                        .arg(m.serverType,
                             QDir::toNativeSeparators(
                                     QDir(m_options.extensionsDir.isEmpty()
                                                  ? Engine::BundleInstaller::defaultExtensionsDir()
                                                  : m_options.extensionsDir)
                                             .filePath(m.name)));

    // The user_config form.
    auto formHost = new QWidget(this);
    auto form = new QFormLayout(formHost);
    form->setContentsMargins(0, 0, 0, 0);
    for (const UserConfigOption &option : m.userConfig) {
        QWidget *editor = nullptr;
        QWidget *row = nullptr;
        if (option.type == UserConfigOption::Type::Boolean) {
            auto box = new QCheckBox(formHost);
            box->setChecked(kept.value(option.key, option.defaults.value(0))
                            == QLatin1String("true"));
            connect(box, &QCheckBox::toggled, this, &InstallBundleDialog::check);
            editor = row = box;
        } else if (option.multiple) {
            auto lines = new QPlainTextEdit(formHost);
            lines->setPlaceholderText(
                    option.defaults.isEmpty()
                            ? tr("one per line")
                            : Mcp::Bundles::expandPlaces(option.defaults.join(QLatin1Char('\n'))));
            lines->setFixedHeight(lines->fontMetrics().lineSpacing() * 4);
            lines->setPlainText(kept.value(option.key));
            connect(lines, &QPlainTextEdit::textChanged, this, &InstallBundleDialog::check);
            editor = row = lines;
        } else {
            auto line = new QLineEdit(formHost);
            // The default as it will be used: "${HOME}" as the home folder it names.
            line->setPlaceholderText(Mcp::Bundles::expandPlaces(option.defaults.value(0)));
            if (option.sensitive) {
                line->setEchoMode(QLineEdit::Password);
                line->setToolTip(tr("Kept in the system keychain, never in a file"));
                if (kept.contains(option.key))
                    line->setPlaceholderText(tr("as it is (type to replace)"));
            } else {
                line->setText(kept.value(option.key));
            }
            connect(line, &QLineEdit::textChanged, this, &InstallBundleDialog::check);
            editor = row = line;
        }
        const bool directory = option.type == UserConfigOption::Type::Directory;
        if (directory || option.type == UserConfigOption::Type::File) {
            auto browse = new QPushButton(tr("Browse…"), formHost);
            browse->setObjectName(QStringLiteral("browse:") + option.key);
            connect(browse, &QPushButton::clicked, this, [this, editor, directory] {
                const QString chosen = directory ? QFileDialog::getExistingDirectory(this)
                                                 : QFileDialog::getOpenFileName(this);
                if (chosen.isEmpty())
                    return;
                if (auto line = qobject_cast<QLineEdit *>(editor))
                    line->setText(chosen);
                else if (auto lines = qobject_cast<QPlainTextEdit *>(editor))
                    lines->appendPlainText(chosen);
            });
            auto box = new QWidget(formHost);
            auto boxLayout = new QHBoxLayout(box);
            boxLayout->setContentsMargins(0, 0, 0, 0);
            boxLayout->addWidget(editor, 1);
            boxLayout->addWidget(browse, 0, Qt::AlignTop);
            row = box;
        }
        editor->setObjectName(QStringLiteral("option:") + option.key);
        QString label = option.title.isEmpty() ? option.key : option.title;
        if (option.required)
            label += QStringLiteral(" *");
        if (option.type == UserConfigOption::Type::Number && (option.min || option.max))
            label += QStringLiteral(" (%1–%2)")
                             .arg(option.min ? QString::number(*option.min) : QString(),
                                  option.max ? QString::number(*option.max) : QString());
        auto cell = new QWidget(formHost);
        auto cellLayout = new QVBoxLayout(cell);
        cellLayout->setContentsMargins(0, 0, 0, 0);
        cellLayout->addWidget(row);
        if (!option.description.isEmpty()) {
            auto note = textLabel(cell, option.description);
            note->setForegroundRole(QPalette::PlaceholderText);
            cellLayout->addWidget(note);
        }
        form->addRow(label + QLatin1Char(':'), cell);
        m_answers << Answer{option, editor};
    }
    if (m_answers.isEmpty())
        form->addRow(textLabel(formHost, tr("It asks for nothing.")));
    auto scroll = new QScrollArea(this);
    scroll->setWidget(formHost);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    m_problem = textLabel(this, QString(), QStringLiteral("bundleProblem"));
    auto buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_installButton = buttons->addButton(update ? tr("&Update") : tr("&Install"),
                                         QDialogButtonBox::AcceptRole);
    m_installButton->setObjectName(QStringLiteral("installBundleButton"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_installButton, &QPushButton::clicked, this, &InstallBundleDialog::install);

    auto layout = new QVBoxLayout(this);
    layout->addLayout(head);
    layout->addWidget(signatureLabel);
    layout->addWidget(textLabel(this, offers, QStringLiteral("bundleOffers")));
    layout->addWidget(scroll, 1);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);
    resize(620, 560);
    check();
}

QMap<QString, QString> InstallBundleDialog::answers(bool withKept) const
{
    QMap<QString, QString> out;
    if (withKept && m_options.installed)
        out = m_options.installed->userConfig;
    for (const Answer &answer : m_answers) {
        QString value;
        if (auto line = qobject_cast<QLineEdit *>(answer.editor))
            value = line->text();
        else if (auto box = qobject_cast<QCheckBox *>(answer.editor))
            value = box->isChecked() ? QStringLiteral("true") : QStringLiteral("false");
        else if (auto lines = qobject_cast<QPlainTextEdit *>(answer.editor))
            value = lines->toPlainText();
        if (!value.trimmed().isEmpty())
            out.insert(answer.option.key, value);
    }
    return out;
}

QString InstallBundleDialog::problem() const
{
    return m_problem->text();
}

void InstallBundleDialog::check()
{
    QString problem;
    Mcp::Bundles::resolveCommand(m_options.bundle.manifest, QStringLiteral("/"), answers(true), {},
                                 &problem);
    QStringList notes;
    if (!problem.isEmpty())
        notes << problem;
    if (const QString missing = Engine::BundleInstaller::missingRuntime(m_options.bundle.manifest);
        !missing.isEmpty())
        notes << missing;
    m_problem->setText(notes.join(QLatin1Char('\n')));
    m_installButton->setEnabled(problem.isEmpty() && !m_busy);
}

void InstallBundleDialog::install()
{
    if (m_busy)
        return;
    m_busy = true;
    m_installButton->setEnabled(false);
    m_problem->setText(m_options.installed ? tr("Updating…") : tr("Installing…"));
    Engine::BundleInstaller::Request request;
    request.bundle = m_options.bundle;
    request.answers = answers();
    request.file = m_options.userFile;
    request.extensionsDir = m_options.extensionsDir;
    auto installer = new Engine::BundleInstaller(m_options.secrets, this);
    auto done = [this](const Engine::InstallOutcome &outcome) {
        m_busy = false;
        if (!outcome.ok) {
            check();
            m_problem->setText(outcome.error);
            return;
        }
        if (m_options.installed)
            emit updated(m_options.installed->name, m_options.installed->file, outcome.notes);
        else
            emit installed(Engine::ServerInstaller::suggestedName(m_options.bundle.manifest.name),
                           m_options.userFile, outcome.notes);
        accept();
    };
    if (m_options.installed)
        installer->update(request, *m_options.installed, this, done);
    else
        installer->install(request, this, done);
}

} // namespace Gui
