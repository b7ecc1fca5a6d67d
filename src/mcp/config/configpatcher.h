#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QString>

#include <nlohmann/json.hpp>

#include <optional>

namespace Mcp {

/// A programmatic edit of a `.mcp.json` file (the server dock's disable switch) made on the
/// text, not by re-serializing: the user's formatting, key order and every byte outside the
/// edit stay as they were. The file is validated first and refused untouched if it does not
/// parse or lacks the server; the result is checked to parse to exactly the intended document
/// before it is saved atomically (QSaveFile). Stateless. Not to be confused with the window's
/// ConfigEditorPane, the editor a user types in.
class ConfigPatcher
{
    Q_DECLARE_TR_FUNCTIONS(Mcp::ConfigPatcher)

public:
    /// Sets `mcpServers.<server>.disabled`, replacing the existing value or adding the member.
    /// Enabling a server that has no "disabled" member changes nothing.
    static bool setServerDisabled(const QString &filePath, const QString &server, bool disabled,
                                  QString *error = nullptr);

    /// The same edit on text (e.g. the config editor pane's unsaved buffer). `fileName` is
    /// only used in error messages. std::nullopt (and *error) if the edit is refused; the text
    /// unchanged if nothing needed changing.
    /// Adds `mcpServers.<server>` with `definition` (written 2-space indented, its members in
    /// their order, as the file's
    /// neighbours are punctuated), creating "mcpServers" (or the whole document, when `text`
    /// is empty) where missing. Refused when the server exists already.
    static std::optional<QByteArray> withServerAdded(const QByteArray &text,
                                                     const QString &fileName, const QString &server,
                                                     const nlohmann::ordered_json &definition,
                                                     QString *error = nullptr);
    /// Removes `mcpServers.<server>` and its separator; refused when there is no such server.
    static std::optional<QByteArray> withServerRemoved(const QByteArray &text,
                                                       const QString &fileName,
                                                       const QString &server,
                                                       QString *error = nullptr);
    /// Replaces the value of `mcpServers.<server>` with `definition` (an update of an installed
    /// server), where it stands; refused when there is no such server.
    static std::optional<QByteArray>
    withServerReplaced(const QByteArray &text, const QString &fileName, const QString &server,
                       const nlohmann::ordered_json &definition, QString *error = nullptr);
    /// The same on a file: a missing file is created (with its folder) by addServer().
    static bool addServer(const QString &filePath, const QString &server,
                          const nlohmann::ordered_json &definition, QString *error = nullptr);
    static bool removeServer(const QString &filePath, const QString &server,
                             QString *error = nullptr);
    static bool replaceServer(const QString &filePath, const QString &server,
                              const nlohmann::ordered_json &definition, QString *error = nullptr);

    static std::optional<QByteArray> withServerDisabled(const QByteArray &text,
                                                        const QString &fileName,
                                                        const QString &server, bool disabled,
                                                        QString *error = nullptr);
};

} // namespace Mcp
