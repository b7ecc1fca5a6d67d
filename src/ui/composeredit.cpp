#include "composeredit.h"

#include <QMimeData>

#include <algorithm>

namespace Ui {

namespace {

QList<QUrl> localFiles(const QMimeData *source)
{
    QList<QUrl> files;
    if (!source->hasUrls())
        return files;
    const QList<QUrl> urls = source->urls();
    std::copy_if(urls.begin(), urls.end(), std::back_inserter(files),
                 [](const QUrl &url) { return url.isLocalFile(); });
    return files;
}

} // namespace

ComposerEdit::ComposerEdit(QWidget *parent)
    : QPlainTextEdit(parent)
{
}

bool ComposerEdit::canInsertFromMimeData(const QMimeData *source) const
{
    return source->hasImage() || !localFiles(source).isEmpty()
           || QPlainTextEdit::canInsertFromMimeData(source);
}

void ComposerEdit::insertFromMimeData(const QMimeData *source)
{
    // Files first: a file manager also offers their paths as text.
    if (const QList<QUrl> files = localFiles(source); !files.isEmpty()) {
        emit filesDropped(files);
        return;
    }
    if (source->hasImage()) {
        const QImage image = qvariant_cast<QImage>(source->imageData());
        if (!image.isNull()) {
            emit imagePasted(image);
            return;
        }
    }
    QPlainTextEdit::insertFromMimeData(source);
}

} // namespace Ui
