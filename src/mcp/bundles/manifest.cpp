#include "manifest.h"

#include <QCoreApplication>
#include <QDir>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QUrl>

#include <cmath>
#include <functional>

namespace Mcp::Bundles {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Mcp::Bundles", text);
}

bool hasControl(const QString &text, bool newlinesAllowed)
{
    for (const QChar c : text) {
        if (newlinesAllowed && (c == u'\n' || c == u'\t' || c == u'\r'))
            continue;
        if (c.category() == QChar::Other_Control || c == QChar(0x2028) || c == QChar(0x2029))
            return true;
    }
    return false;
}

// Reads one manifest: each getter records the first problem (with where it is) and gives
// something harmless after it.
class Reader
{
public:
    QString problem;

    void fail(const QString &where, const QString &why)
    {
        if (problem.isEmpty())
            problem = where.isEmpty() ? why : QStringLiteral("%1: %2").arg(where, why);
    }

    const Json *member(const Json &object, const char *key, const QString &where, bool required)
    {
        const auto it = object.find(key);
        if (it == object.end() || it->is_null()) {
            if (required)
                fail(where, tr("'%1' is required").arg(QLatin1String(key)));
            return nullptr;
        }
        return &*it;
    }

    QString text(const Json &object, const char *key, const QString &where, bool required,
                 bool multiline = false)
    {
        const Json *value = member(object, key, where, required);
        if (!value)
            return {};
        const QString at = where.isEmpty() ? QLatin1String(key)
                                           : where + QLatin1Char('.') + QLatin1String(key);
        if (!value->is_string()) {
            fail(at, tr("must be a string"));
            return {};
        }
        const QString out = QString::fromStdString(value->get<std::string>());
        if (out.size() > MaxStringLength)
            fail(at, tr("is longer than %1 characters").arg(MaxStringLength));
        else if (hasControl(out, multiline))
            fail(at, tr("holds a control character"));
        else if (required && out.trimmed().isEmpty())
            fail(at, tr("must not be empty"));
        return out;
    }

    QString url(const Json &object, const char *key, const QString &where)
    {
        const QString value = text(object, key, where, false);
        if (value.isEmpty())
            return value;
        const QUrl parsed(value, QUrl::StrictMode);
        const QString scheme = parsed.scheme().toLower();
        if (!parsed.isValid()
            || (scheme != QLatin1String("https") && scheme != QLatin1String("http"))) {
            fail(where.isEmpty() ? QLatin1String(key)
                                 : where + QLatin1Char('.') + QLatin1String(key),
                 tr("'%1' is not an http(s) address").arg(value));
            return {};
        }
        return value;
    }

    const Json *list(const Json &object, const char *key, const QString &where)
    {
        const Json *value = member(object, key, where, false);
        if (!value)
            return nullptr;
        const QString at = where.isEmpty() ? QLatin1String(key)
                                           : where + QLatin1Char('.') + QLatin1String(key);
        if (!value->is_array()) {
            fail(at, tr("must be a list"));
            return nullptr;
        }
        if (value->size() > std::size_t(MaxListLength)) {
            fail(at, tr("has more than %1 entries").arg(MaxListLength));
            return nullptr;
        }
        return value;
    }

    const Json *object(const Json &parent, const char *key, const QString &where, bool required)
    {
        const Json *value = member(parent, key, where, required);
        if (value && !value->is_object()) {
            fail(where.isEmpty() ? QLatin1String(key)
                                 : where + QLatin1Char('.') + QLatin1String(key),
                 tr("must be an object"));
            return nullptr;
        }
        return value;
    }

    QStringList strings(const Json &object, const char *key, const QString &where)
    {
        QStringList out;
        const Json *value = list(object, key, where);
        if (!value)
            return out;
        for (std::size_t i = 0; i < value->size(); ++i) {
            const QString at = QStringLiteral("%1.%2[%3]").arg(where, QLatin1String(key)).arg(i);
            if (!(*value)[i].is_string()) {
                fail(at, tr("must be a string"));
                return out;
            }
            const QString item = QString::fromStdString((*value)[i].get<std::string>());
            if (item.size() > MaxStringLength || hasControl(item, false)) {
                fail(at, tr("is too long or holds a control character"));
                return out;
            }
            out << item;
        }
        return out;
    }

    // mcp_config or a platform override: command, args, env (all optional in an override).
    Command command(const Json &object, const QString &where, bool complete)
    {
        Command out;
        out.command = text(object, "command", where, complete);
        out.args = strings(object, "args", where);
        if (const Json *env = this->object(object, "env", where, false)) {
            if (env->size() > std::size_t(MaxListLength))
                fail(where + QStringLiteral(".env"),
                     tr("has more than %1 entries").arg(MaxListLength));
            for (const auto &[name, value] : env->items()) {
                const QString key = QString::fromStdString(name);
                const QString at = where + QStringLiteral(".env.") + key;
                if (key.isEmpty() || key.contains(u'=') || hasControl(key, false)) {
                    fail(at, tr("is not an environment variable's name"));
                    break;
                }
                if (!value.is_string()) {
                    fail(at, tr("must be a string"));
                    break;
                }
                const QString text = QString::fromStdString(value.get<std::string>());
                if (text.size() > MaxStringLength || hasControl(text, false)) {
                    fail(at, tr("is too long or holds a control character"));
                    break;
                }
                out.env << qMakePair(key, text);
            }
        }
        return out;
    }

    QList<QPair<QString, QString>> named(const Json &object, const char *key)
    {
        QList<QPair<QString, QString>> out;
        const Json *items = list(object, key, QString());
        if (!items)
            return out;
        for (std::size_t i = 0; i < items->size(); ++i) {
            const QString at = QStringLiteral("%1[%2]").arg(QLatin1String(key)).arg(i);
            if (!(*items)[i].is_object()) {
                fail(at, tr("must be an object"));
                return out;
            }
            out << qMakePair(text((*items)[i], "name", at, true),
                             text((*items)[i], "description", at, false, true));
        }
        return out;
    }

    UserConfigOption option(const QString &key, const Json &value)
    {
        UserConfigOption out;
        out.key = key;
        const QString at = QStringLiteral("user_config.") + key;
        if (!value.is_object()) {
            fail(at, tr("must be an object"));
            return out;
        }
        static const QRegularExpression keyPattern(
                QStringLiteral("^[A-Za-z_][A-Za-z0-9_.-]{0,63}$"));
        if (!keyPattern.match(key).hasMatch())
            fail(at, tr("is not a key a ${user_config.KEY} placeholder can name"));
        const QString type = text(value, "type", at, true);
        static const QMap<QString, UserConfigOption::Type> types{
                {QStringLiteral("string"), UserConfigOption::Type::String},
                {QStringLiteral("number"), UserConfigOption::Type::Number},
                {QStringLiteral("boolean"), UserConfigOption::Type::Boolean},
                {QStringLiteral("directory"), UserConfigOption::Type::Directory},
                {QStringLiteral("file"), UserConfigOption::Type::File}};
        if (!type.isEmpty() && !types.contains(type))
            fail(at + QStringLiteral(".type"),
                 tr("'%1' is not one of string, number, boolean, directory, file").arg(type));
        out.type = types.value(type, UserConfigOption::Type::String);
        out.title = text(value, "title", at, false);
        out.description = text(value, "description", at, false, true);
        for (const auto &[name, target] :
             {std::pair{"required", &out.required}, std::pair{"multiple", &out.multiple},
              std::pair{"sensitive", &out.sensitive}}) {
            if (const Json *flag = member(value, name, at, false)) {
                if (!flag->is_boolean())
                    fail(at + QLatin1Char('.') + QLatin1String(name), tr("must be true or false"));
                else
                    *target = flag->get<bool>();
            }
        }
        for (const auto &[name, target] :
             {std::pair{"min", &out.min}, std::pair{"max", &out.max}}) {
            if (const Json *number = member(value, name, at, false)) {
                if (!number->is_number() || !std::isfinite(number->get<double>()))
                    fail(at + QLatin1Char('.') + QLatin1String(name), tr("must be a number"));
                else
                    *target = number->get<double>();
            }
        }
        if (const Json *fallback = member(value, "default", at, false)) {
            const auto add = [&](const Json &item) {
                if (item.is_string())
                    out.defaults << QString::fromStdString(item.get<std::string>());
                else if (item.is_boolean())
                    out.defaults << (item.get<bool>() ? QStringLiteral("true")
                                                      : QStringLiteral("false"));
                else if (item.is_number())
                    out.defaults << QString::number(item.get<double>());
                else
                    fail(at + QStringLiteral(".default"),
                         tr("must be a string, a number, true or false"));
            };
            if (fallback->is_array() && fallback->size() <= std::size_t(MaxListLength)) {
                for (const Json &item : *fallback)
                    add(item);
            } else {
                add(*fallback);
            }
            for (const QString &item : std::as_const(out.defaults)) {
                if (item.size() > MaxStringLength || hasControl(item, false))
                    fail(at + QStringLiteral(".default"),
                         tr("is too long or holds a control character"));
            }
        }
        return out;
    }
};

int depthOf(const Json &value, int depth = 0)
{
    if (depth > MaxDepth)
        return depth;
    int deepest = depth;
    if (value.is_object() || value.is_array()) {
        for (const Json &child : value) {
            deepest = std::max(deepest, depthOf(child, depth + 1));
            if (deepest > MaxDepth)
                break;
        }
    }
    return deepest;
}

} // namespace

QString pathProblem(const QString &path)
{
    if (path.isEmpty())
        return tr("the path is empty");
    if (path.size() > MaxStringLength || hasControl(path, false))
        return tr("the path is too long or holds a control character");
    if (path.contains(u'\\'))
        return tr("'%1' holds a backslash").arg(path);
    if (path.startsWith(u'/') || (path.size() >= 2 && path.at(1) == u':'))
        return tr("'%1' is an absolute path").arg(path);
    for (const QStringView part : QStringView(path).split(u'/')) {
        if (part == QLatin1String(".."))
            return tr("'%1' leads out of the bundle ('..')").arg(path);
    }
    return {};
}

ManifestResult readManifest(const Json &document)
{
    ManifestResult result;
    Reader r;
    if (!document.is_object()) {
        result.problem = tr("manifest.json is not a JSON object");
        return result;
    }
    if (depthOf(document) > MaxDepth) {
        result.problem = tr("manifest.json nests deeper than %1 levels").arg(MaxDepth);
        return result;
    }
    Manifest m;
    m.manifestVersion = r.text(document, "manifest_version", QString(), false);
    if (m.manifestVersion.isEmpty())
        m.manifestVersion = r.text(document, "dxt_version", QString(), false);
    static const QStringList versions{QStringLiteral("0.2"), QStringLiteral("0.3"),
                                      QStringLiteral("0.4")};
    if (r.problem.isEmpty() && !versions.contains(m.manifestVersion))
        r.fail(QStringLiteral("manifest_version"),
               m.manifestVersion.isEmpty() ? tr("is required")
                                           : tr("'%1' is not a version this reads (0.2, 0.3, 0.4)")
                                                     .arg(m.manifestVersion));
    m.name = r.text(document, "name", QString(), true);
    static const QRegularExpression namePattern(
            QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]{0,%1}$").arg(MaxNameLength - 1));
    if (r.problem.isEmpty() && !namePattern.match(m.name).hasMatch())
        r.fail(QStringLiteral("name"),
               tr("'%1' is not a name a bundle's folder can have (letters, digits, '.', '_', "
                  "'-'; at most %2)")
                       .arg(m.name)
                       .arg(MaxNameLength));
    m.displayName = r.text(document, "display_name", QString(), false);
    m.version = r.text(document, "version", QString(), true);
    m.description = r.text(document, "description", QString(), true, true);
    if (const Json *author = r.object(document, "author", QString(), true)) {
        m.authorName = r.text(*author, "name", QStringLiteral("author"), true);
        m.authorEmail = r.text(*author, "email", QStringLiteral("author"), false);
        m.authorUrl = r.url(*author, "url", QStringLiteral("author"));
    }
    if (const Json *repository = r.object(document, "repository", QString(), false))
        m.repositoryUrl = r.url(*repository, "url", QStringLiteral("repository"));
    m.homepage = r.url(document, "homepage", QString());
    m.license = r.text(document, "license", QString(), false);
    m.icon = r.text(document, "icon", QString(), false);
    if (!m.icon.isEmpty())
        if (const QString why = pathProblem(m.icon); !why.isEmpty())
            r.fail(QStringLiteral("icon"), why);
    if (const Json *server = r.object(document, "server", QString(), true)) {
        m.serverType = r.text(*server, "type", QStringLiteral("server"), true);
        static const QStringList types{QStringLiteral("node"), QStringLiteral("python"),
                                       QStringLiteral("binary"), QStringLiteral("uv")};
        if (!m.serverType.isEmpty() && !types.contains(m.serverType))
            r.fail(QStringLiteral("server.type"),
                   tr("'%1' is not one of node, python, binary, uv").arg(m.serverType));
        m.entryPoint = r.text(*server, "entry_point", QStringLiteral("server"), true);
        if (!m.entryPoint.isEmpty())
            if (const QString why = pathProblem(m.entryPoint); !why.isEmpty())
                r.fail(QStringLiteral("server.entry_point"), why);
        if (const Json *config = r.object(*server, "mcp_config", QStringLiteral("server"), true)) {
            m.mcpConfig = r.command(*config, QStringLiteral("server.mcp_config"), true);
            if (const Json *overrides = r.object(*config, "platform_overrides",
                                                 QStringLiteral("server.mcp_config"), false)) {
                for (const auto &[platform, value] : overrides->items()) {
                    const QString at = QStringLiteral("server.mcp_config.platform_overrides.")
                                       + QString::fromStdString(platform);
                    if (!value.is_object()) {
                        r.fail(at, tr("must be an object"));
                        break;
                    }
                    m.platformOverrides.insert(QString::fromStdString(platform).left(16),
                                               r.command(value, at, false));
                }
            }
        }
    }
    m.tools = r.named(document, "tools");
    m.prompts = r.named(document, "prompts");
    if (const Json *compatibility = r.object(document, "compatibility", QString(), false)) {
        m.platforms = r.strings(*compatibility, "platforms", QStringLiteral("compatibility"));
        static const QStringList platforms{QStringLiteral("darwin"), QStringLiteral("win32"),
                                           QStringLiteral("linux")};
        for (const QString &platform : std::as_const(m.platforms)) {
            if (!platforms.contains(platform))
                r.fail(QStringLiteral("compatibility.platforms"),
                       tr("'%1' is not one of darwin, win32, linux").arg(platform));
        }
        if (const Json *runtimes
            = r.object(*compatibility, "runtimes", QStringLiteral("compatibility"), false)) {
            m.nodeVersion
                    = r.text(*runtimes, "node", QStringLiteral("compatibility.runtimes"), false);
            m.pythonVersion
                    = r.text(*runtimes, "python", QStringLiteral("compatibility.runtimes"), false);
        }
    }
    if (const Json *config = r.object(document, "user_config", QString(), false)) {
        if (config->size() > std::size_t(MaxUserConfig))
            r.fail(QStringLiteral("user_config"),
                   tr("has more than %1 entries").arg(MaxUserConfig));
        else
            for (const auto &[key, value] : config->items())
                m.userConfig << r.option(QString::fromStdString(key), value);
    }
    if (!r.problem.isEmpty()) {
        result.problem = r.problem;
        return result;
    }
    result.manifest = std::move(m);
    return result;
}

QString currentPlatform()
{
#if defined(Q_OS_MACOS)
    return QStringLiteral("darwin");
#elif defined(Q_OS_WIN)
    return QStringLiteral("win32");
#else
    return QStringLiteral("linux");
#endif
}

QString compatibilityProblem(const Manifest &manifest, const QString &platform)
{
    if (!manifest.platforms.isEmpty() && !manifest.platforms.contains(platform))
        return tr("%1 runs on %2 only, not on %3")
                .arg(manifest.title(), manifest.platforms.join(QLatin1String(", ")), platform);
    return {};
}

namespace {

// What the fixed placeholders stand for.
QMap<QString, QString> fixedPlaces(const QString &dirname)
{
    const QString home = QDir::homePath();
    const auto folder = [&home](QStandardPaths::StandardLocation location, const char *fallback) {
        const QString path = QStandardPaths::writableLocation(location);
        return path.isEmpty() ? home + QLatin1Char('/') + QLatin1String(fallback) : path;
    };
    return {{QStringLiteral("__dirname"), dirname},
            {QStringLiteral("HOME"), home},
            {QStringLiteral("DOCUMENTS"), folder(QStandardPaths::DocumentsLocation, "Documents")},
            {QStringLiteral("DESKTOP"), folder(QStandardPaths::DesktopLocation, "Desktop")},
            {QStringLiteral("DOWNLOADS"), folder(QStandardPaths::DownloadLocation, "Downloads")},
            {QStringLiteral("/"), QStringLiteral("/")},
            {QStringLiteral("pathSeparator"), QStringLiteral("/")}};
}

} // namespace

QString expandPlaces(QString text, const QString &dirname)
{
    const QMap<QString, QString> fixed = fixedPlaces(dirname);
    for (auto it = fixed.cbegin(); it != fixed.cend(); ++it) {
        if (!dirname.isEmpty() || it.key() != QLatin1String("__dirname"))
            text.replace(QStringLiteral("${%1}").arg(it.key()), it.value());
    }
    return text;
}

std::optional<Command>
resolveCommand(const Manifest &manifest, const QString &dirname,
               const QMap<QString, QString> &answers,
               const std::function<QString(const QString &key)> &referenceFor, QString *problem,
               const QString &platform)
{
    Command command = manifest.mcpConfig;
    if (manifest.platformOverrides.contains(platform)) {
        const Command &over = manifest.platformOverrides.value(platform);
        if (!over.command.isEmpty())
            command.command = over.command;
        if (!over.args.isEmpty())
            command.args = over.args;
        for (const QPair<QString, QString> &variable : over.env) {
            command.env.removeIf(
                    [&variable](const auto &pair) { return pair.first == variable.first; });
            command.env << variable;
        }
    }
    // The manifest's own defaults may name the fixed places ("${HOME}"); answers are taken as
    // typed.
    const QMap<QString, QString> fixed = fixedPlaces(dirname);
    const auto expandFixed = [&fixed](QString text) {
        for (auto it = fixed.cbegin(); it != fixed.cend(); ++it)
            text.replace(QStringLiteral("${%1}").arg(it.key()), it.value());
        return text;
    };
    // Each option's values: the answer (several lines when multiple), else its default.
    QMap<QString, QStringList> values;
    for (const UserConfigOption &option : manifest.userConfig) {
        QString answer = answers.value(option.key).trimmed();
        QStringList list = option.multiple
                                   ? answer.split(u'\n', Qt::SkipEmptyParts)
                                   : (answer.isEmpty() ? QStringList() : QStringList{answer});
        for (QString &item : list)
            item = item.trimmed();
        if (list.isEmpty())
            for (const QString &fallback : option.defaults)
                list << expandFixed(fallback);
        const QString label = option.title.isEmpty() ? option.key : option.title;
        if (list.isEmpty() && option.required) {
            *problem = tr("%1 is required").arg(label);
            return std::nullopt;
        }
        for (const QString &item : std::as_const(list)) {
            if (hasControl(item, false)) {
                *problem = tr("%1 holds a control character").arg(label);
                return std::nullopt;
            }
            if (option.type == UserConfigOption::Type::Number) {
                bool ok = false;
                const double number = item.toDouble(&ok);
                if (!ok || !std::isfinite(number)) {
                    *problem = tr("%1 must be a number").arg(label);
                    return std::nullopt;
                }
                if ((option.min && number < *option.min) || (option.max && number > *option.max)) {
                    *problem = tr("%1 must be between %2 and %3")
                                       .arg(label)
                                       .arg(option.min ? QString::number(*option.min)
                                                       : QStringLiteral("-∞"))
                                       .arg(option.max ? QString::number(*option.max)
                                                       : QStringLiteral("∞"));
                    return std::nullopt;
                }
            }
            if (option.type == UserConfigOption::Type::Boolean && item != QLatin1String("true")
                && item != QLatin1String("false")) {
                *problem = tr("%1 must be true or false").arg(label);
                return std::nullopt;
            }
        }
        if (option.sensitive && referenceFor && !list.isEmpty())
            list = QStringList{referenceFor(option.key)};
        values.insert(option.key, list);
    }
    static const QRegularExpression placeholder(QStringLiteral("\\$\\{([^}]{1,80})\\}"));
    // One pass over the text as written: a value put in is never read for placeholders again.
    const auto substitute = [&](const QString &text) {
        QString out;
        qsizetype last = 0;
        for (auto it = placeholder.globalMatch(text); it.hasNext();) {
            const QRegularExpressionMatch match = it.next();
            out += QStringView(text).mid(last, match.capturedStart() - last);
            last = match.capturedEnd();
            const QString name = match.captured(1);
            if (fixed.contains(name))
                out += fixed.value(name);
            else if (name.startsWith(QLatin1String("user_config.")))
                out += values.value(name.mid(12)).join(QLatin1Char(','));
            else
                out += match.captured(0); // not ours: left as written
        }
        return out + text.mid(last);
    };
    static const QRegularExpression whole(QStringLiteral("^\\$\\{user_config\\.([^}]{1,80})\\}$"));
    Command out;
    out.command = substitute(command.command);
    for (const QString &arg : std::as_const(command.args)) {
        // A multiple option as a whole argument: one argument per value.
        if (const QRegularExpressionMatch match = whole.match(arg); match.hasMatch()) {
            out.args << values.value(match.captured(1));
            continue;
        }
        out.args << substitute(arg);
    }
    for (const auto &[name, value] : std::as_const(command.env))
        out.env << qMakePair(name, substitute(value));
    if (out.command.trimmed().isEmpty()) {
        *problem = tr("%1 names no command to start").arg(manifest.title());
        return std::nullopt;
    }
    return out;
}

} // namespace Mcp::Bundles
