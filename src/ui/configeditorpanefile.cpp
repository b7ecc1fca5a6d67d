// ConfigEditorPane and its file: loading, saving, applying, reverting, following it on disk,
// opening it in another editor.
#include "configeditorpane.h"

#include "configeditortext.h"
#include "externaleditor.h"

#include <engine/policy/serverpolicy.h>

#include <Qsci/qsciscintilla.h>

#include <QDir>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QFrame>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSet>

namespace Gui {

namespace {

// What the editor holds when there is no file yet; Save creates the file with it.
constexpr char NewFileTemplate[] = "{\n  \"mcpServers\": {\n  }\n}\n";

} // namespace

// Loading

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

void ConfigEditorPane::openInExternalEditor()
{
    // The editor (or the desktop) needs a file to open.
    if (!QFileInfo::exists(m_path) && !writeFile(AfterSave::Nothing))
        return;
    const QString unsaved
            = isModified() ? u' ' + tr("Your unsaved edits here are not in the file.") : QString();
    const ExternalEditor::Launch launch = ExternalEditor::open(m_path, m_environment);
    if (launch.opened && !launch.command.isEmpty()) {
        setStatus(tr("Opened %1 with %2; what you save there is loaded here.")
                          .arg(displayName(), launch.command)
                  + unsaved);
        return;
    }
    if (launch.opened) {
        setStatus(tr("Opened %1 with the desktop's application for it; what you save there is "
                     "loaded here.")
                          .arg(displayName())
                  + unsaved);
        return;
    }
    QStringList failures = launch.failures;
    if (failures.isEmpty())
        failures << tr("VISUAL and EDITOR are not set");
    setStatus(tr("Could not open %1 in an external editor: %2, and the desktop has no "
                 "application for it. Set VISUAL or EDITOR to an editor command, such as "
                 "\"kate\" or \"code\".")
                      .arg(displayName(), failures.join(tr("; "))),
              StatusKind::Error);
}

} // namespace Gui
