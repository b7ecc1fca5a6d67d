#pragma once

// Internal to src/ui: what ChatView's files share. The view, its messages and links are in
// chatview.cpp; a message's Markdown in chatviewmarkdown.cpp; the tool cards in
// chatviewcards.cpp.

#include "chatview.h"
#include "palettecolors.h"

#include <QColor>
#include <QElapsedTimer>
#include <QPalette>
#include <QStringList>
#include <QTextCharFormat>

namespace Gui {

// "mcp__server__tool" reads "server › tool".
QString displayToolName(const QString &name);
QTextCharFormat linkFormat(const QPalette &palette, const QString &href);

// A result's whole output as a card shows it, in UTF-8: its text blocks and the names of
// other blocks ("[image]") joined by newlines, then its structured content (pretty-printed
// only when small; a big one is read in the viewer). When that is one text block, the bytes
// are the result's own (valid while it lives: nothing is copied), else a copy.
QByteArray resultText(const Engine::ToolRunResult &result);

// One entry of the document (a message, a notice or a tool card) and the frame it is drawn in.
struct ChatView::Entry
{
    Kind kind = Kind::Notice;
    int index = 0;
    QTextFrame *frame = nullptr;
    QString text;                    // the message (Markdown for the assistant, HTML for a notice)
    std::function<QString()> textOf; // a notice of ours: its text, in the current language
    QDateTime time;
    bool error = false; // a notice or a result that is an error

    // A tool card.
    QString toolName;
    QString arguments;
    CardState state = CardState::Waiting;
    QColor stateColor;
    QString progress;
    // A sub-agent's or a remote agent's steps (their progress messages), nested under the
    // card's line; at most MaxSteps, the oldest dropped.
    QStringList steps;
    int droppedSteps = 0;
    bool expanded = false;
    bool finished = false;
    QElapsedTimer started;
    qint64 durationMs = -1;
    QString preview;
    QString previewNote;
    Engine::SharedToolRunResult result; // kept when the preview is cut, for the viewer
    std::shared_ptr<const Engine::FileChange> change; // the file the call changed, if known
    int viewHeight = 0;              // an MCP Apps view's room under the card's line
    QTextFrame *viewFrame = nullptr; // that room in the document
    QStringList images;              // document resources
    QStringList files;               // a user message's attached files: "name (size)"
    QStringList codeBlocks;          // a message's code blocks, for their Copy links
};

} // namespace Gui
