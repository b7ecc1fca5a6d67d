#pragma once

#include <engine/approval/toolrunner.h>

#include <QDialog>
#include <QPointer>

#include <functional>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QScrollArea;
class QShowEvent;
class QTabWidget;
class QTimer;
class QTreeWidget;
class QTreeWidgetItem;
class QVBoxLayout;

namespace Engine {
class SkillCatalog;
}

namespace Mcp {
class Manager;
}

namespace Gui {

class PromptBrowser;
class ResourceBrowser;
class SkillList;
class SchemaForm;

// Lets a person see every tool the model can call (built-ins, then each MCP server), read
// what it claims about itself, and run it by hand with a generated form. Runs go through the
// ToolRunner like the model's calls, so the same approval rules apply. Non-modal; owned by the
// main window, which also owns the registry and runner it is given (they outlive it).
class ToolBrowser : public QDialog
{
    Q_OBJECT
public:
    ToolBrowser(Engine::ToolRegistry *registry, Engine::ToolRunner *runner,
                QWidget *parent = nullptr);
    ~ToolBrowser() override;

    // The Resources, Prompts and Skills pages, for the servers of `manager` (once).
    void addServerPages(Mcp::Manager *manager, Engine::SkillCatalog *skills);
    ResourceBrowser *resourceBrowser() const { return m_resources; }
    PromptBrowser *promptBrowser() const { return m_prompts; }
    SkillList *skillList() const { return m_skills; }
    enum class Page { Tools, Resources, Prompts, Skills };
    void showPage(Page page);

    // MCP Apps: after a manual run of a tool with a view, `make` gives the widget that shows
    // it (nullptr: the tool has none), put first in the result; `release` is called before
    // that widget goes (a new run, the browser closing), so the view is told it goes.
    using ViewPanel = std::function<QWidget *(QWidget *parent, const QString &tool,
                                              const Engine::Json &arguments,
                                              const Engine::SharedToolRunResult &result)>;
    void setViewPanel(ViewPanel make, std::function<void()> release);

    // Selects a tool by registry name (false if it is not listed).
    bool selectTool(const QString &name);
    QString selectedTool() const { return m_current; }
    bool isRunning() const { return m_runId != 0; }

signals:
    // A manual run ended (done, failed, denied or cancelled); the result view shows it.
    void runFinished(bool isError);
    // The user checked or unchecked a tool: whether the model is offered it.
    void offerChanged(const QString &tool, bool offered);

protected:
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;
    // Esc stops a run, clears the filter, or leaves a field being typed in; only then closes.
    void keyPressEvent(QKeyEvent *event) override;

private:
    void retranslateUi();
    void rebuildTree();
    // The registry changed: rebuilt once the changes settle, and only while shown.
    void scheduleRebuild();
    void applyFilter();
    void showTool(const QString &name);
    void run();
    void cancel();
    void finished(Engine::ToolRunResult result);
    void clearResult();
    void addResultText(const QString &text, bool isError);
    // A text over PreviewBytes: its head, and a button that opens the whole in a viewer.
    // `utf8` may refer to bytes `owner` keeps (a 20 MB result is not copied).
    QWidget *addLargeResult(const QByteArray &utf8, bool monospace, bool isError,
                            const std::shared_ptr<const void> &owner = {});
    void addResultBlock(const Engine::Json &block, bool isError,
                        const std::shared_ptr<const void> &owner);
    void addResultWidget(QWidget *widget);
    void setStatus(const QString &text);

    Engine::ToolRegistry *m_registry;
    Engine::ToolRunner *m_runner;

    QLineEdit *m_search;
    QTreeWidget *m_tree;
    QTabWidget *m_tabs = nullptr;
    QTabWidget *m_pages = nullptr;
    ResourceBrowser *m_resources = nullptr;
    PromptBrowser *m_prompts = nullptr;
    SkillList *m_skills = nullptr;
    QLabel *m_resultLabel = nullptr;
    QLabel *m_title;
    QLabel *m_description;
    QLabel *m_meta;
    QLabel *m_hints;
    QPlainTextEdit *m_schemaView;
    SchemaForm *m_form;
    QPushButton *m_runButton;
    QPushButton *m_cancelButton;
    QLabel *m_status;
    QScrollArea *m_resultArea;
    QWidget *m_resultBody;
    QVBoxLayout *m_resultLayout;

    QTimer *m_rebuildTimer = nullptr;
    bool m_stale = false;                  // the registry changed while hidden
    QString m_current;                     // registry name of the tool shown
    Engine::ToolRunner::RunId m_runId = 0; // 0 when nothing runs
    QString m_runningTool;
    Engine::Json m_runningArguments;
    ViewPanel m_makeViewPanel;
    std::function<void()> m_releaseViewPanel;
};

} // namespace Gui
