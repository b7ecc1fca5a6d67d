#include "builtintool.h"
#include "searchjob.h"

namespace Engine::Builtin {

namespace {

// search_files: glob over paths, optionally grep inside the matching files.
class SearchFilesTool final : public BuiltinTool
{
public:
    using BuiltinTool::BuiltinTool;
    QString name() const override { return QStringLiteral("search_files"); }
    Risk risk() const override { return Risk::Read; }
    // Files that may hold secrets are searched only when the call says so, and then only
    // after the user allowed that call.
    std::optional<QString> approvalReason(const Json &arguments, const ToolContext &) const override
    {
        const auto it = arguments.find("include_sensitive");
        if (it == arguments.end() || !it->is_boolean() || !it->get<bool>())
            return std::nullopt;
        return Text::tr("search_files asks to search inside files that may hold secrets "
                        "(include_sensitive; see the list of sensitive files)");
    }
    QString description() const override
    {
        return QLatin1String(QT_TRANSLATE_NOOP(
                "Engine::BuiltinTools",
                "Find files in the workspace by glob pattern, and optionally the lines in them "
                "that contain a text or match a regular expression. Patterns are relative to "
                "the workspace root: `*` and `?` match within one path segment, `**/` any "
                "number of directories, `{a,b}` alternatives, `[abc]` a character; a pattern "
                "without '/' (like `*.cpp`) matches file names at any depth. Without `query` "
                "the result is the matching paths, one per line; with it, each matching line "
                "as `path:line: text`. Skips .git, node_modules, build directories and binary "
                "files unless the pattern starts inside them, and does not search inside files "
                "that may hold secrets (.env, keys) unless `include_sensitive` is true. Results "
                "are capped (`max_results`, default 100)."));
    }
    Json inputSchema() const override
    {
        return {{"type", "object"},
                {"properties",
                 {{"pattern",
                   {{"type", "string"},
                    {"description", "Glob over paths, e.g. \"src/**/*.cpp\" or \"*.md\"."}}},
                  {"query",
                   {{"type", "string"},
                    {"description", "Text to find in the matching files (one line at a time)."}}},
                  {"regex",
                   {{"type", "boolean"},
                    {"description", "Treat query as a regular expression (PCRE). Default "
                                    "false."}}},
                  {"ignore_case",
                   {{"type", "boolean"},
                    {"description", "Match query ignoring case. Default "
                                    "false."}}},
                  {"max_results",
                   {{"type", "integer"},
                    {"minimum", 1},
                    {"maximum", MaxSearchResults},
                    {"description", "Most results to return. Default 100."}}},
                  {"include_sensitive",
                   {{"type", "boolean"},
                    {"description", "Also search inside files that may hold secrets (.env, "
                                    "keys, credentials); the user is asked first. Default "
                                    "false: they are skipped and counted."}}}}},
                {"required", {"pattern"}},
                {"additionalProperties", false}};
    }

protected:
    CancelHandle execute(const Json &arguments, const ToolContext &,
                         std::function<void(ToolOutput)> done) override
    {
        auto job = std::make_shared<SearchJob>();
        QString error;
        if (!prepare(arguments, *job, &error)) {
            done(ToolOutput::error(error));
            return [] {
            };
        }
        job->done = std::move(done);
        // The first slice runs from the event loop too: done never runs inside execute()
        // for a search, whatever its size.
        QTimer::singleShot(0, [job] { job->step(); });
        return [weak = std::weak_ptr<SearchJob>(job)] {
            if (auto job = weak.lock())
                job->cancelled = true;
        };
    }

private:
    bool prepare(const Json &arguments, SearchJob &job, QString *error) const
    {
        Args args(arguments);
        QString pattern = args.string("pattern");
        job.query = args.string("query", false);
        const bool useRegex = args.boolean("regex", false);
        const bool ignoreCase = args.boolean("ignore_case", false);
        job.includeSensitive = args.boolean("include_sensitive", false);
        job.maxResults
                = int(args.integer("max_results", DefaultSearchResults, 1, MaxSearchResults));
        if (args.failed()) {
            *error = args.error();
            return false;
        }
        job.pattern = pattern;
        job.workspace = m_workspace;
        job.caseSensitivity = ignoreCase ? Qt::CaseInsensitive : Qt::CaseSensitive;
        if (useRegex && !job.query.isEmpty()) {
            QRegularExpression rx(job.query, ignoreCase ? QRegularExpression::CaseInsensitiveOption
                                                        : QRegularExpression::NoPatternOption);
            if (!rx.isValid()) {
                *error = Text::tr("'query' is not a valid regular expression: %1 (at offset %2)")
                                 .arg(rx.errorString())
                                 .arg(rx.patternErrorOffset());
                return false;
            }
            rx.optimize();
            job.regex = std::move(rx);
        }

        // An absolute pattern inside the workspace is taken relative to it.
        pattern = QDir::fromNativeSeparators(pattern.trimmed());
        const QString root = m_workspace->root();
        if (QDir::isAbsolutePath(pattern)) {
            if (!pattern.startsWith(root + QLatin1Char('/'))) {
                *error = Text::tr("pattern '%1' is outside the workspace %2").arg(pattern, root);
                return false;
            }
            pattern = pattern.mid(root.size() + 1);
        }
        while (pattern.startsWith(QLatin1String("./")))
            pattern = pattern.mid(2);
        if (pattern.isEmpty()) {
            *error = Text::tr("'pattern' is empty; use for example \"**/*\" for every file");
            return false;
        }
        // The literal directories at the start of the pattern are where the walk begins:
        // cheaper, and it lets a pattern reach into a directory that is otherwise skipped.
        const QStringList segments = pattern.split(QLatin1Char('/'), Qt::SkipEmptyParts);
        QStringList base;
        for (qsizetype i = 0; i + 1 < segments.size() && !hasGlobCharacters(segments.at(i)); ++i)
            base << segments.at(i);
        const QString baseDir = base.isEmpty() ? QStringLiteral(".") : base.join(QLatin1Char('/'));
        const auto start = m_workspace->resolve(baseDir, error, true);
        if (!start)
            return false;
        if (!QFileInfo(*start).isDir()) {
            *error = Text::tr("'%1' is not a directory").arg(baseDir);
            return false;
        }
        // The glob is matched against the path relative to the canonical root; the base as
        // resolved (symlinks and all) replaces the base as written.
        QString rest = segments.mid(base.size()).join(QLatin1Char('/'));
        const QString startShown = m_workspace->displayPath(*start);
        job.matchName = base.isEmpty() && !pattern.contains(QLatin1Char('/'));
        const QString full = job.matchName || startShown == QLatin1String(".")
                                     ? rest
                                     : startShown + QLatin1Char('/') + rest;
        job.glob = QRegularExpression(globToRegex(full));
        if (!job.glob.isValid()) {
            *error = Text::tr("pattern '%1' is not a valid glob").arg(pattern);
            return false;
        }
        job.stack.push_back({*start, true});
        return true;
    }
};

} // namespace

std::shared_ptr<Tool> makeSearchFilesTool(std::shared_ptr<Workspace> workspace)
{
    return std::make_shared<SearchFilesTool>(std::move(workspace));
}

} // namespace Engine::Builtin
