#include "composeredit.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QKeyEvent>
#include <QMimeData>
#include <QRegularExpression>
#include <QScrollBar>
#include <QStringListModel>

#include <algorithm>

namespace Gui {

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

void ComposerEdit::setCommands(std::function<QStringList()> commands)
{
    m_commands = std::move(commands);
    if (m_completer)
        return;
    m_model = new QStringListModel(this);
    m_completer = new QCompleter(m_model, this);
    m_completer->setWidget(this);
    m_completer->setCaseSensitivity(Qt::CaseInsensitive);
    m_completer->setCompletionMode(QCompleter::PopupCompletion);
    m_completer->popup()->setObjectName(QStringLiteral("commandPopup"));
    connect(m_completer, qOverload<const QString &>(&QCompleter::activated), this,
            [this](const QString &command) {
                setPlainText(command);
                moveCursor(QTextCursor::End);
            });
    connect(this, &QPlainTextEdit::textChanged, this, &ComposerEdit::updateCompletions);
}

void ComposerEdit::updateCompletions()
{
    const QString text = toPlainText();
    const bool command = text.startsWith(QLatin1Char('/'))
                         && !text.contains(QRegularExpression(QStringLiteral("\\s")));
    if (!command || !m_commands) {
        m_completer->popup()->hide();
        return;
    }
    m_model->setStringList(m_commands());
    m_completer->setCompletionPrefix(text);
    if (m_completer->completionCount() == 0
        || (m_completer->completionCount() == 1 && m_completer->currentCompletion() == text)) {
        m_completer->popup()->hide();
        return;
    }
    QRect rect = cursorRect();
    rect.setWidth(m_completer->popup()->sizeHintForColumn(0)
                  + m_completer->popup()->verticalScrollBar()->sizeHint().width());
    m_completer->complete(rect);
}

void ComposerEdit::keyPressEvent(QKeyEvent *event)
{
    // While the popup is open, these keys are the completer's (it takes or closes one).
    if (m_completer && m_completer->popup()->isVisible()) {
        switch (event->key()) {
        case Qt::Key_Enter:
        case Qt::Key_Return:
        case Qt::Key_Escape:
        case Qt::Key_Tab:
        case Qt::Key_Backtab:
            event->ignore();
            return;
        default:
            break;
        }
    }
    QPlainTextEdit::keyPressEvent(event);
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

} // namespace Gui
