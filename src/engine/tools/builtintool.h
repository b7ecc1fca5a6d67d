#pragma once

// What the built-in tools share (internal to src/engine/tools): the translation context, the
// argument reader, file helpers, and the base classes. Each tool lives in a file of its own
// (readfiletool.cpp, listdirtool.cpp, searchfilestool.cpp, writefiletool.cpp,
// editfiletool.cpp, bashtool.cpp); builtintools.cpp puts them together.

#include "builtintools.h"
#include "workspace.h"

#include <mcp/process/childenvironment.h>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSet>
#include <QStringDecoder>
#include <QTimer>

#include <algorithm>
#include <cmath>

#ifdef Q_OS_UNIX
#include <csignal>
#include <unistd.h>
#endif

#include <optional>

namespace Engine::Builtin {

using namespace BuiltinLimits;

// Every message of the built-in tools shares this translation context.
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(Engine::BuiltinTools)
};

QString fromJson(const Json &value);

// Reads the model's arguments. Models send sloppy JSON ("10" for 10, 10.0 for 10), so the
// reader accepts what is unambiguous and otherwise records one clear error, checked once
// after all arguments are read.
class Args
{
public:
    explicit Args(const Json &arguments)
        : m_args(arguments)
    {
    }

    QString string(const char *key, bool required = true, const QString &fallback = {})
    {
        const auto it = m_args.find(key);
        if (it == m_args.end() || it->is_null()) {
            if (required)
                setError(Text::tr("'%1' is required (a string)").arg(QLatin1String(key)));
            return fallback;
        }
        if (!it->is_string()) {
            setError(Text::tr("'%1' must be a string").arg(QLatin1String(key)));
            return fallback;
        }
        return fromJson(*it);
    }

    qint64 integer(const char *key, qint64 fallback, qint64 min, qint64 max)
    {
        const auto it = m_args.find(key);
        if (it == m_args.end() || it->is_null())
            return fallback;
        std::optional<qint64> value;
        if (it->is_number_integer()) {
            value = it->get<qint64>();
        } else if (it->is_number_float()) {
            const double d = it->get<double>();
            if (std::isfinite(d) && d == std::floor(d) && std::abs(d) < 1e15)
                value = qint64(d);
        } else if (it->is_string()) {
            bool ok = false;
            const qint64 parsed = fromJson(*it).trimmed().toLongLong(&ok);
            if (ok)
                value = parsed;
        }
        if (!value || *value < min || *value > max) {
            setError(Text::tr("'%1' must be an integer from %2 to %3")
                             .arg(QLatin1String(key))
                             .arg(min)
                             .arg(max));
            return fallback;
        }
        return *value;
    }

    bool boolean(const char *key, bool fallback)
    {
        const auto it = m_args.find(key);
        if (it == m_args.end() || it->is_null())
            return fallback;
        if (it->is_boolean())
            return it->get<bool>();
        if (it->is_string()) {
            const QString text = fromJson(*it);
            if (text == QLatin1String("true") || text == QLatin1String("false"))
                return text == QLatin1String("true");
        }
        setError(Text::tr("'%1' must be true or false").arg(QLatin1String(key)));
        return fallback;
    }

    bool failed() const { return !m_error.isEmpty(); }
    const QString &error() const { return m_error; }

private:
    void setError(const QString &message)
    {
        if (m_error.isEmpty()) // the first problem is the one to fix first
            m_error = message;
    }

    const Json &m_args;
    QString m_error;
};

// A NUL in the first BinaryProbeBytes marks a binary file.
bool looksBinary(const QByteArray &data);
// "12.3 KiB": a size for messages.
QString sizeText(qint64 bytes);
// File text as lines without their terminators ("\n" or "\r\n").
QStringList splitLines(const QString &text);
// A line cut at maxChars (never inside a surrogate pair), saying how much was cut.
QString cutLine(const QString &line, int maxChars);
// A text file read_file or edit_file was asked about: a regular file, under the size cap,
// not binary; or nothing, with *error saying why.
std::optional<QByteArray> readTextFile(const QString &canonical, const QString &shownPath,
                                       QString *error);
// Writes through QSaveFile: all at once or not at all; *error names the file otherwise.
bool writeAtomically(const QString &canonical, const QByteArray &data, const QString &shownPath,
                     QString *error);
Json pathProperty(const char *description);

// Common ground of the built-ins: the workspace they are confined to.
class BuiltinTool : public Tool
{
public:
    explicit BuiltinTool(std::shared_ptr<Workspace> workspace)
        : m_workspace(std::move(workspace))
    {
    }

protected:
    // Resolves a path argument; the error already names the path and the workspace.
    std::optional<QString> resolve(const QString &path, QString *error, bool mustExist) const
    {
        return m_workspace->resolve(path, error, mustExist);
    }
    QString shown(const QString &canonical) const { return m_workspace->displayPath(canonical); }

    // A text file of the workspace that `path` names, read whole (readTextFile's bounds).
    struct TextFile
    {
        QString canonical;
        QString shown;
        QByteArray bytes;
    };
    // The file, or std::nullopt and *error naming it.
    std::optional<TextFile> readText(const QString &path, QString *error) const
    {
        const auto canonical = resolve(path, error, true);
        if (!canonical)
            return std::nullopt;
        TextFile file{*canonical, shown(*canonical), {}};
        auto bytes = readTextFile(file.canonical, file.shown, error);
        if (!bytes)
            return std::nullopt;
        file.bytes = std::move(*bytes);
        return file;
    }

    // The approval reason of a read tool whose `path` argument names a file or folder that
    // may hold secrets (Workspace::sensitiveMatch); std::nullopt otherwise, and for a path
    // that does not resolve (the call then fails without touching anything).
    std::optional<QString> sensitivePathReason(const Json &arguments,
                                               const QString &fallbackPath = QString()) const
    {
        const auto it = arguments.find("path");
        const QString path = it != arguments.end() && it->is_string()
                                     ? QString::fromStdString(it->get<std::string>())
                                     : fallbackPath;
        if (path.isEmpty())
            return std::nullopt;
        const auto canonical = m_workspace->resolve(path, nullptr, true);
        if (!canonical)
            return std::nullopt;
        const auto match = m_workspace->sensitiveMatch(*canonical);
        if (!match)
            return std::nullopt;
        return Text::tr("%1 touches '%2', which may hold secrets (it matches \"%3\" in the "
                        "list of sensitive files)")
                .arg(name(), shown(*canonical), *match);
    }

    std::shared_ptr<Workspace> m_workspace;
};

// A tool whose work is bounded by the caps above and done at once: done runs before
// execute() returns, so there is nothing left to cancel.
class SyncTool : public BuiltinTool
{
public:
    using BuiltinTool::BuiltinTool;

protected:
    virtual ToolOutput run(const Json &arguments) = 0;

    CancelHandle execute(const Json &arguments, const ToolContext &,
                         std::function<void(ToolOutput)> done) final
    {
        ToolOutput output;
        try {
            output = run(arguments);
        } catch (const std::exception &e) {
            // A JSON type surprise or an allocation failure must become an observation the
            // model can react to, never a crash of the window.
            output = ToolOutput::error(
                    Text::tr("%1 failed: %2").arg(name(), QString::fromLocal8Bit(e.what())));
        }
        done(std::move(output));
        return [] {
        };
    }
};

std::shared_ptr<Tool> makeReadFileTool(std::shared_ptr<Workspace> workspace);
std::shared_ptr<Tool> makeListDirTool(std::shared_ptr<Workspace> workspace);
std::shared_ptr<Tool> makeSearchFilesTool(std::shared_ptr<Workspace> workspace);
std::shared_ptr<Tool> makeWriteFileTool(std::shared_ptr<Workspace> workspace);
std::shared_ptr<Tool> makeEditFileTool(std::shared_ptr<Workspace> workspace);
std::shared_ptr<Tool> makeBashTool(std::shared_ptr<Workspace> workspace,
                                   BuiltinToolsOptions options);

} // namespace Engine::Builtin
