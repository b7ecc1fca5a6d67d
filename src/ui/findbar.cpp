#include "findbar.h"

#include "chatview.h"

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QToolButton>

namespace Gui {

FindBar::FindBar(ChatView *chat, QWidget *parent)
    : QWidget(parent)
    , m_chat(chat)
{
    setObjectName(QStringLiteral("findBar"));
    m_text = new QLineEdit(this);
    m_text->setObjectName(QStringLiteral("findText"));
    m_text->setClearButtonEnabled(true);
    m_text->installEventFilter(this);
    connect(m_text, &QLineEdit::textChanged, this, &FindBar::find);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("findStatus"));
    m_status->setMinimumWidth(
            m_status->fontMetrics().horizontalAdvance(QStringLiteral("0000 / 0000")));
    const auto button = [this](const char *name, Qt::ArrowType arrow) {
        auto *tool = new QToolButton(this);
        tool->setObjectName(QLatin1String(name));
        tool->setArrowType(arrow);
        tool->setAutoRaise(true);
        return tool;
    };
    m_previous = button("findPrevious", Qt::UpArrow);
    connect(m_previous, &QToolButton::clicked, this, [this] { step(true); });
    m_next = button("findNext", Qt::DownArrow);
    connect(m_next, &QToolButton::clicked, this, [this] { step(false); });
    m_case = new QCheckBox(this);
    m_case->setObjectName(QStringLiteral("findCase"));
    connect(m_case, &QCheckBox::toggled, this, &FindBar::find);
    m_close = new QToolButton(this);
    m_close->setObjectName(QStringLiteral("findClose"));
    m_close->setAutoRaise(true);
    m_close->setText(QStringLiteral("✕"));
    connect(m_close, &QToolButton::clicked, this, &FindBar::closeBar);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_status);
    layout->addWidget(m_previous);
    layout->addWidget(m_next);
    layout->addWidget(m_case);
    layout->addWidget(m_close);
    retranslateUi();
    hide();
}

void FindBar::open(const QString &text)
{
    if (!text.isEmpty()) {
        const QSignalBlocker blocker(m_text); // one search, below
        m_text->setText(text);
    }
    show();
    m_text->setFocus(Qt::ShortcutFocusReason);
    m_text->selectAll();
    find();
}

void FindBar::refresh()
{
    if (isVisible())
        find();
}

QString FindBar::status() const
{
    return m_status->text();
}

void FindBar::find()
{
    m_chat->findAll(m_text->text(), m_case->isChecked());
    showStatus();
}

void FindBar::step(bool backward)
{
    m_chat->findNext(backward);
    showStatus();
}

void FindBar::closeBar()
{
    m_chat->clearFind();
    hide();
    m_chat->setFocus();
}

void FindBar::showStatus()
{
    const int count = m_chat->findCount();
    if (m_text->text().isEmpty())
        m_status->clear();
    else if (count == 0)
        m_status->setText(tr("No matches"));
    else if (count >= ChatView::MaxFindMatches)
        m_status->setText(tr("%1 of %2+").arg(m_chat->findCurrent()).arg(count));
    else
        m_status->setText(tr("%1 of %2").arg(m_chat->findCurrent()).arg(count));
    m_previous->setEnabled(count > 1);
    m_next->setEnabled(count > 1);
}

void FindBar::retranslateUi()
{
    m_text->setPlaceholderText(tr("Find in this conversation"));
    m_previous->setToolTip(tr("Previous match (Shift+Enter)"));
    m_next->setToolTip(tr("Next match (Enter, F3)"));
    m_case->setText(tr("Match case"));
    m_close->setToolTip(tr("Close (Esc)"));
    showStatus();
}

void FindBar::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void FindBar::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape) {
        closeBar();
        return; // taken: Esc here never stops a reply
    }
    if (event->key() == Qt::Key_F3) {
        step(event->modifiers() & Qt::ShiftModifier);
        return;
    }
    QWidget::keyPressEvent(event);
}

// Enter and Shift+Enter in the field go to the next and previous match.
bool FindBar::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_text && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            step(key->modifiers() & Qt::ShiftModifier);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace Gui
