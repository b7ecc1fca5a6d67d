#pragma once

#include <QHash>
#include <QString>

namespace Gui {

// Unsent composer text by conversation: switching away keeps it, coming back brings it back,
// and a restart finds it in drafts.json next to the conversations (written atomically, private
// to the user). A saved conversation's draft goes by its id, a new conversation's by the
// workspace (key()).
class Drafts
{
public:
    // `file`: drafts.json, or empty to keep drafts for this session only.
    Drafts(QString file, QString workspace);

    QString key(const QString &conversationId) const;
    void load();
    // What was typed for `from` is kept (or dropped when blank); `to`'s text comes back.
    QString switchTo(const QString &fromKey, const QString &typed, const QString &toKey);
    QString take(const QString &key) { return m_drafts.take(key); }
    // Writes every draft, and `typed` as `currentKey`'s when it is not blank.
    void save(const QString &currentKey, const QString &typed) const;

    static constexpr qint64 MaxFileBytes = 16 * 1024 * 1024;

private:
    QString m_file;
    QString m_workspace;
    QHash<QString, QString> m_drafts;
};

} // namespace Gui
