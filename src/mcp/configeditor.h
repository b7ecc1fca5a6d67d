#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QString>

#include <optional>

namespace Mcp {

/// Small programmatic edits of a `.mcp.json` file — "always allow (saved to config)" in the
/// approval dialog, the server dock's disable switch — made on the text, not by re-serializing:
/// the user's formatting, key order and every byte outside the edit stay as they were. The file
/// is validated first and refused untouched if it does not parse or lacks the server; the
/// result is checked to parse to exactly the intended document before it is saved atomically
/// (QSaveFile). Stateless; callers are the engine's approval handling and the UI.
class ConfigEditor
{
    Q_DECLARE_TR_FUNCTIONS(Mcp::ConfigEditor)

public:
    /// Adds `tool` to `mcpServers.<server>.autoApprove` (creating the array after the server's
    /// last member if absent). Succeeds without writing if the tool is already listed.
    static bool addAutoApprove(const QString &filePath, const QString &server, const QString &tool,
                               QString *error = nullptr);
    /// Sets `mcpServers.<server>.disabled`, replacing the existing value or adding the member.
    /// Enabling a server that has no "disabled" member changes nothing.
    static bool setServerDisabled(const QString &filePath, const QString &server, bool disabled,
                                  QString *error = nullptr);

    /// The same edits on text (e.g. the config editor pane's unsaved buffer). `fileName` is
    /// only used in error messages. std::nullopt (and *error) if the edit is refused; the text
    /// unchanged if nothing needed changing.
    static std::optional<QByteArray> withAutoApprove(const QByteArray &text,
                                                     const QString &fileName, const QString &server,
                                                     const QString &tool, QString *error = nullptr);
    static std::optional<QByteArray> withServerDisabled(const QByteArray &text,
                                                        const QString &fileName,
                                                        const QString &server, bool disabled,
                                                        QString *error = nullptr);
};

} // namespace Mcp
