#pragma once

#include <QByteArray>
#include <QDialog>
#include <QString>

#include <memory>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace Gui {

// At most this much of a tool result's text is put into a widget in the chat or the tool
// browser; the rest is one click away in a ResultViewer.
inline constexpr qsizetype PreviewBytes = 64 * 1024;
// A preview's lines are cut at this many characters (the viewer has them whole).
inline constexpr qsizetype PreviewLineChars = 2000;

// The head of a result for a preview: at most PreviewBytes of `utf8`, cut at a line end where
// one is near (never inside a character), lines longer than PreviewLineChars cut short, and
// what was left out.
struct ResultPreview
{
    QString text;
    bool cut = false; // anything left out: the viewer has more
    QString note;     // "Showing the first 64 KB of 20.0 MB (123,456 lines)." when cut
};
ResultPreview makePreview(const QByteArray &utf8);

// Where a slice of at most `maxBytes` starting at `from` should end: after the last newline in
// it if there is one in its second half, else on a character boundary.
qsizetype sliceEnd(const QByteArray &utf8, qsizetype from, qsizetype maxBytes);

// A whole tool result, read-only, a page at a time: even 20 MB never becomes one widget's
// document, so opening and scrolling stay instant. Save as… writes the whole text (off the
// GUI thread), Copy puts it on the clipboard.
class ResultViewer : public QDialog
{
    Q_OBJECT
public:
    static constexpr qsizetype PageBytes = 64 * 1024;

    // `utf8` may refer to bytes that `owner` keeps (QByteArray::fromRawData): a 20 MB result
    // is shown without being copied.
    ResultViewer(const QString &title, QByteArray utf8, QWidget *parent = nullptr,
                 std::shared_ptr<const void> owner = {});

    int pageCount() const { return int(m_pages.size()); }
    int currentPage() const { return m_page; }
    void showPage(int page);
    QString pageText() const;

private:
    void saveAs();

    QByteArray m_utf8;
    std::shared_ptr<const void> m_owner;
    QList<qsizetype> m_pages; // start offsets
    int m_page = 0;
    QPlainTextEdit *m_view = nullptr;
    QLabel *m_position = nullptr;
    QPushButton *m_previous = nullptr;
    QPushButton *m_next = nullptr;
};

} // namespace Gui
