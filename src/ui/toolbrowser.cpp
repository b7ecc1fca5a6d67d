#include "toolbrowser.h"

#include "resultviewer.h"
#include "risk.h"

#include "schemaform.h"
#include "serverbrowsers.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QImage>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTextDocument>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <memory>
#include <utility>

namespace Gui {

using Engine::Json;
using Engine::Risk;

namespace {

constexpr int NameRole = Qt::UserRole; // registry name on tool items; empty on sources

// Text up to this length is shown in a label; beyond it a scrolling read-only editor keeps
// layout fast (a wrapped label re-lays out its whole text on every resize).
constexpr int LabelTextChars = 4000;
// Lines a long text or JSON view shows before it scrolls inside the result view.
constexpr int ResultViewLines = 15;
// Images wider than this are scaled down to fit the result pane; the data stays intact.
constexpr int MaxImageWidth = 512;
// Base64 image data above this (~12 MB decoded) is not decoded on the GUI thread; MCP
// servers send screenshots and charts, well below it.
constexpr qsizetype MaxImageBase64 = 16 * 1024 * 1024;

const char *const ErrorStyle = "color: #c62828;";

QColor riskColor(Risk risk)
{
    switch (risk) {
    case Risk::Read:
        return QColor(0x2e, 0x7d, 0x32); // green
    case Risk::Mutating:
        return QColor(0xb2, 0x6a, 0x00); // amber, dark enough to read on white
    case Risk::Dangerous:
        break;
    }
    return QColor(0xc6, 0x28, 0x28); // red
}

QString str(const Json &value)
{
    return value.is_string() ? QString::fromStdString(value.get<std::string>()) : QString();
}

QString pretty(const Json &value)
{
    // replace: a server's invalid UTF-8 must not throw on the GUI thread.
    return QString::fromStdString(value.dump(2, ' ', false, Json::error_handler_t::replace));
}

QPlainTextEdit *readOnlyView(const QString &text, bool monospace, QWidget *parent)
{
    auto view = new QPlainTextEdit(parent);
    view->setReadOnly(true);
    view->setPlainText(text);
    if (monospace)
        view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    const int textLines = int(text.count(QLatin1Char('\n'))) + 1;
    const int lines = std::min(textLines + 1, ResultViewLines); // one spare: font metrics vary
    // A short text fits whole; a scroll bar beside it would only suggest there is more.
    if (textLines < ResultViewLines)
        view->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    view->setFixedHeight(QFontMetrics(view->font()).lineSpacing() * lines
                         + 2 * (view->frameWidth() + int(view->document()->documentMargin())) + 6);
    return view;
}

} // namespace

ToolBrowser::ToolBrowser(Engine::ToolRegistry *registry, Engine::ToolRunner *runner,
                         QWidget *parent)
    : QDialog(parent)
    , m_registry(registry)
    , m_runner(runner)
{
    resize(1000, 700);

    // Left: search + sources → tools.
    auto left = new QWidget(this);
    auto leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    m_search = new QLineEdit(left);
    m_search->setObjectName(QStringLiteral("searchEdit"));
    m_search->setClearButtonEnabled(true);
    m_tree = new QTreeWidget(left);
    m_tree->setObjectName(QStringLiteral("toolTree"));
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(false);
    // A long server name keeps its end in a narrow tree ("MCP server: every…ng-http").
    m_tree->setTextElideMode(Qt::ElideMiddle);
    leftLayout->addWidget(m_search);
    leftLayout->addWidget(m_tree);

    // Right top: what the tool says about itself, its form and schema, Run/Cancel.
    auto details = new QWidget(this);
    auto detailsLayout = new QVBoxLayout(details);
    detailsLayout->setContentsMargins(0, 0, 0, 0);
    m_title = new QLabel(details);
    m_title->setTextFormat(Qt::PlainText);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.2);
    m_title->setFont(titleFont);
    m_description = new QLabel(details);
    m_description->setTextFormat(Qt::PlainText); // the server's words, never markup
    m_description->setWordWrap(true);
    m_description->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_meta = new QLabel(details);
    m_meta->setTextFormat(Qt::RichText); // every server-given part is escaped
    m_meta->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_hints = new QLabel(details);
    m_hints->setTextFormat(Qt::PlainText);
    m_hints->setWordWrap(true);
    m_hints->setForegroundRole(QPalette::PlaceholderText);
    m_hints->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto tabs = m_tabs = new QTabWidget(details);
    m_form = new SchemaForm(this);
    m_form->setObjectName(QStringLiteral("schemaForm"));
    auto formScroll = new QScrollArea(tabs);
    formScroll->setWidgetResizable(true);
    formScroll->setWidget(m_form);
    tabs->addTab(formScroll, QString());
    m_schemaView = new QPlainTextEdit(tabs);
    m_schemaView->setObjectName(QStringLiteral("schemaView"));
    m_schemaView->setReadOnly(true);
    m_schemaView->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    tabs->addTab(m_schemaView, QString());

    auto buttons = new QHBoxLayout;
    m_runButton = new QPushButton(details);
    m_runButton->setObjectName(QStringLiteral("runButton"));
    m_cancelButton = new QPushButton(details);
    m_cancelButton->setObjectName(QStringLiteral("cancelButton"));
    m_status = new QLabel(details);
    m_status->setObjectName(QStringLiteral("statusLabel"));
    m_status->setTextFormat(Qt::PlainText);
    buttons->addWidget(m_runButton);
    buttons->addWidget(m_cancelButton);
    buttons->addWidget(m_status, 1);

    detailsLayout->addWidget(m_title);
    detailsLayout->addWidget(m_description);
    detailsLayout->addWidget(m_meta);
    detailsLayout->addWidget(m_hints);
    detailsLayout->addWidget(tabs, 1);
    detailsLayout->addLayout(buttons);

    // Right bottom: the whole result, block by block.
    auto resultPane = new QWidget(this);
    auto resultPaneLayout = new QVBoxLayout(resultPane);
    resultPaneLayout->setContentsMargins(0, 0, 0, 0);
    m_resultLabel = new QLabel(resultPane);
    resultPaneLayout->addWidget(m_resultLabel);
    m_resultArea = new QScrollArea(resultPane);
    m_resultArea->setObjectName(QStringLiteral("resultView"));
    m_resultArea->setWidgetResizable(true);
    m_resultBody = new QWidget(m_resultArea);
    m_resultLayout = new QVBoxLayout(m_resultBody);
    m_resultLayout->addStretch(1);
    m_resultArea->setWidget(m_resultBody);
    resultPaneLayout->addWidget(m_resultArea);

    auto right = new QSplitter(Qt::Vertical, this);
    right->addWidget(details);
    right->addWidget(resultPane);
    right->setSizes({380, 320}); // a result with an image needs room from the start
    auto split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);

    auto close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto layout = new QVBoxLayout(this);
    m_pages = new QTabWidget(this);
    m_pages->setObjectName(QStringLiteral("browserPages"));
    m_pages->addTab(split, QString());
    layout->addWidget(m_pages, 1);
    layout->addWidget(close);

    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_search, &QLineEdit::textChanged, this, &ToolBrowser::applyFilter);
    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        if (item && !item->data(0, NameRole).toString().isEmpty())
            showTool(item->data(0, NameRole).toString());
    });
    connect(m_runButton, &QPushButton::clicked, this, &ToolBrowser::run);
    connect(m_cancelButton, &QPushButton::clicked, this, &ToolBrowser::cancel);
    m_rebuildTimer = new QTimer(this);
    m_rebuildTimer->setSingleShot(true);
    m_rebuildTimer->setInterval(0);
    connect(m_rebuildTimer, &QTimer::timeout, this, &ToolBrowser::rebuildTree);
    connect(m_registry, &Engine::ToolRegistry::toolsChanged, this, &ToolBrowser::scheduleRebuild);
    connect(m_registry, &Engine::ToolRegistry::offeringChanged, this,
            &ToolBrowser::scheduleRebuild);
    connect(m_tree, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem *item, int column) {
        const QString name = item->data(0, NameRole).toString();
        if (column != 0 || name.isEmpty() || !(item->flags() & Qt::ItemIsUserCheckable))
            return;
        const bool offered = item->checkState(0) == Qt::Checked;
        if (offered == !m_registry->notOfferedTools().contains(name))
            return;
        emit offerChanged(name, offered);
    });

    retranslateUi();
    rebuildTree();
    showTool(QString());
    clearResult();
}

void ToolBrowser::addServerPages(Mcp::Manager *manager, Engine::SkillCatalog *skills)
{
    if (m_resources)
        return;
    m_resources = new ResourceBrowser(manager, m_pages);
    m_prompts = new PromptBrowser(manager, m_pages);
    m_skills = new SkillList(skills, m_pages);
    m_pages->addTab(m_resources, QString());
    m_pages->addTab(m_prompts, QString());
    m_pages->addTab(m_skills, QString());
    retranslateUi();
}

void ToolBrowser::showPage(Page page)
{
    m_pages->setCurrentIndex(int(page));
}

void ToolBrowser::retranslateUi()
{
    setWindowTitle(tr("Tools"));
    m_pages->setTabText(0, tr("Tools"));
    if (m_resources) {
        m_pages->setTabText(1, tr("Resources"));
        m_pages->setTabText(2, tr("Prompts"));
        m_pages->setTabText(3, tr("Skills"));
    }
    m_search->setPlaceholderText(tr("Search tools"));
    m_tree->setHeaderLabels({tr("Tool"), tr("Risk")});
    m_tabs->setTabText(0, tr("Arguments"));
    m_tabs->setTabText(1, tr("Input schema"));
    m_runButton->setText(tr("Run"));
    m_cancelButton->setText(tr("Cancel run"));
    m_resultLabel->setText(tr("Result"));
}

void ToolBrowser::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange && m_tabs) {
        retranslateUi();
        scheduleRebuild();   // the server headings
        showTool(m_current); // what was typed into the form stays
    }
    QDialog::changeEvent(event);
}

ToolBrowser::~ToolBrowser()
{
    if (m_releaseViewPanel)
        m_releaseViewPanel();
    // A run started here should not outlive the window that shows it; forget it first so
    // its completion does not touch a half-destroyed dialog.
    if (const auto id = m_runId) {
        m_runId = 0;
        m_runner->cancel(id);
    }
}

bool ToolBrowser::selectTool(const QString &name)
{
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem *source = m_tree->topLevelItem(i);
        for (int j = 0; j < source->childCount(); ++j) {
            if (source->child(j)->data(0, NameRole).toString() == name) {
                m_tree->setCurrentItem(source->child(j));
                return true;
            }
        }
    }
    return false;
}

void ToolBrowser::keyPressEvent(QKeyEvent *event)
{
    if (event->key() != Qt::Key_Escape || event->modifiers() != Qt::NoModifier) {
        QDialog::keyPressEvent(event);
        return;
    }
    QWidget *focus = focusWidget();
    if (m_runId != 0) {
        cancel(); // as Esc stops a reply in the chat
    } else if (focus == m_search && !m_search->text().isEmpty()) {
        m_search->clear();
    } else if (focus && focus != m_search
               && (qobject_cast<QLineEdit *>(focus) || qobject_cast<QPlainTextEdit *>(focus))
               && !focus->property("readOnly").toBool()) {
        // What was typed stays; the person is out of the field, and the next Esc closes.
        m_tree->setFocus();
    } else {
        QDialog::keyPressEvent(event);
    }
}

void ToolBrowser::scheduleRebuild()
{
    if (isVisible())
        m_rebuildTimer->start();
    else
        m_stale = true;
}

void ToolBrowser::showEvent(QShowEvent *event)
{
    QDialog::showEvent(event);
    if (std::exchange(m_stale, false))
        rebuildTree();
}

void ToolBrowser::rebuildTree()
{
    m_rebuildTimer->stop();
    m_stale = false;
    const QString current = m_current;
    {
        const QSignalBlocker blocker(m_tree);
        m_tree->clear();
        QTreeWidgetItem *source = nullptr;
        QString sourceName;
        // The registry lists built-ins first, then MCP tools grouped by server name.
        for (const auto &tool : m_registry->tools()) {
            if (!source || tool->source() != sourceName) {
                sourceName = tool->source();
                source = new QTreeWidgetItem(m_tree);
                QString heading = tool->isBuiltin() ? tr("Built-in tools")
                                                    : tr("MCP server: %1").arg(sourceName);
                if (!tool->isBuiltin() && !m_registry->isSourceOffered(sourceName))
                    heading += QLatin1Char(' ') + tr("(not offered to the model)");
                source->setText(0, heading);
                source->setToolTip(0, heading); // cut in a narrow tree
                source->setFlags(Qt::ItemIsEnabled);
                QFont bold = source->font(0);
                bold.setBold(true);
                source->setFont(0, bold);
            }
            auto item = new QTreeWidgetItem(source);
            // Under its server's heading an MCP tool goes by its own name.
            item->setText(0, tool->isBuiltin() ? tool->name() : tool->originalName());
            item->setData(0, NameRole, tool->name());
            item->setToolTip(0, item->text(0) + QLatin1Char('\n') + tool->description());
            // Checked: the model is offered the tool. The configuration's own choice
            // ("enabledTools" / "disabledTools") is shown, not changed here.
            if (!tool->appUi().model) {
                // MCP Apps: only the server's own view may call it; never the model.
                item->setText(0, item->text(0) + QLatin1Char(' ') + tr("(app only)"));
                item->setCheckState(0, Qt::Unchecked);
                item->setFlags(item->flags() & ~Qt::ItemIsUserCheckable);
                item->setToolTip(0, tr("App only: the server lets only its own interactive view "
                                       "call this tool, so the model is never offered it. You "
                                       "can still run it here.")
                                            + QLatin1Char('\n') + tool->description());
            } else if (tool->offeredByConfig()) {
                item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
                item->setCheckState(0, m_registry->notOfferedTools().contains(tool->name())
                                               ? Qt::Unchecked
                                               : Qt::Checked);
            } else {
                item->setCheckState(0, Qt::Unchecked);
                item->setFlags(item->flags() & ~Qt::ItemIsUserCheckable);
                item->setToolTip(0, tr("Not offered to the model: the configuration leaves it "
                                       "out (enabledTools / disabledTools).")
                                            + QLatin1Char('\n') + tool->description());
            }
            item->setText(1, riskText(tool->risk()));
            item->setForeground(1, riskColor(tool->risk()));
            // What the filter matches besides the name.
            item->setData(0, Qt::UserRole + 1,
                          QStringList{tool->name(), tool->description(), sourceName}.join(
                                  QLatin1Char('\n')));
        }
        m_tree->expandAll();
    }
    applyFilter();
    if (current.isEmpty())
        return;
    if (selectTool(current)) {
        showTool(current); // refreshes the details; keeps typed arguments if the schema held
    } else {
        showTool(QString());
        m_description->setText(tr("The tool '%1' is no longer available: its server stopped "
                                  "or changed its tool list.")
                                       .arg(current));
    }
}

void ToolBrowser::applyFilter()
{
    const QString needle = m_search->text().trimmed();
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem *source = m_tree->topLevelItem(i);
        const bool sourceMatches = source->text(0).contains(needle, Qt::CaseInsensitive);
        int visible = 0;
        for (int j = 0; j < source->childCount(); ++j) {
            QTreeWidgetItem *item = source->child(j);
            const bool match = needle.isEmpty() || sourceMatches
                               || item->text(0).contains(needle, Qt::CaseInsensitive)
                               || item->data(0, Qt::UserRole + 1)
                                          .toString()
                                          .contains(needle, Qt::CaseInsensitive);
            item->setHidden(!match);
            visible += match ? 1 : 0;
        }
        source->setHidden(visible == 0);
    }
}

void ToolBrowser::showTool(const QString &name)
{
    const std::shared_ptr<Engine::Tool> tool = name.isEmpty() ? nullptr : m_registry->find(name);
    const bool sameTool = tool && name == m_current;
    if (!sameTool && m_runId == 0) { // the last tool's result is not this one's
        clearResult();
        setStatus(QString());
    }
    m_current = tool ? name : QString();
    m_runButton->setEnabled(tool && m_runId == 0);
    m_cancelButton->setEnabled(m_runId != 0);
    if (!tool) {
        m_title->setText(tr("No tool selected"));
        m_description->setText(tr("Choose a tool on the left to see what it does and run it."));
        m_meta->clear();
        m_hints->hide();
        m_schemaView->clear();
        m_form->setSchema(Json::object());
        m_form->hide(); // not "takes no arguments": there is no tool
        return;
    }
    m_form->show();

    m_title->setText(tool->name());
    m_description->setText(tool->description().isEmpty() ? tr("(no description)")
                                                         : tool->description());
    const QString source = tool->isBuiltin() ? tr("built-in") : tool->source();
    m_meta->setText(tr("Risk: <span style=\"color:%1\"><b>%2</b></span> &middot; Source: %3 "
                       "&middot; Name at source: %4")
                            .arg(riskColor(tool->risk()).name(), riskText(tool->risk()),
                                 source.toHtmlEscaped(), tool->originalName().toHtmlEscaped()));
    const Json hints = tool->hints();
    if (hints.is_object() && !hints.empty()) {
        QStringList parts;
        for (auto it = hints.begin(); it != hints.end(); ++it)
            parts << QStringLiteral("%1: %2").arg(
                    QString::fromStdString(it.key()),
                    QString::fromStdString(
                            it.value().dump(-1, ' ', false, Json::error_handler_t::replace)));
        m_hints->setText(tr("Server hints (untrusted; Switchboard decides by the risk above): %1")
                                 .arg(parts.join(QStringLiteral(", "))));
        m_hints->show();
    } else {
        m_hints->hide();
    }
    const Json schema = tool->inputSchema();
    m_schemaView->setPlainText(pretty(schema));
    // Rebuilding on every registry change would throw away what the person typed.
    if (!sameTool || m_form->schema() != schema)
        m_form->setSchema(schema);
}

void ToolBrowser::run()
{
    if (m_current.isEmpty() || m_runId != 0)
        return;
    QString error;
    const Json arguments = m_form->values(&error);
    if (arguments.is_null()) {
        clearResult();
        addResultText(error, true);
        setStatus(tr("Fix the arguments, then run again."));
        return;
    }

    Engine::ToolCallRequest call;
    call.id = QStringLiteral("manual");
    call.name = m_current;
    call.arguments = arguments;
    m_runningTool = m_current;
    m_runningArguments = arguments;

    // The runner reports asynchronously (never inside run()), so the id is known by then;
    // comparing it drops a report for a run this window has already let go of.
    auto token = std::make_shared<Engine::ToolRunner::RunId>(0);
    Engine::ToolRunner::Callbacks callbacks;
    callbacks.onStarted = [this, token] {
        if (*token == m_runId)
            setStatus(tr("Running…"));
    };
    callbacks.onProgress = [this, token](const Mcp::Progress &progress) {
        if (*token != m_runId)
            return;
        QString text = progress.total
                               ? tr("Running… %1 of %2").arg(progress.progress).arg(*progress.total)
                               : tr("Running… %1").arg(progress.progress);
        if (!progress.message.isEmpty())
            text = tr("%1 — %2").arg(text, progress.message);
        setStatus(text);
    };
    callbacks.onDone = [this, token](Engine::ToolRunResult result) {
        if (*token == m_runId)
            finished(std::move(result));
    };
    clearResult();
    m_runButton->setEnabled(false);
    m_cancelButton->setEnabled(true);
    setStatus(tr("Starting…"));
    // Pressing Run on what was typed here is the approval: no dialog asks about it again.
    m_runId = m_runner->run(call, QString(), this, std::move(callbacks), Engine::CallOrigin::User);
    *token = m_runId;
}

void ToolBrowser::cancel()
{
    if (m_runId != 0)
        m_runner->cancel(m_runId); // reports through onDone, synchronously
}

void ToolBrowser::finished(Engine::ToolRunResult result)
{
    m_runId = 0;
    m_runButton->setEnabled(!m_current.isEmpty());
    m_cancelButton->setEnabled(false);
    clearResult();

    // Shared with the viewers of its big blocks, which show its bytes where they are.
    const auto shared = std::make_shared<const Engine::ToolRunResult>(std::move(result));
    const Engine::ToolOutput &output = shared->output;
    if (shared->denied)
        setStatus(tr("Denied: %1 did not run.").arg(m_runningTool));
    else if (shared->cancelled)
        setStatus(tr("Cancelled."));
    else if (shared->timedOut)
        setStatus(tr("Timed out."));
    else if (output.isError)
        setStatus(tr("%1 reported an error.").arg(m_runningTool));
    else
        setStatus(tr("%1 finished.").arg(m_runningTool));

    if (m_makeViewPanel) {
        if (QWidget *panel
            = m_makeViewPanel(m_resultBody, m_runningTool, m_runningArguments, shared))
            addResultWidget(panel);
    }
    if (output.content.is_array()) {
        for (const Json &block : output.content)
            addResultBlock(block, output.isError, shared);
    }
    if (!output.structuredContent.is_null()) {
        auto label = new QLabel(tr("Structured content:"), m_resultBody);
        addResultWidget(label);
        const std::string compact
                = output.structuredContent.dump(-1, ' ', false, Json::error_handler_t::replace);
        QWidget *view = nullptr;
        if (compact.size() <= size_t(PreviewBytes)) { // pretty-printed only when small
            view = readOnlyView(pretty(output.structuredContent), true, m_resultBody);
            addResultWidget(view);
        } else {
            view = addLargeResult(QByteArray::fromStdString(compact), true, false);
        }
        view->setObjectName(QStringLiteral("structuredContent"));
    }
    if (m_resultLayout->count() == 1)
        addResultText(tr("(The tool returned no content.)"), output.isError);
    emit runFinished(output.isError);
}

void ToolBrowser::setViewPanel(ViewPanel make, std::function<void()> release)
{
    m_makeViewPanel = std::move(make);
    m_releaseViewPanel = std::move(release);
}

void ToolBrowser::clearResult()
{
    if (m_releaseViewPanel)
        m_releaseViewPanel();
    while (m_resultLayout->count() > 1) {
        QLayoutItem *item = m_resultLayout->takeAt(0);
        delete item->widget();
        delete item;
    }
}

void ToolBrowser::addResultText(const QString &text, bool isError)
{
    QWidget *widget = nullptr;
    if (text.size() <= LabelTextChars) {
        auto label = new QLabel(text, m_resultBody);
        label->setTextFormat(Qt::PlainText);
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        widget = label;
    } else {
        widget = readOnlyView(text, false, m_resultBody);
    }
    if (isError)
        widget->setStyleSheet(QLatin1String(ErrorStyle));
    addResultWidget(widget);
}

QWidget *ToolBrowser::addLargeResult(const QByteArray &utf8, bool monospace, bool isError,
                                     const std::shared_ptr<const void> &owner)
{
    const ResultPreview preview = makePreview(utf8);
    QPlainTextEdit *view = readOnlyView(preview.text, monospace, m_resultBody);
    if (isError)
        view->setStyleSheet(QLatin1String(ErrorStyle));
    addResultWidget(view);
    auto *more = new QPushButton(preview.note + QLatin1Char(' ') + tr("Open the whole result…"),
                                 m_resultBody);
    more->setObjectName(QStringLiteral("openWholeResult"));
    connect(more, &QPushButton::clicked, this, [this, utf8, owner] {
        auto *viewer = new ResultViewer(tr("Result of %1").arg(m_runningTool), utf8, this, owner);
        viewer->setAttribute(Qt::WA_DeleteOnClose);
        viewer->show();
    });
    addResultWidget(more);
    return view;
}

void ToolBrowser::addResultBlock(const Json &block, bool isError,
                                 const std::shared_ptr<const void> &owner)
{
    const QString type = str(block.value("type", Json()));
    if (type == QLatin1String("text")) {
        const auto text = block.find("text");
        if (text != block.end() && text->is_string()
            && text->get_ref<const std::string &>().size() > size_t(PreviewBytes)) {
            const std::string &bytes = text->get_ref<const std::string &>();
            addLargeResult(QByteArray::fromRawData(bytes.data(), qsizetype(bytes.size())), false,
                           isError, owner);
            return;
        }
        addResultText(str(block.value("text", Json())), isError);
        return;
    }
    const QString mime = str(block.value("mimeType", Json()));
    if (type == QLatin1String("image")) {
        const QByteArray data
                = block.value("data", Json()).is_string()
                          ? QByteArray::fromStdString(block["data"].get<std::string>())
                          : QByteArray();
        QImage image;
        if (data.size() <= MaxImageBase64) {
            const auto decoded
                    = QByteArray::fromBase64Encoding(data, QByteArray::AbortOnBase64DecodingErrors);
            if (decoded)
                image.loadFromData(*decoded);
        }
        if (image.isNull()) {
            addResultText(tr("[image %1 could not be decoded]").arg(mime), true);
            return;
        }
        auto label = new QLabel(m_resultBody);
        label->setObjectName(QStringLiteral("resultImage"));
        QPixmap pixmap = QPixmap::fromImage(image);
        if (pixmap.width() > MaxImageWidth)
            pixmap = pixmap.scaledToWidth(MaxImageWidth, Qt::SmoothTransformation);
        label->setPixmap(pixmap);
        label->setToolTip(tr("%1, %2×%3").arg(mime).arg(image.width()).arg(image.height()));
        label->setAlignment(Qt::AlignLeft);
        addResultWidget(label);
        return;
    }
    if (type == QLatin1String("audio")) {
        const qsizetype bytes = str(block.value("data", Json())).size() * 3 / 4;
        addResultText(tr("[audio %1, about %2 bytes]").arg(mime).arg(bytes), isError);
        return;
    }
    if (type == QLatin1String("resource_link")) {
        addResultText(
                tr("Link: %1 %2")
                        .arg(str(block.value("name", Json())), str(block.value("uri", Json()))),
                isError);
        return;
    }
    if (type == QLatin1String("resource") && block.contains("resource")
        && block["resource"].is_object()) {
        const Json &resource = block["resource"];
        const QString uri = str(resource.value("uri", Json()));
        if (resource.contains("text")) {
            addResultText(tr("Resource %1:").arg(uri), isError);
            addResultText(str(resource["text"]), isError);
        } else {
            addResultText(tr("[resource %1, %2]").arg(uri, str(resource.value("mimeType", Json()))),
                          isError);
        }
        return;
    }
    // Unknown block types are shown as they came, so nothing the server sent is hidden.
    auto view = readOnlyView(pretty(block), true, m_resultBody);
    addResultWidget(view);
}

void ToolBrowser::addResultWidget(QWidget *widget)
{
    m_resultLayout->insertWidget(m_resultLayout->count() - 1, widget);
    // A layout only schedules showing a widget added to a visible parent; show it now so the
    // result is there at once (and in a grab()).
    widget->show();
}

void ToolBrowser::setStatus(const QString &text)
{
    m_status->setText(text);
}

} // namespace Gui
