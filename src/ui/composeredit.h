#pragma once

#include <QImage>
#include <QPlainTextEdit>
#include <QUrl>

namespace Ui {

// The message box. Text is pasted and dropped as text; an image (a screenshot on the
// clipboard) or files (dropped from a file manager) become attachments instead: the window
// hears of them and shows them as chips above the box.
class ComposerEdit : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit ComposerEdit(QWidget *parent = nullptr);

signals:
    void imagePasted(const QImage &image);
    void filesDropped(const QList<QUrl> &files);

protected:
    bool canInsertFromMimeData(const QMimeData *source) const override;
    void insertFromMimeData(const QMimeData *source) override;
};

} // namespace Ui
