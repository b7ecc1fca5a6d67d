#include "conversationlist.h"

#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QHash>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QMenu>
#include <QPainter>
#include <QSignalBlocker>
#include <QStyledItemDelegate>
#include <QVBoxLayout>

namespace Gui {

namespace {

// Two lines per conversation: the title, and below it (smaller, dimmed) when it was last
// used. An edit changes the title only, in the first line's place.
class ConversationDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override
    {
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        const QString title = opt.text;
        // Searching, the line that matched; else when it was last used.
        const QString matched = index.data(ConversationList::LineRole).toString();
        const QString when
                = matched.isEmpty() ? index.data(ConversationList::WhenRole).toString() : matched;
        opt.text.clear();
        const QWidget *widget = opt.widget;
        QStyle *style = widget ? widget->style() : QApplication::style();
        style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

        const QRect text = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget)
                                   .adjusted(2, 0, -2, 0);
        const bool selected = opt.state & QStyle::State_Selected;
        const QPalette::ColorGroup group
                = opt.state & QStyle::State_Enabled ? QPalette::Normal : QPalette::Disabled;
        painter->save();
        painter->setFont(opt.font);
        painter->setPen(
                opt.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text));
        const QFontMetrics titleMetrics(opt.font);
        QRect line = text;
        line.setHeight(titleMetrics.height());
        painter->drawText(line, Qt::AlignLeft | Qt::AlignVCenter,
                          titleMetrics.elidedText(title, Qt::ElideRight, line.width()));
        QFont small = opt.font;
        small.setPointSizeF(small.pointSizeF() * 0.85);
        const QFontMetrics smallMetrics(small);
        painter->setFont(small);
        QColor dim = opt.palette.color(group, selected ? QPalette::HighlightedText
                                                       : QPalette::PlaceholderText);
        if (selected)
            dim.setAlphaF(0.75f);
        painter->setPen(dim);
        line.translate(0, line.height());
        line.setHeight(smallMetrics.height());
        painter->drawText(
                line, Qt::AlignLeft | Qt::AlignVCenter,
                smallMetrics.elidedText(when, matched.isEmpty() ? Qt::ElideMiddle : Qt::ElideRight,
                                        line.width()));
        painter->restore();
    }

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QSize size = QStyledItemDelegate::sizeHint(option, index);
        QFont small = option.font;
        small.setPointSizeF(small.pointSizeF() * 0.85);
        const int height = QFontMetrics(option.font).height() + QFontMetrics(small).height() + 8;
        size.setHeight(std::max(size.height(), height));
        return size;
    }

    void updateEditorGeometry(QWidget *editor, const QStyleOptionViewItem &option,
                              const QModelIndex &index) const override
    {
        QStyledItemDelegate::updateEditorGeometry(editor, option, index);
        QRect rect = editor->geometry();
        rect.setHeight(std::min(rect.height(), editor->sizeHint().height()));
        editor->setGeometry(rect);
    }
};

QString workspaceName(const QString &workspace)
{
    const QString name = QDir(workspace).dirName();
    return name.isEmpty() ? QDir::toNativeSeparators(workspace) : name;
}

} // namespace

ConversationList::ConversationList(QWidget *parent)
    : QWidget(parent)
{
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("conversationSearch"));
    m_search->setClearButtonEnabled(true);
    connect(m_search, &QLineEdit::textChanged, this, &ConversationList::rebuild);

    m_allWorkspaces = new QCheckBox(this);
    m_allWorkspaces->setObjectName(QStringLiteral("allWorkspaces"));
    connect(m_allWorkspaces, &QCheckBox::toggled, this, &ConversationList::rebuild);

    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("conversationList"));
    m_list->setItemDelegate(new ConversationDelegate(m_list));
    m_list->setUniformItemSizes(true);
    m_list->setTextElideMode(Qt::ElideRight);
    m_list->setContextMenuPolicy(Qt::CustomContextMenu);
    // A click opens a conversation (so do Enter and a double click).
    const auto open = [this](QListWidgetItem *item) {
        emit openRequested(item->data(IdRole).toString());
    };
    connect(m_list, &QListWidget::itemClicked, this, open);
    connect(m_list, &QListWidget::itemActivated, this, open);
    connect(m_list, &QListWidget::customContextMenuRequested, this,
            &ConversationList::showContextMenu);
    // Rename in place: F2 (or the context menu) edits the title, Enter records it.
    m_list->setEditTriggers(QAbstractItemView::EditKeyPressed);
    connect(m_list, &QListWidget::itemChanged, this, &ConversationList::itemEdited);

    m_empty = new QLabel(this);
    m_empty->setObjectName(QStringLiteral("conversationListEmpty"));
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    m_empty->setForegroundRole(QPalette::PlaceholderText);
    m_empty->setMargin(8);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_search);
    layout->addWidget(m_allWorkspaces);
    layout->addWidget(m_list, 1);
    layout->addWidget(m_empty, 1);
    retranslateUi();
    rebuild();
}

void ConversationList::retranslateUi()
{
    m_search->setPlaceholderText(tr("Search conversations"));
    m_allWorkspaces->setText(tr("All workspaces"));
    m_allWorkspaces->setToolTip(tr("List the conversations of every workspace, not only of "
                                   "this one"));
}

void ConversationList::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
        rebuild(); // dates ("Today", "Yesterday") and the empty list's text
    }
    QWidget::changeEvent(event);
}

void ConversationList::setWorkspace(const QString &workspace)
{
    m_workspace = workspace.isEmpty() ? QString() : QDir::cleanPath(workspace);
    rebuild();
}

void ConversationList::setConversations(const QList<Engine::ConversationInfo> &conversations)
{
    m_conversations = conversations;
    rebuild();
}

void ConversationList::setCurrent(const QString &id)
{
    m_current = id;
    const QSignalBlocker blocker(m_list);
    m_list->setCurrentItem(nullptr);
    for (int row = 0; row < m_list->count(); ++row) {
        QListWidgetItem *item = m_list->item(row);
        if (!id.isEmpty() && item->data(IdRole).toString() == id)
            m_list->setCurrentItem(item);
    }
}

QString ConversationList::describeTime(const QDateTime &when, const QDateTime &now)
{
    if (!when.isValid())
        return QString();
    const QLocale locale;
    const QDateTime local = when.toLocalTime();
    const QString time = locale.toString(local.time(), QLocale::ShortFormat);
    const qint64 days = local.date().daysTo(now.toLocalTime().date());
    if (days == 0)
        return tr("Today %1").arg(time);
    if (days == 1)
        return tr("Yesterday %1").arg(time);
    if (days > 1 && days < 7)
        return tr("%1 %2", "weekday, time").arg(locale.dayName(local.date().dayOfWeek()), time);
    return locale.toString(local.date(), QLocale::ShortFormat);
}

bool ConversationList::inScope(const Engine::ConversationInfo &info) const
{
    return m_allWorkspaces->isChecked() || m_workspace.isEmpty()
           || QDir::cleanPath(info.workspace) == m_workspace;
}

bool ConversationList::titleMatches(const Engine::ConversationInfo &info,
                                    const QStringList &words) const
{
    for (const QString &word : words) {
        if (!info.title.contains(word, Qt::CaseInsensitive)
            && !(m_allWorkspaces->isChecked()
                 && info.workspace.contains(word, Qt::CaseInsensitive)))
            return false;
    }
    return true;
}

void ConversationList::setTextSearch(TextSearch search)
{
    m_textSearch = std::move(search);
    rebuild();
}

QString ConversationList::searchText() const
{
    return m_search->text().trimmed();
}

QString ConversationList::titleOf(const QString &id) const
{
    for (const Engine::ConversationInfo &info : m_conversations) {
        if (info.id == id)
            return info.title;
    }
    return QString();
}

void ConversationList::rebuild()
{
    const QSignalBlocker blocker(m_list); // filling in is not renaming
    m_list->clear();
    const QStringList words = m_search->text().split(u' ', Qt::SkipEmptyParts);
    const QDateTime now = QDateTime::currentDateTime();
    const bool all = m_allWorkspaces->isChecked();
    // The title's words, or the phrase in a message.
    QHash<QString, Engine::SearchHit> hits;
    if (!words.isEmpty() && m_textSearch) {
        for (const Engine::SearchHit &hit : m_textSearch(searchText(), m_conversations))
            hits.insert(hit.id, hit);
    }
    for (const Engine::ConversationInfo &info : std::as_const(m_conversations)) {
        const auto hit = hits.constFind(info.id);
        if (!inScope(info) || (!titleMatches(info, words) && hit == hits.cend()))
            continue;
        auto *item
                = new QListWidgetItem(info.title.isEmpty() ? tr("(untitled)") : info.title, m_list);
        item->setFlags(item->flags() | Qt::ItemIsEditable);
        item->setData(IdRole, info.id);
        item->setData(TitleRole, info.title);
        item->setData(WorkspaceRole, info.workspace);
        if (hit != hits.cend())
            item->setData(LineRole, hit->line);
        QString when = describeTime(info.updated, now);
        if (info.origin == QLatin1String("a2a-inbound"))
            when = tr("%1 · asked by a remote agent").arg(when);
        item->setData(
                WhenRole,
                all && !info.workspace.isEmpty()
                        ? tr("%1 · %2", "when · workspace").arg(when, workspaceName(info.workspace))
                        : when);
        item->setToolTip(
                tr("%1\n%n message(s), last %2\nin %3", nullptr, info.messageCount)
                        .arg(info.title.isEmpty() ? tr("(untitled)") : info.title,
                             QLocale().toString(info.updated.toLocalTime(), QLocale::LongFormat),
                             QDir::toNativeSeparators(info.workspace)));
        if (!m_current.isEmpty() && info.id == m_current)
            m_list->setCurrentItem(item); // the open one stands out
    }
    const bool empty = m_list->count() == 0;
    if (empty) {
        if (!words.isEmpty())
            m_empty->setText(tr("No conversation matches “%1”.").arg(m_search->text().trimmed()));
        else if (!all && !m_conversations.isEmpty())
            m_empty->setText(tr("No conversations in this workspace yet. Check “All "
                                "workspaces” to see the others."));
        else
            m_empty->setText(tr("No conversations yet."));
    }
    m_list->setVisible(!empty);
    m_empty->setVisible(empty);
}

void ConversationList::showContextMenu(const QPoint &pos)
{
    QListWidgetItem *item = m_list->itemAt(pos);
    if (!item)
        return;
    const QString id = item->data(IdRole).toString();
    auto *menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    QAction *rename = menu->addAction(tr("Rename"));
    rename->setShortcut(QKeySequence(Qt::Key_F2));
    connect(rename, &QAction::triggered, this, [this, item] { m_list->editItem(item); });
    QAction *remove = menu->addAction(tr("Delete"));
    connect(remove, &QAction::triggered, this, [this, id] { emit deleteRequested(id); });
    menu->popup(m_list->viewport()->mapToGlobal(pos));
}

void ConversationList::itemEdited(QListWidgetItem *item)
{
    const QString title = item->text().simplified();
    // An empty title is not a rename: the next rebuild shows the stored one again.
    if (!title.isEmpty() && title != item->data(TitleRole).toString())
        emit renameRequested(item->data(IdRole).toString(), title);
    else
        // Not synchronously: the list is still inside the editor's commit of this item.
        QMetaObject::invokeMethod(this, &ConversationList::rebuild, Qt::QueuedConnection);
}

} // namespace Gui
