#include "resultviewer.h"

#include <climits>

#include <QClipboard>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSaveFile>
#include <QThread>
#include <QVBoxLayout>

namespace Gui {

namespace {

bool isContinuation(char c)
{
    return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

} // namespace

qsizetype sliceEnd(const QByteArray &utf8, qsizetype from, qsizetype maxBytes)
{
    qsizetype end = std::min(utf8.size(), from + maxBytes);
    if (end == utf8.size())
        return end;
    // Only the slice's second half is searched: a 20 MB result without a newline would
    // otherwise be scanned back to its start once per page.
    const qsizetype half = from + maxBytes / 2;
    const qsizetype newline = QByteArrayView(utf8.constData() + half, end - half).lastIndexOf('\n');
    if (newline >= 0)
        return half + newline + 1;
    while (end > from && isContinuation(utf8.at(end)))
        --end;
    return end;
}

namespace {

// Lines longer than PreviewLineChars end there with an ellipsis: laying out one 64 KiB line
// (a minified document, a base64 blob) takes a text layout a third of a second.
QString cutLongLines(QString text, bool &cut)
{
    qsizetype from = 0;
    while (from < text.size()) {
        qsizetype end = text.indexOf(QLatin1Char('\n'), from);
        if (end < 0)
            end = text.size();
        if (end - from > PreviewLineChars) {
            qsizetype keep = from + PreviewLineChars;
            if (text.at(keep - 1).isHighSurrogate())
                --keep;
            text.replace(keep, end - keep, QStringLiteral("…"));
            end = keep + 1;
            cut = true;
        }
        from = end + 1;
    }
    return text;
}

} // namespace

ResultPreview makePreview(const QByteArray &utf8)
{
    ResultPreview preview;
    if (utf8.size() <= PreviewBytes) {
        preview.text = cutLongLines(QString::fromUtf8(utf8), preview.cut);
        if (preview.cut)
            preview.note = QCoreApplication::translate(
                                   "Gui::ResultViewer",
                                   "Lines longer than %1 characters are cut short here.")
                                   .arg(QLocale().toString(PreviewLineChars));
        return preview;
    }
    preview.cut = true;
    const qsizetype end = sliceEnd(utf8, 0, PreviewBytes);
    preview.text = cutLongLines(QString::fromUtf8(utf8.constData(), end), preview.cut);
    const QLocale locale;
    const int lines = int(std::min<qsizetype>(utf8.count('\n') + 1, INT_MAX));
    preview.note
            = QCoreApplication::translate("Gui::ResultViewer",
                                          "Showing the first %1 of %2 (%Ln lines).", nullptr, lines)
                      .arg(locale.formattedDataSize(end), locale.formattedDataSize(utf8.size()));
    return preview;
}

ResultViewer::ResultViewer(const QString &title, QByteArray utf8, QWidget *parent,
                           std::shared_ptr<const void> owner)
    : QDialog(parent)
    , m_utf8(std::move(utf8))
    , m_owner(std::move(owner))
{
    setObjectName(QStringLiteral("resultViewer"));
    setWindowTitle(title);
    for (qsizetype from = 0; from < m_utf8.size() || m_pages.isEmpty();) {
        m_pages << from;
        if (m_utf8.isEmpty())
            break;
        from = sliceEnd(m_utf8, from, PageBytes);
    }
    m_view = new QPlainTextEdit(this);
    m_view->setObjectName(QStringLiteral("resultViewerText"));
    m_view->setReadOnly(true);
    m_view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_view->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_position = new QLabel(this);
    m_position->setObjectName(QStringLiteral("resultViewerPosition"));
    m_previous = new QPushButton(tr("&Previous"), this);
    m_next = new QPushButton(tr("&Next"), this);
    connect(m_previous, &QPushButton::clicked, this, [this] { showPage(m_page - 1); });
    connect(m_next, &QPushButton::clicked, this, [this] { showPage(m_page + 1); });
    auto *pager = new QHBoxLayout;
    pager->addWidget(m_previous);
    pager->addWidget(m_position, 1, Qt::AlignCenter);
    pager->addWidget(m_next);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton *save = buttons->addButton(tr("&Save as…"), QDialogButtonBox::ActionRole);
    save->setObjectName(QStringLiteral("saveResultButton"));
    QPushButton *copy = buttons->addButton(tr("&Copy all"), QDialogButtonBox::ActionRole);
    copy->setObjectName(QStringLiteral("copyResultButton"));
    connect(save, &QPushButton::clicked, this, &ResultViewer::saveAs);
    connect(copy, &QPushButton::clicked, this,
            [this] { QGuiApplication::clipboard()->setText(QString::fromUtf8(m_utf8)); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_view, 1);
    layout->addLayout(pager);
    for (QWidget *widget : {static_cast<QWidget *>(m_previous), static_cast<QWidget *>(m_next),
                            static_cast<QWidget *>(m_position)})
        widget->setVisible(m_pages.size() > 1);
    layout->addWidget(buttons);
    resize(900, 640);
    showPage(0);
}

void ResultViewer::showPage(int page)
{
    if (page < 0 || page >= m_pages.size())
        return;
    m_page = page;
    m_view->setPlainText(pageText());
    const QLocale locale;
    m_position->setText(tr("Page %1 of %2 (%3)")
                                .arg(locale.toString(page + 1), locale.toString(m_pages.size()),
                                     locale.formattedDataSize(m_utf8.size())));
    m_previous->setEnabled(page > 0);
    m_next->setEnabled(page + 1 < m_pages.size());
}

QString ResultViewer::pageText() const
{
    const qsizetype from = m_pages.value(m_page);
    const qsizetype to = m_page + 1 < m_pages.size() ? m_pages.at(m_page + 1) : m_utf8.size();
    return QString::fromUtf8(m_utf8.constData() + from, to - from);
}

// The whole text, written by a worker thread: 20 MB on a slow disk must not freeze the window.
void ResultViewer::saveAs()
{
    const QString file = QFileDialog::getSaveFileName(this, tr("Save the result"));
    if (file.isEmpty())
        return;
    QPointer<ResultViewer> self(this);
    QThread *worker = QThread::create([self, file, bytes = m_utf8, owner = m_owner] {
        QSaveFile out(file);
        QString error;
        if (!out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size() || !out.commit())
            error = out.errorString();
        QMetaObject::invokeMethod(qApp, [self, file, error] {
            if (!self || error.isEmpty())
                return;
            auto *box = new QMessageBox(QMessageBox::Warning, tr("Save the result"),
                                        tr("Could not write %1: %2").arg(file, error),
                                        QMessageBox::Ok, self);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        });
    });
    connect(worker, &QThread::finished, worker, &QObject::deleteLater);
    worker->start();
}

} // namespace Gui
