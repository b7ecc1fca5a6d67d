#pragma once

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QToolButton;

namespace Gui {

class ChatView;

// Find in the open conversation (Ctrl+F): a line under the chat with the text, where the
// current match is ("3 of 12"), Previous and Next (Shift+Enter, Enter, F3), Match case, and
// Close (Esc, which then leaves a running reply alone). Every match is highlighted in the chat
// as it is typed (ChatView::findAll).
class FindBar : public QWidget
{
    Q_OBJECT
public:
    FindBar(ChatView *chat, QWidget *parent = nullptr);

    // Shows the bar with its text (or `text`) selected, ready to type over; finds again.
    void open(const QString &text = QString());
    // The conversation changed under it: finds again, if it is open.
    void refresh();
    QString status() const;

protected:
    void changeEvent(QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void find();
    void step(bool backward);
    void closeBar();
    void showStatus();
    void retranslateUi();

    ChatView *m_chat;
    QLineEdit *m_text = nullptr;
    QLabel *m_status = nullptr;
    QToolButton *m_previous = nullptr;
    QToolButton *m_next = nullptr;
    QCheckBox *m_case = nullptr;
    QToolButton *m_close = nullptr;
};

} // namespace Gui
