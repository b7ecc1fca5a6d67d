#pragma once

#include <engine/secrets/processenvironment.h>
#include <mcp/config/config.h>
#include <mcp/manager.h>

#include <QByteArray>
#include <QList>
#include <QPointer>
#include <QProcessEnvironment>
#include <QTimer>
#include <QWidget>

#include <functional>

class QFileSystemWatcher;
class QFrame;
class QLabel;
class QListWidget;
class QMessageBox;
class QPushButton;
class QsciScintilla;

namespace Gui {

// Edits the workspace's `.mcp.json` (or the file given with --config) as text: JSON
// highlighting, live validation by Mcp::ConfigLoader (each problem squiggled at its line and
// column, flagged in the margin and listed below the text; a click on the list jumps to it), and
// a live preview of the servers Apply would restart, start and stop. Save writes atomically and
// asks first before replacing a valid file with text that has problems, or a file that changed
// on disk since it was loaded. Apply saves, reloads the configuration as the application does
// (the file merged over the user's) and hands it to the owner's apply handler, which restarts
// what changed. Follows the file on disk and opens it in the user's own editor on request.
// Owned by the main window (inside a dock); it never touches the Manager itself.
class ConfigEditorPane : public QWidget
{
    Q_OBJECT
public:
    // Restarts the servers whose settings differ (Manager::reload) and says which ones.
    using ApplyHandler = std::function<Mcp::ReloadPlan(const Mcp::McpConfig &)>;

    // Typing pauses this long before the text is checked: a check on every key would flash
    // half-typed errors, and 300 ms still reads as live.
    static constexpr int ValidationDelayMs = 300;
    // Editors often save in steps (truncate, write, rename); the file is read once they settle.
    static constexpr int DiskSettleMs = 150;

    // Edits `overrideFile`, or `workspaceDir`/.mcp.json when it is empty (as Engine::loadConfig).
    ConfigEditorPane(const QString &workspaceDir, const QString &overrideFile,
                     QWidget *parent = nullptr);
    ~ConfigEditorPane() override;

    QString filePath() const { return m_path; }
    QsciScintilla *editor() const { return m_editor; }
    // The text differs from what was last loaded or saved.
    bool isModified() const;

    // `${VAR}` values for validation and Apply, and $VISUAL/$EDITOR; default: the system's.
    void setEnvironment(const QProcessEnvironment &environment);
    // What the servers run now: the base of the "will restart" preview.
    void setAppliedConfig(const Mcp::McpConfig &config);
    void setApplyHandler(ApplyHandler handler);

    // The problems of the text as of the last check, sorted by position.
    const QList<Mcp::ConfigError> &problems() const { return m_problems; }
    // What Apply would do with the text as of the last check.
    const Mcp::ReloadPlan &plan() const { return m_plan; }
    QString statusText() const;
    // Byte position in the editor of a problem's line and column; -1 if it has no line.
    int positionOf(const Mcp::ConfigError &problem) const;

    // Checks the text now instead of after the typing pause.
    void validate();
    void save();
    // Saves (same rules as save()), then reloads and applies; refused while the text has
    // problems, since the servers they concern would be stopped.
    void apply();
    // Loads the file again, asking first if that discards unsaved edits.
    void revert();
    void openInExternalEditor();
    // Moves the cursor to the problem in row `row` of the list.
    void jumpToProblem(int row);

signals:
    void validated();
    void saved(const QString &path);
    void applied(const Mcp::ReloadPlan &plan);

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyColors();
    enum class AfterSave { Nothing, Apply };
    enum class StatusKind { Info, Error };
    // How usable a text is as a configuration; a save that lowers it asks first.
    enum class Validity { NotJson, HasProblems, Valid };
    struct DiskState
    {
        bool exists = false;
        bool readable = false;
        QByteArray bytes;
        QString error;
    };

    void setUpEditor();
    void retranslateUi();
    long sci(unsigned int message, unsigned long wParam = 0, long lParam = 0) const;

    DiskState readDisk() const;
    void loadFromDisk(bool keepUndo);
    void setEditorBytes(const QByteArray &bytes, bool keepUndo);
    QByteArray editorBytes() const; // as it would be saved (with the file's byte order mark)
    Validity validityOf(const QByteArray &bytes) const;
    Mcp::McpConfig withUserConfig(const Mcp::McpConfig &edited) const;

    void requestSave(AfterSave after);
    bool writeFile(AfterSave after);
    void reloadServers();

    void showProblems();
    std::pair<int, int> markedRange(int position) const;
    void updatePlanLabel();
    void updateFileLabel();
    void setStatus(const QString &text, StatusKind kind = StatusKind::Info);
    void watch();
    void checkDisk();
    void showDiskNote(const QString &text);
    void showProblemTip(int position, int x, int y);
    QString displayName() const;

    QString m_workspaceDir;
    QString m_overrideFile;
    QString m_path;
    QProcessEnvironment m_environment = Engine::ProcessEnvironment::original();
    Mcp::McpConfig m_applied;
    ApplyHandler m_applyHandler;

    // The file as last loaded or saved: tells our own writes from other programs' and
    // notices a file changed behind unsaved edits.
    QByteArray m_diskText;
    bool m_diskExists = false;
    bool m_byteOrderMark = false;

    Mcp::McpConfig m_edited; // the text as of the last check
    QList<Mcp::ConfigError> m_problems;
    Mcp::ReloadPlan m_plan;

    QsciScintilla *m_editor = nullptr;
    int m_indicator = -1;
    int m_marker = -1;
    QLabel *m_fileLabel = nullptr;
    QPushButton *m_saveButton = nullptr;
    QPushButton *m_applyButton = nullptr;
    QPushButton *m_revertButton = nullptr;
    QPushButton *m_externalButton = nullptr;
    QFrame *m_diskNote = nullptr;
    QLabel *m_diskNoteLabel = nullptr;
    QPushButton *m_diskNoteButton = nullptr;
    QLabel *m_problemsLabel = nullptr;
    QListWidget *m_problemList = nullptr;
    QLabel *m_planLabel = nullptr;
    QLabel *m_statusLabel = nullptr;
    QPointer<QMessageBox> m_question; // one question at a time

    QTimer m_validateTimer;
    QTimer m_diskTimer;
    QFileSystemWatcher *m_watcher = nullptr;
};

} // namespace Gui
