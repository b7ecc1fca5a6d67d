#include "bashrun.h"
#include "builtintool.h"

namespace Engine::Builtin {

namespace {

// bash: a shell command in the workspace, with a timeout.
class BashTool final : public BuiltinTool
{
public:
    BashTool(std::shared_ptr<Workspace> workspace, BuiltinToolsOptions options)
        : BuiltinTool(std::move(workspace))
        , m_options(std::move(options))
    {
    }
    QString name() const override { return QStringLiteral("bash"); }
    Risk risk() const override { return Risk::Dangerous; }
    QString description() const override
    {
        return QLatin1String(QT_TRANSLATE_NOOP(
                "Engine::BuiltinTools",
                "Run a command with `bash -c` in the workspace root. The result is the "
                "combined stdout and stderr, then the exit code; a non-zero exit is reported "
                "as an error. Long output is shortened to its beginning and end. stdin is "
                "empty, so interactive commands fail instead of waiting. The command and "
                "everything it started are killed after `timeout_ms` (at most 600000, i.e. 10 "
                "minutes) and when it ends, so do not start servers in the background. Prefer "
                "read_file, list_dir, search_files and edit_file for files."));
    }
    Json inputSchema() const override
    {
        return {{"type", "object"},
                {"properties",
                 {{"command", {{"type", "string"}, {"description", "The bash command line."}}},
                  {"timeout_ms",
                   {{"type", "integer"},
                    {"minimum", 1},
                    {"maximum", MaxBashTimeoutMs},
                    {"description", "Time limit in milliseconds. Default: the tool timeout "
                                    "(usually 60000)."}}}}},
                {"required", {"command"}},
                {"additionalProperties", false}};
    }
    // Approvals are per command: "allow for this conversation" on one command line must
    // not let a different one run unasked.
    QString approvalCommand(const Json &arguments) const override
    {
        const auto it = arguments.find("command");
        const QString command = it != arguments.end() && it->is_string()
                                        ? QString::fromStdString(it->get<std::string>())
                                        : QString();
        // Never empty (that would mean "not a command tool"); a missing command fails anyway.
        return command.isEmpty() ? QStringLiteral(" ") : command;
    }

protected:
    CancelHandle execute(const Json &arguments, const ToolContext &context,
                         std::function<void(ToolOutput)> done) override
    {
        Args args(arguments);
        const QString command = args.string("command");
        const int fallbackTimeout = std::clamp(context.timeoutMs, 1, MaxBashTimeoutMs);
        const int timeoutMs = int(args.integer("timeout_ms", fallbackTimeout, 1, MaxBashTimeoutMs));
        QString error = args.error();
        if (error.isEmpty() && command.trimmed().isEmpty())
            error = Text::tr("'command' is empty");
        if (error.isEmpty() && !m_workspace->isValid())
            error = Text::tr("the workspace folder %1 does not exist").arg(m_workspace->root());
        if (!error.isEmpty()) {
            done(ToolOutput::error(error));
            return [] {
            };
        }

        auto run = std::make_shared<BashRun>();
        run->command = command;
        run->workingDirectory = m_workspace->root();
        run->timeoutMs = timeoutMs;
        run->done = std::move(done);
        const Mcp::Sandbox::Mode mode
                = m_options.bashSandbox ? m_options.bashSandbox() : Mcp::Sandbox::Mode::Auto;
        if (mode == Mcp::Sandbox::Mode::Auto) {
            // The probe answers from the event loop (at once after the first time); the run
            // keeps itself alive until then.
            Mcp::Sandbox::probe(
                    m_options.sandboxProgram, nullptr,
                    [run, program = m_options.sandboxProgram](bool works, const QString &) {
                        run->start(works ? program : QString());
                    });
        } else {
            run->start(mode == Mcp::Sandbox::Mode::On ? m_options.sandboxProgram : QString());
        }
        return [weak = std::weak_ptr<BashRun>(run)] {
            if (auto run = weak.lock())
                run->cancel();
        };
    }

private:
    BuiltinToolsOptions m_options;
};

} // namespace

std::shared_ptr<Tool> makeBashTool(std::shared_ptr<Workspace> workspace,
                                   BuiltinToolsOptions options)
{
    return std::make_shared<BashTool>(std::move(workspace), std::move(options));
}

} // namespace Engine::Builtin
