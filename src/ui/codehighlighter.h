#pragma once

#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace Gui {

// Colours the code blocks of a Markdown document (the blocks Qt's Markdown reader marks with
// a code fence): comments, strings, numbers and the keywords common to the languages models
// write most (C, C++, Python, JavaScript/TypeScript, Rust, Go, Java, shell). Not a parser: a
// line at a time, which is what a chat needs and costs next to nothing. Text outside code
// blocks is left alone.
class CodeHighlighter : public QSyntaxHighlighter
{
public:
    explicit CodeHighlighter(QTextDocument *document);

    // Colours for a light or a dark background.
    void setDark(bool dark);

    static bool isCodeBlock(const QTextBlock &block);

protected:
    void highlightBlock(const QString &text) override;

private:
    QTextCharFormat m_keyword;
    QTextCharFormat m_string;
    QTextCharFormat m_comment;
    QTextCharFormat m_number;
};

} // namespace Gui
