#include "configeditorpane.h"

#include <engine/policy/serverpolicy.h>
#include <mcp/wire/jsonparser.h>

#include <Qsci/qscilexerjson.h>
#include <Qsci/qsciscintilla.h>

#include <QAction>
#include <QDesktopServices>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QFontDatabase>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSaveFile>
#include <QSet>
#include <QSplitter>
#include <QStandardPaths>
#include <QStyle>
#include <QToolTip>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <string_view>

namespace Gui {

namespace {

// What the editor holds when there is no file yet; Save creates the file with it.
constexpr char NewFileTemplate[] = "{\n  \"mcpServers\": {\n  }\n}\n";
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

// Quoted: "Apply will restart everything." must not read as every server when one is
// called "everything".
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

} // namespace

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

// Loading and validating

ConfigEditorPane::DiskState ConfigEditorPane::readDisk() const
{
    DiskState state;
    // The loader's reader: never blocks on a FIFO or device the workspace put there.
    const Mcp::ConfigLoader::FileContents contents = Mcp::ConfigLoader::readFile(m_path);
    state.exists = contents.exists;
    if (!state.exists)
        return state;
    if (!contents.error.isEmpty()) {
        state.error = contents.error;
        return state;
    }
    // The loader refuses larger files; the editor does not try to hold them either.
    state.bytes = contents.bytes;
    if (state.bytes.size() > Mcp::ConfigLoader::kMaxConfigBytes) {
        state.bytes.clear();
        state.error = tr("it is larger than %1 KiB, too large for a configuration file")
                              .arg(Mcp::ConfigLoader::kMaxConfigBytes / 1024);
        return state;
    }
    state.readable = true;
    return state;
}

void ConfigEditorPane::loadFromDisk(bool keepUndo)
{
    const DiskState disk = readDisk();
    m_diskExists = disk.exists;
    if (disk.exists && !disk.readable) {
        updateFileLabel();
        setStatus(tr("Could not read %1: %2.").arg(displayName(), disk.error), StatusKind::Error);
        return;
    }
    m_diskText = disk.bytes;
    setEditorBytes(disk.exists ? disk.bytes : QByteArray(NewFileTemplate), keepUndo);
    m_editor->setModified(false);
    m_diskNote->hide();
    updateFileLabel();
    validate();
}

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

// Saving and applying

void ConfigEditorPane::save()
{
    requestSave(AfterSave::Nothing);
}

void ConfigEditorPane::apply()
{
    validate();
    if (!m_problems.isEmpty()) {
        setStatus(tr("Not applied: fix the %n problem(s) first (Save still writes the text).",
                     nullptr, int(m_problems.size())),
                  StatusKind::Error);
        return;
    }
    requestSave(AfterSave::Apply);
}

void ConfigEditorPane::requestSave(AfterSave after)
{
    if (m_question) {
        m_question->raise();
        return;
    }
    validate();
    const QByteArray bytes = editorBytes();
    const DiskState disk = readDisk();
    if (disk.readable && disk.bytes == bytes) {
        m_diskText = disk.bytes;
        m_diskExists = true;
        m_editor->setModified(false);
        m_diskNote->hide();
        updateFileLabel();
        if (after == AfterSave::Apply)
            reloadServers();
        else
            setStatus(tr("%1 already holds this text.").arg(displayName()));
        return;
    }

    QStringList reasons;
    if (disk.exists && !disk.readable)
        reasons << tr("The file on disk could not be read (%1); saving replaces it.")
                           .arg(disk.error);
    if (disk.readable) {
        const Validity before = validityOf(disk.bytes);
        const Validity now = validityOf(bytes);
        if (now < before && now == Validity::NotJson) {
            reasons << tr("The text is not valid JSON (%1), but the file on disk is.")
                               .arg(m_problems.isEmpty() ? QString()
                                                         : describe(m_problems.constFirst()));
        } else if (now < before) {
            reasons << tr("The text has %n problem(s) (the first: %1), but the file on disk "
                          "has none. Servers with problems would not start.",
                          nullptr, int(m_problems.size()))
                               .arg(m_problems.isEmpty() ? QString()
                                                         : describe(m_problems.constFirst()));
        }
        if (!m_diskExists || disk.bytes != m_diskText)
            reasons << tr("The file changed on disk after it was loaded here; saving replaces "
                          "those changes.");
    }
    if (reasons.isEmpty()) {
        writeFile(after);
        return;
    }

    auto *box = new QMessageBox(QMessageBox::Warning, tr("Save configuration"),
                                tr("Save %1 anyway?").arg(displayName()), QMessageBox::NoButton,
                                this);
    box->setObjectName(QStringLiteral("confirmSaveBox"));
    box->setInformativeText(reasons.join(QLatin1String("\n\n")));
    QPushButton *saveAnyway = box->addButton(tr("Save anyway"), QMessageBox::AcceptRole);
    saveAnyway->setObjectName(QStringLiteral("saveAnywayButton"));
    QPushButton *cancel = box->addButton(QMessageBox::Cancel);
    cancel->setObjectName(QStringLiteral("cancelSaveButton"));
    box->setDefaultButton(cancel);
    box->setEscapeButton(cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, saveAnyway, after] {
        m_question = nullptr; // the box is deleted later; the next question may come sooner
        if (box->clickedButton() == saveAnyway)
            writeFile(after);
        else
            setStatus(tr("Not saved; your text is kept here."));
    });
    m_question = box;
    box->open();
}

bool ConfigEditorPane::writeFile(AfterSave after)
{
    const QByteArray bytes = editorBytes();
    QSaveFile file(m_path);
    QString error;
    if (!file.open(QIODevice::WriteOnly))
        error = file.errorString();
    else if (file.write(bytes) != bytes.size() || !file.commit())
        error = file.errorString();
    if (!error.isEmpty()) {
        setStatus(tr("Could not save %1: %2. Your text is kept here.").arg(displayName(), error),
                  StatusKind::Error);
        return false;
    }
    m_diskText = bytes;
    m_diskExists = true;
    m_editor->setModified(false);
    m_diskNote->hide();
    updateFileLabel();
    watch();
    emit saved(m_path);
    if (after == AfterSave::Apply)
        reloadServers();
    else
        setStatus(tr("Saved %1.").arg(displayName()));
    return true;
}

void ConfigEditorPane::reloadServers()
{
    // As at startup: the saved file merged over the user's configuration.
    const Mcp::McpConfig config = Engine::loadConfig(m_workspaceDir, m_overrideFile, m_environment);
    if (!m_applyHandler) {
        setStatus(tr("Saved %1; nothing runs these servers here.").arg(displayName()));
        return;
    }
    const Mcp::ReloadPlan plan = m_applyHandler(config);
    m_applied = config;
    validate();
    // The status below says what was done; "Apply changes no server" above it would only
    // repeat that there is nothing left to do (the next edit shows the plan again).
    if (m_problems.isEmpty() && m_plan.added.isEmpty() && m_plan.changed.isEmpty()
        && m_plan.removed.isEmpty())
        m_planLabel->hide();

    // Say what happened: a server that waits for the user's trust did not start.
    const auto running = [&plan](const QStringList &names) {
        QStringList kept;
        for (const QString &name : names) {
            if (!plan.untrusted.contains(name))
                kept << name;
        }
        return kept;
    };
    QStringList parts;
    if (const QStringList restarted = running(plan.changed); !restarted.isEmpty())
        parts << tr("restarted %1").arg(joinNames(restarted));
    if (const QStringList started = running(plan.added); !started.isEmpty())
        parts << tr("started %1").arg(joinNames(started));
    if (!plan.removed.isEmpty())
        parts << tr("stopped %1").arg(joinNames(plan.removed));
    if (!plan.untrusted.isEmpty())
        parts << tr("%1 waiting for your trust (see the banner in the Servers dock)")
                         .arg(joinNames(plan.untrusted));
    QString text = parts.isEmpty() ? tr("Saved and applied; no server needed a restart.")
                                   : tr("Saved and applied: %1.").arg(parts.join(tr("; ")));
    // Problems in another file (the user's configuration) do not block Apply but matter.
    QSet<QString> otherFiles;
    int otherProblems = 0;
    for (const Mcp::ConfigError &error : config.errors) {
        if (QFileInfo(error.file).absoluteFilePath() != m_path) {
            otherFiles.insert(QDir::toNativeSeparators(error.file));
            ++otherProblems;
        }
    }
    if (otherProblems > 0) {
        QStringList files = otherFiles.values();
        files.sort();
        text += u' '
                + tr("%n problem(s) in %1.", nullptr, otherProblems)
                          .arg(files.join(QLatin1String(", ")));
    }
    setStatus(text, otherProblems > 0 ? StatusKind::Error : StatusKind::Info);
    emit applied(plan);
}

// Reverting and following the file

void ConfigEditorPane::revert()
{
    if (m_question) {
        m_question->raise();
        return;
    }
    if (!isModified()) {
        loadFromDisk(true);
        setStatus(tr("Loaded %1 from disk.").arg(displayName()));
        return;
    }
    auto *box = new QMessageBox(
            QMessageBox::Question, tr("Revert configuration"),
            tr("Discard your unsaved edits and load %1 from disk?").arg(displayName()),
            QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("confirmRevertBox"));
    QPushButton *discard = box->addButton(tr("Discard edits"), QMessageBox::DestructiveRole);
    discard->setObjectName(QStringLiteral("discardButton"));
    QPushButton *cancel = box->addButton(QMessageBox::Cancel);
    cancel->setObjectName(QStringLiteral("cancelRevertButton"));
    box->setDefaultButton(cancel);
    box->setEscapeButton(cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, discard] {
        m_question = nullptr;
        if (box->clickedButton() != discard)
            return;
        loadFromDisk(true);
        setStatus(tr("Loaded %1 from disk; Undo brings your edits back.").arg(displayName()));
    });
    m_question = box;
    box->open();
}

void ConfigEditorPane::watch()
{
    const QString folder = QFileInfo(m_path).absolutePath();
    if (!m_watcher->directories().contains(folder) && QFileInfo(folder).isDir())
        m_watcher->addPath(folder);
    // A file replaced by a rename is a new file: the watch on the old one is gone.
    if (!m_watcher->files().contains(m_path) && QFileInfo::exists(m_path))
        m_watcher->addPath(m_path);
}

void ConfigEditorPane::checkDisk()
{
    watch();
    const DiskState disk = readDisk();
    if (disk.exists && !disk.readable)
        return; // perhaps half-written; the next change looks again
    if (disk.exists == m_diskExists && disk.bytes == m_diskText) {
        m_diskNote->hide(); // our own save, another file of the folder, or a change undone
        return;
    }
    if (!disk.exists) {
        m_diskExists = false;
        m_diskText.clear();
        updateFileLabel();
        showDiskNote(tr("%1 was deleted on disk. Save writes it again.").arg(displayName()));
        return;
    }
    if (!isModified()) {
        loadFromDisk(true);
        setStatus(tr("Loaded %1 again: it changed on disk.").arg(displayName()));
        return;
    }
    showDiskNote(tr("%1 changed on disk. Your unsaved edits are kept; saving them replaces the "
                    "file, loading the disk version discards them.")
                         .arg(displayName()));
}

void ConfigEditorPane::showDiskNote(const QString &text)
{
    m_diskNoteLabel->setText(text);
    m_diskNote->show();
}

// Editors that draw in a terminal have none when a window starts them: they run inside a
// terminal emulator instead.
static bool runsInTerminal(const QString &program, const QStringList &arguments)
{
    static const QStringList terminalEditors
            = {QStringLiteral("vi"),   QStringLiteral("vim"),    QStringLiteral("nvim"),
               QStringLiteral("nano"), QStringLiteral("pico"),   QStringLiteral("micro"),
               QStringLiteral("hx"),   QStringLiteral("joe"),    QStringLiteral("jed"),
               QStringLiteral("ne"),   QStringLiteral("mcedit"), QStringLiteral("kak"),
               QStringLiteral("mg"),   QStringLiteral("ed")};
    const QString name = QFileInfo(program).fileName();
    if (name == QLatin1String("emacs"))
        return arguments.contains(QLatin1String("-nw"))
               || arguments.contains(QLatin1String("--no-window-system"));
    return terminalEditors.contains(name);
}

// $TERMINAL, else Debian's x-terminal-emulator (which takes `-e COMMAND ARGS...`); empty if
// neither is there.
QStringList ConfigEditorPane::terminalCommand() const
{
    QStringList terminal = QProcess::splitCommand(m_environment.value(QStringLiteral("TERMINAL")));
    if (!terminal.isEmpty())
        return terminal;
    const QString path = QStandardPaths::findExecutable(
            QStringLiteral("x-terminal-emulator"),
            m_environment.value(QStringLiteral("PATH")).split(u':', Qt::SkipEmptyParts));
    return path.isEmpty() ? QStringList() : QStringList{path};
}

void ConfigEditorPane::openInExternalEditor()
{
    // The editor (or the desktop) needs a file to open.
    if (!QFileInfo::exists(m_path) && !writeFile(AfterSave::Nothing))
        return;
    const QString unsaved
            = isModified() ? u' ' + tr("Your unsaved edits here are not in the file.") : QString();
    QStringList failures;
    for (const QString &variable : {QStringLiteral("VISUAL"), QStringLiteral("EDITOR")}) {
        const QString command = m_environment.value(variable).trimmed();
        QStringList arguments = QProcess::splitCommand(command);
        if (arguments.isEmpty())
            continue;
        QString program = arguments.takeFirst();
        arguments << m_path;
        if (runsInTerminal(program, arguments)) {
            QStringList terminal = terminalCommand();
            if (terminal.isEmpty()) {
                failures << tr("$%1 (%2) runs in a terminal, and no terminal emulator was found "
                               "(set TERMINAL)")
                                    .arg(variable, command);
                continue;
            }
            arguments = terminal.mid(1) + QStringList{QStringLiteral("-e"), program} + arguments;
            program = terminal.first();
        }
        QProcess process;
        process.setProgram(program);
        process.setArguments(arguments);
        process.setWorkingDirectory(QFileInfo(m_path).absolutePath());
        process.setProcessEnvironment(m_environment);
        if (process.startDetached()) {
            setStatus(tr("Opened %1 with %2; what you save there is loaded here.")
                              .arg(displayName(), command)
                      + unsaved);
            return;
        }
        failures << tr("$%1 (%2) could not be started").arg(variable, command);
    }
    if (QDesktopServices::openUrl(QUrl::fromLocalFile(m_path))) {
        setStatus(tr("Opened %1 with the desktop's application for it; what you save there is "
                     "loaded here.")
                          .arg(displayName())
                  + unsaved);
        return;
    }
    if (failures.isEmpty())
        failures << tr("VISUAL and EDITOR are not set");
    setStatus(tr("Could not open %1 in an external editor: %2, and the desktop has no "
                 "application for it. Set VISUAL or EDITOR to an editor command, such as "
                 "\"kate\" or \"code\".")
                      .arg(displayName(), failures.join(tr("; "))),
              StatusKind::Error);
}

} // namespace Gui
