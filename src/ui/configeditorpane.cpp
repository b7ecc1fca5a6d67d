#include "configeditorpane.h"

#include "configeditortext.h"

#include <engine/policy/serverpolicy.h>
#include <mcp/wire/jsonparser.h>

#include <Qsci/qscilexerjson.h>
#include <Qsci/qsciscintilla.h>

#include <QAction>
#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QFontDatabase>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QSplitter>
#include <QStyle>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <string_view>

namespace Gui {

namespace {

constexpr char ByteOrderMark[] = "\xEF\xBB\xBF";
// Resting the mouse on a squiggle this long shows its problems (Scintilla's dwell time).
constexpr int ProblemTipDelayMs = 400;
// A squiggle covers the offending token; a token longer than this is marked only in part (a
// megabyte-long string on one line would otherwise be scanned byte by byte).
constexpr long MaxMarkedBytes = 400;
// The same red for squiggles, margin dots and error messages.
const QColor ErrorColor(0xd0, 0x34, 0x2c);

bool isUtf8Continuation(char c)
{
    return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// Numbers, literals and stray words run to the next delimiter, as the JSON parser reads them.
bool isWordByte(char c)
{
    const auto u = static_cast<unsigned char>(c);
    return (u >= '0' && u <= '9') || (u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || c == '-'
           || c == '+' || c == '.' || c == '_' || u >= 0x80;
}

} // namespace

QString joinNames(const QStringList &names)
{
    const QLocale locale;
    QStringList quoted;
    for (const QString &name : names)
        quoted << locale.quoteString(name);
    return quoted.join(QLatin1String(", "));
}

QString describe(const Mcp::ConfigError &problem)
{
    if (problem.line <= 0)
        return problem.message;
    return ConfigEditorPane::tr("Line %1, column %2: %3")
            .arg(QString::number(problem.line), QString::number(problem.column), problem.message);
}

ConfigEditorPane::ConfigEditorPane(const QString &workspaceDir, const QString &overrideFile,
                                   QWidget *parent)
    : QWidget(parent)
    , m_workspaceDir(workspaceDir)
    , m_overrideFile(overrideFile)
    , m_path(QFileInfo(overrideFile.isEmpty()
                               ? QDir(workspaceDir).filePath(QStringLiteral(".mcp.json"))
                               : overrideFile)
                     .absoluteFilePath())
{
    setObjectName(QStringLiteral("configEditorPane"));

    m_fileLabel = new QLabel(this);
    m_fileLabel->setObjectName(QStringLiteral("fileLabel"));
    m_fileLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long path must not make the dock wide; the tooltip has it whole.
    m_fileLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    const auto makeButton = [this](const char *name, QStyle::StandardPixmap icon,
                                   void (ConfigEditorPane::*slot)()) {
        auto *button = new QPushButton(style()->standardIcon(icon), QString(), this);
        button->setObjectName(QLatin1String(name));
        connect(button, &QPushButton::clicked, this, slot);
        return button;
    };
    m_saveButton = makeButton("saveButton", QStyle::SP_DialogSaveButton, &ConfigEditorPane::save);
    m_applyButton
            = makeButton("applyButton", QStyle::SP_DialogApplyButton, &ConfigEditorPane::apply);
    m_revertButton
            = makeButton("revertButton", QStyle::SP_BrowserReload, &ConfigEditorPane::revert);
    m_externalButton = makeButton("externalEditorButton", QStyle::SP_DialogOpenButton,
                                  &ConfigEditorPane::openInExternalEditor);
    auto *top = new QHBoxLayout;
    top->addWidget(m_fileLabel, 1);
    for (QPushButton *button : {m_saveButton, m_applyButton, m_revertButton, m_externalButton})
        top->addWidget(button);

    m_diskNote = new QFrame(this);
    m_diskNote->setObjectName(QStringLiteral("diskNote"));
    m_diskNote->setFrameShape(QFrame::StyledPanel);
    m_diskNoteLabel = new QLabel(m_diskNote);
    m_diskNoteLabel->setWordWrap(true);
    m_diskNoteButton = new QPushButton(m_diskNote);
    m_diskNoteButton->setObjectName(QStringLiteral("reloadFromDiskButton"));
    connect(m_diskNoteButton, &QPushButton::clicked, this, &ConfigEditorPane::revert);
    auto *noteLayout = new QHBoxLayout(m_diskNote);
    noteLayout->setContentsMargins(6, 4, 6, 4);
    noteLayout->addWidget(m_diskNoteLabel, 1);
    noteLayout->addWidget(m_diskNoteButton);
    m_diskNote->hide();

    m_editor = new QsciScintilla(this);
    setUpEditor();
    setFocusProxy(m_editor);

    auto *problemPane = new QWidget(this);
    m_problemsLabel = new QLabel(problemPane);
    m_problemsLabel->setObjectName(QStringLiteral("problemsLabel"));
    m_problemList = new QListWidget(problemPane);
    m_problemList->setObjectName(QStringLiteral("problemList"));
    m_problemList->setWordWrap(true); // a message is one sentence; it must be read whole
    m_problemList->setSelectionMode(QAbstractItemView::SingleSelection);
    const int iconSize = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_problemList->setIconSize(QSize(iconSize, iconSize));
    connect(m_problemList, &QListWidget::itemClicked, this,
            [this](QListWidgetItem *item) { jumpToProblem(item->data(Qt::UserRole).toInt()); });
    connect(m_problemList, &QListWidget::itemActivated, this,
            [this](QListWidgetItem *item) { jumpToProblem(item->data(Qt::UserRole).toInt()); });
    auto *problemLayout = new QVBoxLayout(problemPane);
    problemLayout->setContentsMargins(0, 0, 0, 0);
    problemLayout->setSpacing(2);
    problemLayout->addWidget(m_problemsLabel);
    problemLayout->addWidget(m_problemList, 1);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_editor);
    splitter->addWidget(problemPane);
    splitter->setStretchFactor(0, 4);
    splitter->setStretchFactor(1, 1);
    splitter->setCollapsible(0, false);

    m_planLabel = new QLabel(this);
    m_planLabel->setObjectName(QStringLiteral("planLabel"));
    m_planLabel->setWordWrap(true);
    m_statusLabel = new QLabel(this);
    m_statusLabel->setObjectName(QStringLiteral("statusLabel"));
    m_statusLabel->setWordWrap(true);
    m_statusLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addLayout(top);
    layout->addWidget(m_diskNote);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_planLabel);
    layout->addWidget(m_statusLabel);

    auto *saveAction = new QAction(this);
    saveAction->setShortcut(QKeySequence::Save);
    saveAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(saveAction, &QAction::triggered, this, &ConfigEditorPane::save);
    addAction(saveAction);

    m_validateTimer.setSingleShot(true);
    m_validateTimer.setInterval(ValidationDelayMs);
    connect(&m_validateTimer, &QTimer::timeout, this, &ConfigEditorPane::validate);
    m_diskTimer.setSingleShot(true);
    m_diskTimer.setInterval(DiskSettleMs);
    connect(&m_diskTimer, &QTimer::timeout, this, &ConfigEditorPane::checkDisk);
    m_watcher = new QFileSystemWatcher(this);
    // The folder too: it sees the file appear, and editors that save by renaming a new file
    // over the old one.
    connect(m_watcher, &QFileSystemWatcher::fileChanged, &m_diskTimer, qOverload<>(&QTimer::start));
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, &m_diskTimer,
            qOverload<>(&QTimer::start));

    retranslateUi();
    loadFromDisk(false);
    watch();
}

ConfigEditorPane::~ConfigEditorPane() = default;

void ConfigEditorPane::setUpEditor()
{
    m_editor->setObjectName(QStringLiteral("configText"));
    m_editor->setUtf8(true);
    const QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    auto *lexer = new QsciLexerJSON(m_editor);
    lexer->setDefaultFont(font);
    lexer->setFont(font); // every style
    m_editor->setLexer(lexer);

    m_editor->setMarginsFont(font);
    m_editor->setMarginLineNumbers(0, true);
    m_editor->setMarginWidth(0, QStringLiteral("0000"));
    connect(m_editor, &QsciScintilla::linesChanged, this, [this] {
        m_editor->setMarginWidth(0, QString(QString::number(m_editor->lines()).size() + 1, u'0'));
    });
    m_marker = m_editor->markerDefine(QsciScintilla::Circle);
    m_editor->setMarkerBackgroundColor(ErrorColor, m_marker);
    m_editor->setMarkerForegroundColor(ErrorColor.darker(140), m_marker);
    m_editor->setMarginType(1, QsciScintilla::SymbolMargin);
    m_editor->setMarginWidth(1, QFontMetrics(font).height());
    m_editor->setMarginMarkerMask(0, 0);
    m_editor->setMarginMarkerMask(1, 1 << m_marker);
    m_editor->setMarginSensitivity(1, true);
    connect(m_editor, &QsciScintilla::marginClicked, this,
            [this](int, int line, Qt::KeyboardModifiers) {
                for (qsizetype row = 0; row < m_problems.size(); ++row) {
                    if (m_problems.at(row).line == line + 1) {
                        m_problemList->setCurrentRow(int(row));
                        jumpToProblem(int(row));
                        return;
                    }
                }
            });
    m_indicator = m_editor->indicatorDefine(QsciScintilla::SquigglePixmapIndicator);
    m_editor->setIndicatorForegroundColor(ErrorColor, m_indicator);

    m_editor->setBraceMatching(QsciScintilla::SloppyBraceMatch);
    m_editor->setAutoIndent(true);
    m_editor->setIndentationsUseTabs(false);
    m_editor->setIndentationWidth(2);
    m_editor->setTabWidth(2);
    m_editor->setTabIndents(true);
    m_editor->setBackspaceUnindents(true);
    m_editor->setIndentationGuides(true);
    m_editor->setCaretLineVisible(true);
    applyColors();
    // A horizontal scroll bar only when a line is wider than the view (Scintilla's default
    // assumes 2000 pixels).
    sci(QsciScintillaBase::SCI_SETSCROLLWIDTH, 1);
    sci(QsciScintillaBase::SCI_SETSCROLLWIDTHTRACKING, 1);

    sci(QsciScintillaBase::SCI_SETMOUSEDWELLTIME, ProblemTipDelayMs);
    connect(m_editor, &QsciScintillaBase::SCN_DWELLSTART, this, &ConfigEditorPane::showProblemTip);
    connect(m_editor, &QsciScintillaBase::SCN_DWELLEND, this, [] { QToolTip::hideText(); });
    connect(m_editor, &QsciScintilla::textChanged, &m_validateTimer, qOverload<>(&QTimer::start));
    connect(m_editor, &QsciScintilla::modificationChanged, this,
            &ConfigEditorPane::updateFileLabel);
}

void ConfigEditorPane::retranslateUi()
{
    m_saveButton->setText(tr("Save"));
    m_saveButton->setToolTip(
            tr("Write the text to the file (%1)")
                    .arg(QKeySequence(QKeySequence::Save).toString(QKeySequence::NativeText)));
    m_applyButton->setText(tr("Apply"));
    m_applyButton->setToolTip(tr("Save, then restart the servers whose settings changed"));
    m_revertButton->setText(tr("Revert"));
    m_revertButton->setToolTip(tr("Load the file from disk again"));
    m_externalButton->setText(tr("Open in external editor"));
    m_externalButton->setToolTip(
            tr("Open the file in $VISUAL or $EDITOR (else the desktop's application for it); "
               "what you save there is loaded here"));
    m_diskNoteButton->setText(tr("Load the disk version"));
    updateFileLabel();
    updatePlanLabel();
}

void ConfigEditorPane::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
        validate(); // the problems are worded by the loader in the new language
    } else if (event->type() == QEvent::PaletteChange) {
        applyColors();
    }
    QWidget::changeEvent(event);
}

// The lexer's own colours are made for black on white; on a dark palette (a dark desktop
// theme) the text is drawn in lighter colours on the palette's base instead.
void ConfigEditorPane::applyColors()
{
    auto *lexer = static_cast<QsciLexerJSON *>(m_editor->lexer());
    const QPalette palette = this->palette();
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    const bool dark = base.lightness() < 128;
    lexer->setDefaultPaper(base);
    lexer->setPaper(base); // every style
    if (dark) {
        lexer->setDefaultColor(text);
        lexer->setColor(text); // every style, then the ones that stand out
        static const std::pair<int, QRgb> darkStyles[] = {
                {QsciLexerJSON::Number, 0xb5cea8},         {QsciLexerJSON::String, 0xce9178},
                {QsciLexerJSON::UnclosedString, 0xf48771}, {QsciLexerJSON::Property, 0x9cdcfe},
                {QsciLexerJSON::EscapeSequence, 0xd7ba7d}, {QsciLexerJSON::CommentLine, 0x6a9955},
                {QsciLexerJSON::CommentBlock, 0x6a9955},   {QsciLexerJSON::Keyword, 0x569cd6},
                {QsciLexerJSON::KeywordLD, 0x569cd6},      {QsciLexerJSON::IRI, 0x4ec9b0},
                {QsciLexerJSON::IRICompact, 0x4ec9b0},     {QsciLexerJSON::Error, 0xf44747}};
        for (const auto &[style, rgb] : darkStyles)
            lexer->setColor(QColor(rgb), style);
    } else {
        // The lexer's defaults, as a freshly made one has them.
        const QsciLexerJSON defaults;
        lexer->setDefaultColor(static_cast<const QsciLexer &>(defaults).defaultColor());
        for (int style = 0; style <= QsciLexerJSON::Error; ++style)
            lexer->setColor(defaults.color(style), style);
    }
    m_editor->setCaretForegroundColor(text);
    m_editor->setCaretLineBackgroundColor(dark ? base.lighter(140) : QColor(0xf2, 0xf4, 0xf8));
    m_editor->setMarginsBackgroundColor(palette.color(QPalette::Window));
    m_editor->setMarginsForegroundColor(palette.color(QPalette::WindowText));
    m_editor->setFoldMarginColors(palette.color(QPalette::Window), palette.color(QPalette::Window));
    m_editor->setSelectionBackgroundColor(palette.color(QPalette::Highlight));
    m_editor->setSelectionForegroundColor(palette.color(QPalette::HighlightedText));
    m_editor->setMatchedBraceBackgroundColor(dark ? base.lighter(200) : QColor(0xd0, 0xe8, 0xd0));
    m_editor->setMatchedBraceForegroundColor(text);
}

long ConfigEditorPane::sci(unsigned int message, unsigned long wParam, long lParam) const
{
    return m_editor->SendScintilla(message, wParam, lParam);
}

bool ConfigEditorPane::isModified() const
{
    return m_editor->isModified();
}

void ConfigEditorPane::setEnvironment(const QProcessEnvironment &environment)
{
    m_environment = environment;
    validate();
}

void ConfigEditorPane::setAppliedConfig(const Mcp::McpConfig &config)
{
    m_applied = config;
    validate();
}

void ConfigEditorPane::setApplyHandler(ApplyHandler handler)
{
    m_applyHandler = std::move(handler);
}

QString ConfigEditorPane::statusText() const
{
    return m_statusLabel->text();
}

QString ConfigEditorPane::displayName() const
{
    return QDir::toNativeSeparators(m_path);
}

// The text, its problems, and what Apply would do

void ConfigEditorPane::setEditorBytes(const QByteArray &bytes, bool keepUndo)
{
    // The byte order mark stays out of the editor (the loader does not count it in columns
    // either) and goes back into the file on save.
    m_byteOrderMark = bytes.startsWith(ByteOrderMark);
    const QByteArray text = m_byteOrderMark ? bytes.mid(3) : bytes;
    m_editor->setEolMode(text.contains("\r\n") ? QsciScintilla::EolWindows
                                               : QsciScintilla::EolUnix);

    // Keep the caret on its line and the view where it was: a reload after an outside change
    // usually touches a few lines only.
    const long caret = sci(QsciScintillaBase::SCI_GETCURRENTPOS);
    const long caretLine = sci(QsciScintillaBase::SCI_LINEFROMPOSITION, caret);
    const long caretColumn = caret - sci(QsciScintillaBase::SCI_POSITIONFROMLINE, caretLine);
    const long firstVisible = sci(QsciScintillaBase::SCI_GETFIRSTVISIBLELINE);

    // The bytes as they are (setText() would go through QString and lose invalid UTF-8 and
    // everything after a NUL), as one undo step so Undo brings back what a reload replaced.
    sci(QsciScintillaBase::SCI_BEGINUNDOACTION);
    sci(QsciScintillaBase::SCI_CLEARALL);
    m_editor->SendScintilla(QsciScintillaBase::SCI_APPENDTEXT, uintptr_t(text.size()),
                            text.constData());
    sci(QsciScintillaBase::SCI_ENDUNDOACTION);
    if (!keepUndo)
        sci(QsciScintillaBase::SCI_EMPTYUNDOBUFFER);

    const long line = std::min(caretLine, sci(QsciScintillaBase::SCI_GETLINECOUNT) - 1);
    long position = std::min(sci(QsciScintillaBase::SCI_POSITIONFROMLINE, line) + caretColumn,
                             sci(QsciScintillaBase::SCI_GETLINEENDPOSITION, line));
    while (position > 0
           && isUtf8Continuation(char(sci(QsciScintillaBase::SCI_GETCHARAT, position))))
        --position;
    sci(QsciScintillaBase::SCI_SETEMPTYSELECTION, position);
    sci(QsciScintillaBase::SCI_SETFIRSTVISIBLELINE, firstVisible);
}

QByteArray ConfigEditorPane::editorBytes() const
{
    const long length = sci(QsciScintillaBase::SCI_GETLENGTH);
    // bytes() adds a terminating NUL.
    const QByteArray text = m_editor->bytes(0, int(length)).left(length);
    return m_byteOrderMark ? ByteOrderMark + text : text;
}

ConfigEditorPane::Validity ConfigEditorPane::validityOf(const QByteArray &bytes) const
{
    if (Engine::parseConfig(bytes, m_path, m_environment).errors.isEmpty())
        return Validity::Valid;
    if (bytes.size() > Mcp::ConfigLoader::kMaxConfigBytes || bytes.contains('\0'))
        return Validity::NotJson;
    const Mcp::Json json
            = Mcp::parseJson(std::string_view(bytes.constData(), size_t(bytes.size())));
    return json.is_discarded() ? Validity::NotJson : Validity::HasProblems;
}

Mcp::McpConfig ConfigEditorPane::withUserConfig(const Mcp::McpConfig &edited) const
{
    // As Engine::loadConfig(): the file merged over the user's, unless it is the user's.
    const QString userFile = Mcp::ConfigLoader::userConfigPath();
    const QString canonicalUser = QFileInfo(userFile).canonicalFilePath();
    if (!canonicalUser.isEmpty() && canonicalUser == QFileInfo(m_path).canonicalFilePath())
        return edited;
    // parse() knows nothing of where the text will live: this pane edits the workspace's file
    // (whose servers need the user's trust) or the one given by --config.
    const Mcp::ConfigOrigin origin = m_overrideFile.isEmpty() ? Mcp::ConfigOrigin::Workspace
                                                              : Mcp::ConfigOrigin::CommandLine;
    Mcp::McpConfig mine = edited;
    for (Mcp::ServerConfig &server : mine.servers)
        server.origin = origin;
    return Mcp::ConfigLoader::merge(Engine::loadConfigFile(userFile, m_environment), mine, origin);
}

void ConfigEditorPane::validate()
{
    m_validateTimer.stop();
    const long length = sci(QsciScintillaBase::SCI_GETLENGTH);
    // Without the byte order mark: positions as the editor shows them.
    const QByteArray text = m_editor->bytes(0, int(length)).left(length);
    m_edited = Engine::parseConfig(text, m_path, m_environment);
    m_problems = m_edited.errors;
    showProblems();
    m_plan = Mcp::ReloadPlan::compute(m_applied, withUserConfig(m_edited));
    updatePlanLabel();
    emit validated();
}

int ConfigEditorPane::positionOf(const Mcp::ConfigError &problem) const
{
    if (problem.line <= 0)
        return -1;
    if (problem.line > sci(QsciScintillaBase::SCI_GETLINECOUNT))
        return int(sci(QsciScintillaBase::SCI_GETLENGTH));
    const long start = sci(QsciScintillaBase::SCI_POSITIONFROMLINE, problem.line - 1);
    const long end = sci(QsciScintillaBase::SCI_GETLINEENDPOSITION, problem.line - 1);
    const QByteArray line = m_editor->bytes(int(start), int(end)).left(end - start);
    // The column counts code points; Scintilla positions count bytes. Each byte that is not a
    // UTF-8 continuation byte starts a code point (as the loader counts them).
    qsizetype offset = 0;
    for (int column = 1; column < problem.column && offset < line.size(); ++column) {
        ++offset;
        while (offset < line.size() && isUtf8Continuation(line.at(offset)))
            ++offset;
    }
    return int(start + offset);
}

std::pair<int, int> ConfigEditorPane::markedRange(int position) const
{
    const long length = sci(QsciScintillaBase::SCI_GETLENGTH);
    const auto charAt = [this](long at) {
        return char(sci(QsciScintillaBase::SCI_GETCHARAT, at));
    };
    const auto atLineEnd = [&](long at) {
        return at >= length || charAt(at) == '\n' || charAt(at) == '\r';
    };
    long start = std::clamp<long>(position, 0, length);
    // At the end of a line or of the text ("unexpected end of input") a squiggle would not
    // show: mark the character before.
    if (atLineEnd(start) && start > 0)
        start = sci(QsciScintillaBase::SCI_POSITIONBEFORE, start);
    if (atLineEnd(start))
        return {int(start), int(start)};
    const long limit = std::min(length, start + MaxMarkedBytes);
    const char first = charAt(start);
    long end = sci(QsciScintillaBase::SCI_POSITIONAFTER, start);
    if (first == '"') { // a string, to its closing quote on the same line
        end = start + 1;
        while (end < limit && !atLineEnd(end)) {
            const char c = charAt(end);
            end += c == '\\' ? 2 : 1;
            if (c == '"')
                break;
        }
    } else if (isWordByte(first)) {
        end = start;
        while (end < limit && isWordByte(charAt(end)))
            ++end;
    }
    end = std::min(end, length);
    while (end < length && isUtf8Continuation(charAt(end))) // never end inside a character
        ++end;
    return {int(start), int(end)};
}

void ConfigEditorPane::showProblems()
{
    sci(QsciScintillaBase::SCI_SETINDICATORCURRENT, m_indicator);
    sci(QsciScintillaBase::SCI_INDICATORCLEARRANGE, 0, sci(QsciScintillaBase::SCI_GETLENGTH));
    m_editor->markerDeleteAll(m_marker);
    m_problemList->clear();
    const QIcon icon = style()->standardIcon(QStyle::SP_MessageBoxCritical);
    for (qsizetype row = 0; row < m_problems.size(); ++row) {
        const Mcp::ConfigError &problem = m_problems.at(row);
        const int position = positionOf(problem);
        if (position >= 0) {
            const auto [start, end] = markedRange(position);
            if (end > start)
                sci(QsciScintillaBase::SCI_INDICATORFILLRANGE, start, end - start);
            m_editor->markerAdd(int(sci(QsciScintillaBase::SCI_LINEFROMPOSITION, position)),
                                m_marker);
        }
        auto *item = new QListWidgetItem(icon, describe(problem), m_problemList);
        item->setData(Qt::UserRole, int(row));
        item->setToolTip(problem.message);
    }
    m_problemsLabel->setText(m_problems.isEmpty()
                                     ? tr("No problems")
                                     : tr("%n problem(s)", nullptr, int(m_problems.size())));
}

void ConfigEditorPane::showProblemTip(int position, int x, int y)
{
    if (position < 0 || !sci(QsciScintillaBase::SCI_INDICATORVALUEAT, m_indicator, position))
        return;
    const int line = int(sci(QsciScintillaBase::SCI_LINEFROMPOSITION, position)) + 1;
    QStringList messages;
    for (const Mcp::ConfigError &problem : std::as_const(m_problems)) {
        if (problem.line == line)
            messages << problem.message;
    }
    if (!messages.isEmpty())
        QToolTip::showText(m_editor->viewport()->mapToGlobal(QPoint(x, y)), messages.join(u'\n'),
                           m_editor->viewport());
}

void ConfigEditorPane::jumpToProblem(int row)
{
    if (row < 0 || row >= m_problems.size())
        return;
    const int position = positionOf(m_problems.at(row));
    if (position < 0)
        return;
    sci(QsciScintillaBase::SCI_GOTOPOS, position); // also scrolls it into view
    m_editor->setFocus();
}

void ConfigEditorPane::updatePlanLabel()
{
    m_applyButton->setEnabled(m_problems.isEmpty());
    // Hidden after an Apply that left nothing to do, until the plan says something new.
    const auto showPlan = [this](const QString &text) {
        if (text != m_planLabel->text())
            m_planLabel->show();
        m_planLabel->setText(text);
    };
    if (!m_problems.isEmpty()) {
        showPlan(tr("Apply is blocked until the %n problem(s) are fixed.", nullptr,
                    int(m_problems.size())));
        return;
    }
    QStringList parts;
    if (!m_plan.changed.isEmpty())
        parts << tr("restart %1").arg(joinNames(m_plan.changed));
    if (!m_plan.added.isEmpty())
        parts << tr("start %1").arg(joinNames(m_plan.added));
    if (!m_plan.removed.isEmpty())
        parts << tr("stop %1").arg(joinNames(m_plan.removed));
    QString text = parts.isEmpty() ? tr("Apply changes no server.")
                                   : tr("Apply will %1.").arg(parts.join(tr("; ")));
    // Servers that would start but cannot run (a variable is not set) are worth knowing before.
    for (const Mcp::ServerConfig &server : std::as_const(m_edited.servers)) {
        if (!server.error.isEmpty() && !server.disabled)
            text += u'\n' + tr("%1 will fail: %2").arg(server.name, server.error);
    }
    showPlan(text);
}

void ConfigEditorPane::updateFileLabel()
{
    QString text = displayName();
    if (!m_diskExists)
        text = tr("%1 (new file)").arg(text);
    else if (isModified())
        text = tr("%1 (modified)").arg(text);
    m_fileLabel->setText(text);
    m_fileLabel->setToolTip(displayName());
}

void ConfigEditorPane::setStatus(const QString &text, StatusKind kind)
{
    m_statusLabel->setText(text);
    QPalette palette = m_statusLabel->palette();
    palette.setColor(QPalette::WindowText,
                     kind == StatusKind::Error ? ErrorColor : this->palette().windowText().color());
    m_statusLabel->setPalette(palette);
}

} // namespace Gui
