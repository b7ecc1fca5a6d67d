#include "drafts.h"

#include <engine/storage/privatefiles.h>

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace Gui {

Drafts::Drafts(QString file, QString workspace)
    : m_file(std::move(file))
    , m_workspace(std::move(workspace))
{
}

QString Drafts::key(const QString &conversationId) const
{
    return conversationId.isEmpty() ? QStringLiteral("new:") + m_workspace : conversationId;
}

void Drafts::load()
{
    QFile in(m_file);
    if (m_file.isEmpty() || !in.open(QIODevice::ReadOnly) || in.size() > MaxFileBytes)
        return;
    const QJsonObject drafts = QJsonDocument::fromJson(in.readAll()).object();
    for (auto it = drafts.begin(); it != drafts.end(); ++it) {
        if (it.value().isString() && !it.value().toString().trimmed().isEmpty())
            m_drafts.insert(it.key(), it.value().toString());
    }
}

QString Drafts::switchTo(const QString &fromKey, const QString &typed, const QString &toKey)
{
    if (typed.trimmed().isEmpty())
        m_drafts.remove(fromKey);
    else
        m_drafts.insert(fromKey, typed);
    return m_drafts.take(toKey);
}

void Drafts::save(const QString &currentKey, const QString &typed) const
{
    if (m_file.isEmpty())
        return;
    QJsonObject drafts;
    for (auto it = m_drafts.cbegin(); it != m_drafts.cend(); ++it)
        drafts.insert(it.key(), it.value());
    if (!typed.trimmed().isEmpty())
        drafts.insert(currentKey, typed);
    const QByteArray bytes = QJsonDocument(drafts).toJson(QJsonDocument::Compact);
    if (drafts.isEmpty() && !QFileInfo::exists(m_file))
        return;
    QSaveFile out(m_file);
    if (!Engine::PrivateFiles::ensureDir(QFileInfo(m_file).absolutePath())
        || !out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size() || !out.commit())
        qWarning("Switchboard: could not save the drafts to %s", qPrintable(m_file));
    else
        Engine::PrivateFiles::restrict(m_file);
}

} // namespace Gui
