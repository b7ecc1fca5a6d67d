#pragma once

#include "approval.h"

#include <QString>

namespace Engine {

/// The user's "always allow" decisions, kept in the user's data folder (never in a workspace,
/// whose files anyone who hands over a repository controls): per workspace, per tool
/// (ToolKey: built-in or server and the tool's own name) and, for a command-line tool, per
/// command pattern. One JSON file, 0600 in a 0700 folder, rewritten atomically; read again on
/// every question so that two windows (or the window and the CLI) see each other's grants.
/// Owned by the ToolRunner that consults it; the window and the CLI build it the same way.
class ApprovalStore
{
public:
    /// `file` empty: defaultFile().
    explicit ApprovalStore(QString file = QString());

    /// QStandardPaths::AppDataLocation + "/approvals.json" (~/.local/share/switchboard/).
    static QString defaultFile();
    const QString &file() const { return m_file; }

    /// Whether an "always allow" covers this call of `key` in `workspace`. `command`: the
    /// call's command for a command-line tool (matched against the saved patterns), else
    /// empty.
    bool allows(const QString &workspace, const ToolKey &key, const QString &command) const;

    /// Records a grant. `commandPattern`: for a command-line tool, the CommandPattern it
    /// covers (never empty for one; an exact command is a pattern too); empty for others.
    /// False, with a message naming the file, when it could not be written.
    bool add(const QString &workspace, const ToolKey &key, const QString &commandPattern,
             QString *error = nullptr);

    /// A file larger than this is not ours (or is damaged): it is ignored rather than read.
    /// Thousands of grants fit in far less.
    static constexpr qint64 MaxFileBytes = 4 * 1024 * 1024;

private:
    Json load(QString *error) const;

    QString m_file;
};

} // namespace Engine
