#pragma once

#include <QImage>
#include <QPlainTextEdit>
#include <QUrl>

#include <functional>

class QCompleter;
class QStringListModel;

namespace Gui {

// The message box. Text is pasted and dropped as text; an image (a screenshot on the
// clipboard) or files (dropped from a file manager) become attachments instead: the window
// hears of them and shows them as chips above the box.
class ComposerEdit : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit ComposerEdit(QWidget *parent = nullptr);

    // Commands offered while the box holds only "/…" (e.g. "/mcp", "/server:prompt"), asked
    // for each time: a popup of those that start with what is typed; Enter or Tab takes one.
    void setCommands(std::function<QStringList()> commands);
    QCompleter *commandCompleter() const { return m_completer; }

signals:
    void imagePasted(const QImage &image);
    void filesDropped(const QList<QUrl> &files);

protected:
    bool canInsertFromMimeData(const QMimeData *source) const override;
    void insertFromMimeData(const QMimeData *source) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    void updateCompletions();

    std::function<QStringList()> m_commands;
    QCompleter *m_completer = nullptr;
    QStringListModel *m_model = nullptr;
};

} // namespace Gui
