#pragma once

#include <engine/llm/llm.h>

#include <QWidget>

#include <functional>
#include <optional>
#include <vector>

class QHBoxLayout;
class QImage;
class QToolButton;
class QUrl;

namespace Gui {

// What the next message carries, above the composer: "Attach…", then one chip per attachment
// (its name and size, a thumbnail for an image) that takes it off when clicked. A file becomes
// an image (scaled to what providers take) or UTF-8 text (at most 256 KiB); anything else is
// refused with the reason (refused()); a file that may hold secrets is attached only when the
// person says so.
class AttachmentBar : public QWidget
{
    Q_OBJECT
public:
    // `sensitive`: the pattern a file matches in the list of sensitive files, if any.
    using SensitiveMatch = std::function<std::optional<QString>(const QString &canonicalPath)>;
    AttachmentBar(QString workspace, SensitiveMatch sensitive, QWidget *parent = nullptr);

    const std::vector<Engine::Attachment> &attachments() const { return m_attachments; }
    bool isEmpty() const { return m_attachments.empty(); }
    // Hands the attachments over (to a message) and empties the bar.
    std::vector<Engine::Attachment> take();
    void set(std::vector<Engine::Attachment> attachments);

    void choose(); // the file dialog
    void attachFiles(const QList<QUrl> &files);
    void attachFile(const QString &path);
    void attachImage(const QImage &image, const QString &name);
    void add(Engine::Attachment attachment);
    void retranslateUi();

signals:
    void refused(const QString &text); // plain text: what was not attached and why

private:
    void rebuildChips();

    QString m_workspace;
    SensitiveMatch m_sensitive;
    std::vector<Engine::Attachment> m_attachments;
    QHBoxLayout *m_layout;
    QToolButton *m_attachButton;
};

} // namespace Gui
