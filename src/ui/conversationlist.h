#pragma once

#include <engine/storage/conversationstore.h>

#include <QDateTime>
#include <QList>
#include <QString>
#include <QWidget>

#include <functional>

class QCheckBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QListWidgetItem;

namespace Gui {

/// The conversation list beside the chat: the conversations of this workspace (or of all of
/// them), newest first, each with its title and when it was last used, a search box over
/// titles, workspaces and (setTextSearch) what the messages say, with the line that says it,
/// rename in place and delete. Shows what it is given
/// (setConversations); opening, renaming and deleting are the window's (signals).
class ConversationList : public QWidget
{
    Q_OBJECT
public:
    enum Role {
        IdRole = Qt::UserRole,
        TitleRole,     // the stored title, before an edit
        WhenRole,      // the second line: when, and (listing all workspaces) where
        WorkspaceRole, // the workspace folder
        LineRole,      // searching: the line of a message that matched, else empty
    };

    explicit ConversationList(QWidget *parent = nullptr);

    /// The workspace whose conversations are listed unless "All workspaces" is checked.
    void setWorkspace(const QString &workspace);
    void setConversations(const QList<Engine::ConversationInfo> &conversations);
    /// The open conversation stands out; an empty id selects none.
    void setCurrent(const QString &id);
    /// What the search box finds in messages among the conversations it was given
    /// (Engine::ConversationStore::search).
    using TextSearch = std::function<QList<Engine::SearchHit>(
            const QString &text, const QList<Engine::ConversationInfo> &among)>;
    void setTextSearch(TextSearch search);
    /// The search box's text, trimmed.
    QString searchText() const;
    /// The stored title of conversation `id` as last given (setConversations), or empty.
    QString titleOf(const QString &id) const;

    QListWidget *view() const { return m_list; }

    /// "Today 14:03", "Yesterday 09:12", "Monday 08:00" within a week, else the date.
    static QString describeTime(const QDateTime &when, const QDateTime &now);

signals:
    void openRequested(const QString &id);
    void renameRequested(const QString &id, const QString &title);
    void deleteRequested(const QString &id);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void rebuild();
    bool inScope(const Engine::ConversationInfo &info) const;
    bool titleMatches(const Engine::ConversationInfo &info, const QStringList &words) const;
    void showContextMenu(const QPoint &pos);
    void itemEdited(QListWidgetItem *item);

    QLineEdit *m_search = nullptr;
    QCheckBox *m_allWorkspaces = nullptr;
    QListWidget *m_list = nullptr;
    QLabel *m_empty = nullptr;
    QList<Engine::ConversationInfo> m_conversations;
    QString m_workspace;
    QString m_current;
    TextSearch m_textSearch;
};

} // namespace Gui
