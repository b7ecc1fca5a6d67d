#include "attachmentbar.h"

#include <QBuffer>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QIcon>
#include <QImage>
#include <QLocale>
#include <QMessageBox>
#include <QMimeDatabase>
#include <QPixmap>
#include <QPushButton>
#include <QStringDecoder>
#include <QToolButton>
#include <QUrl>

#include <algorithm>

namespace Gui {

AttachmentBar::AttachmentBar(QString workspace, SensitiveMatch sensitive, QWidget *parent)
    : QWidget(parent)
    , m_workspace(std::move(workspace))
    , m_sensitive(std::move(sensitive))
{
    setObjectName(QStringLiteral("attachmentBar"));
    m_attachButton = new QToolButton(this);
    m_attachButton->setAutoRaise(true);
    m_attachButton->setObjectName(QStringLiteral("attachButton"));
    connect(m_attachButton, &QToolButton::clicked, this, &AttachmentBar::choose);
    m_layout = new QHBoxLayout(this);
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->addWidget(m_attachButton);
    m_layout->addStretch(1);
    retranslateUi();
}

void AttachmentBar::retranslateUi()
{
    m_attachButton->setText(tr("Attach…"));
    m_attachButton->setToolTip(tr("Attach files from the workspace; paste or drop images and "
                                  "files into the message box"));
    rebuildChips();
}

std::vector<Engine::Attachment> AttachmentBar::take()
{
    std::vector<Engine::Attachment> out = std::exchange(m_attachments, {});
    rebuildChips();
    return out;
}

void AttachmentBar::set(std::vector<Engine::Attachment> attachments)
{
    m_attachments = std::move(attachments);
    rebuildChips();
}

void AttachmentBar::choose()
{
    auto *dialog = new QFileDialog(window(), tr("Attach files"), m_workspace);
    dialog->setObjectName(QStringLiteral("attachDialog"));
    dialog->setFileMode(QFileDialog::ExistingFiles);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::urlsSelected, this, &AttachmentBar::attachFiles);
    dialog->open();
}

void AttachmentBar::attachFiles(const QList<QUrl> &files)
{
    for (const QUrl &url : files)
        attachFile(url.toLocalFile());
}

// A file as an attachment: an image (as the picture, made small enough to send) or a text
// file (UTF-8, no NUL bytes, at most 256 KiB). Anything else is refused with the reason; a
// file that may hold secrets is attached only when the user says so.
void AttachmentBar::attachFile(const QString &path)
{
    const QFileInfo info(path);
    const QString canonical = info.canonicalFilePath();
    const QDir workspace(m_workspace);
    const QString relative = workspace.relativeFilePath(canonical);
    const bool inside = !canonical.isEmpty() && !relative.startsWith(QLatin1String("../"))
                        && !QDir::isAbsolutePath(relative);
    const QString name = inside ? relative : info.fileName();
    const auto refuse = [this, name](const QString &why) {
        emit refused(tr("Not attached: %1 — %2").arg(name, why));
    };
    if (!info.isFile() || canonical.isEmpty()) {
        refuse(tr("not a file"));
        return;
    }
    const QMimeType type = QMimeDatabase().mimeTypeForFile(info);
    if (type.name().startsWith(QLatin1String("image/"))) {
        QImage image(canonical);
        if (image.isNull())
            refuse(tr("the image could not be read"));
        else
            attachImage(image, info.fileName());
        return;
    }
    if (info.size() > Engine::Attachment::MaxTextBytes) {
        refuse(tr("larger than %1; the model reads text files up to that size")
                       .arg(QLocale().formattedDataSize(Engine::Attachment::MaxTextBytes)));
        return;
    }
    QFile file(canonical);
    if (!file.open(QIODevice::ReadOnly)) {
        refuse(file.errorString());
        return;
    }
    Engine::Attachment attachment{name, QStringLiteral("text/plain"), file.readAll()};
    QStringDecoder utf8(QStringDecoder::Utf8);
    const QString decoded = utf8(attachment.data); // decoded only to find errors
    if (attachment.data.contains('\0') || utf8.hasError()) {
        refuse(tr("not a text file (only text files and images can be attached)"));
        return;
    }
    const auto secret = m_sensitive ? m_sensitive(canonical) : std::nullopt;
    if (!secret) {
        add(std::move(attachment));
        return;
    }
    auto *box = new QMessageBox(
            QMessageBox::Warning, tr("Attach a file that may hold secrets?"),
            tr("%1 matches “%2” in the list of sensitive files. Its content would be sent to the "
               "model's provider.")
                    .arg(name, *secret),
            QMessageBox::Cancel, window());
    box->setObjectName(QStringLiteral("sensitiveAttachmentDialog"));
    QPushButton *attach = box->addButton(tr("Attach"), QMessageBox::AcceptRole);
    attach->setObjectName(QStringLiteral("attachAnywayButton"));
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::buttonClicked, this,
            [this, attach, attachment = std::move(attachment)](QAbstractButton *clicked) {
                if (clicked == attach)
                    add(attachment);
            });
    box->open();
}

// An image as PNG, scaled down until it fits what the providers take (and a model looks at:
// 2,048 pixels a side); as JPEG when even that is too big.
void AttachmentBar::attachImage(const QImage &image, const QString &name)
{
    QImage scaled = image;
    if (std::max(scaled.width(), scaled.height()) > 2048)
        scaled = scaled.scaled(2048, 2048, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    Engine::Attachment attachment{name, QStringLiteral("image/png"), {}};
    QBuffer buffer(&attachment.data);
    buffer.open(QIODevice::WriteOnly);
    scaled.save(&buffer, "PNG");
    if (attachment.data.size() > Engine::Attachment::MaxImageBytes) {
        attachment.data.clear();
        buffer.seek(0);
        scaled.convertToFormat(QImage::Format_RGB32).save(&buffer, "JPEG", 85);
        attachment.mimeType = QStringLiteral("image/jpeg");
    }
    if (attachment.data.isEmpty() || attachment.data.size() > Engine::Attachment::MaxImageBytes) {
        emit refused(tr("Not attached: %1 — the image could not be made small enough").arg(name));
        return;
    }
    add(std::move(attachment));
}

void AttachmentBar::add(Engine::Attachment attachment)
{
    if (int(m_attachments.size()) >= Engine::Attachment::MaxPerMessage) {
        emit refused(tr("Not attached: %1 — a message carries at most %2 attachments")
                             .arg(attachment.name)
                             .arg(Engine::Attachment::MaxPerMessage));
        return;
    }
    m_attachments.push_back(std::move(attachment));
    rebuildChips();
}

// One chip per attachment: its name and size (a thumbnail for an image) and a button that
// takes it off the message.
void AttachmentBar::rebuildChips()
{
    // The row: Attach…, then a chip per attachment, then room.
    qDeleteAll(findChildren<QToolButton *>(QStringLiteral("attachmentChip"),
                                           Qt::FindDirectChildrenOnly));
    for (size_t i = 0; i < m_attachments.size(); ++i) {
        const Engine::Attachment &attachment = m_attachments[i];
        auto *chip = new QToolButton(this);
        chip->setObjectName(QStringLiteral("attachmentChip"));
        chip->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        chip->setText(QStringLiteral("%1  ✕").arg(attachment.name));
        chip->setToolTip(
                tr("%1, %2 — click to remove it from the message")
                        .arg(attachment.name, QLocale().formattedDataSize(attachment.data.size())));
        if (attachment.isImage()) {
            QImage image;
            image.loadFromData(attachment.data);
            chip->setIcon(QIcon(QPixmap::fromImage(
                    image.scaled(32, 32, Qt::KeepAspectRatio, Qt::SmoothTransformation))));
        }
        connect(chip, &QToolButton::clicked, this, [this, i] {
            if (i < m_attachments.size())
                m_attachments.erase(m_attachments.begin() + std::ptrdiff_t(i));
            QMetaObject::invokeMethod(this, &AttachmentBar::rebuildChips, Qt::QueuedConnection);
        });
        m_layout->insertWidget(int(i) + 1, chip);
    }
}

} // namespace Gui
