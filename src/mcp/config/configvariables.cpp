// The configuration loader's variables: ${VAR} expansion, the references a definition makes,
// and the refusal of a workspace's server that reads one of the user's secrets.
#include "configinternal.h"

#include <QDir>
#include <QRegularExpression>

namespace Mcp::ConfigLoader {

using namespace Internal;

namespace {

bool isVariableName(QStringView name)
{
    if (name.isEmpty())
        return false;
    for (qsizetype i = 0; i < name.size(); ++i) {
        const QChar c = name.at(i);
        const bool letter = (c >= u'A' && c <= u'Z') || (c >= u'a' && c <= u'z') || c == u'_';
        if (!letter && !(i > 0 && c >= u'0' && c <= u'9'))
            return false;
    }
    return true;
}

constexpr QLatin1String SecretPrefix("secret:", 7);

} // namespace

bool isSecretName(QStringView name)
{
    if (name.isEmpty() || name.size() > kMaxSecretNameLength)
        return false;
    for (qsizetype i = 0; i < name.size(); ++i) {
        const QChar c = name.at(i);
        const bool letter = (c >= u'A' && c <= u'Z') || (c >= u'a' && c <= u'z') || c == u'_';
        const bool later = (c >= u'0' && c <= u'9') || c == u'-' || c == u'.';
        if (!letter && !(i > 0 && later))
            return false;
    }
    return true;
}

QString secretReferenceText(const QString &name)
{
    return QStringLiteral("${secret:%1}").arg(name);
}

Expansion expandVariables(const QString &text, const QProcessEnvironment &env, bool allowSecrets)
{
    Expansion result;
    qsizetype i = 0;
    while (i < text.size()) {
        const qsizetype start = text.indexOf(QLatin1String("${"), i);
        if (start < 0) {
            result.value += QStringView(text).mid(i);
            break;
        }
        result.value += QStringView(text).mid(i, start - i);
        const qsizetype close = text.indexOf(u'}', start + 2);
        if (close < 0) {
            result.syntaxError = Text::tr("unterminated '${': add the closing '}'");
            result.syntaxErrorIndex = start;
            return result;
        }
        const QStringView inner = QStringView(text).mid(start + 2, close - start - 2);
        if (inner.startsWith(SecretPrefix)) {
            const QStringView secret = inner.mid(SecretPrefix.size());
            QString problem;
            if (!allowSecrets)
                problem = Text::tr("a keychain secret ('${%1}') can be used only in a server's "
                                   "args, env and headers")
                                  .arg(quoted(inner));
            else if (!isSecretName(secret))
                problem = Text::tr("'${%1}' does not name a keychain secret; use "
                                   "${secret:NAME} (NAME: a letter or '_', then letters, digits, "
                                   "'_', '-' or '.'; at most %2 characters)")
                                  .arg(quoted(inner))
                                  .arg(kMaxSecretNameLength);
            if (!problem.isEmpty()) {
                result.syntaxError = problem;
                result.syntaxErrorIndex = start;
                return result;
            }
            result.value += QStringView(text).mid(start, close + 1 - start);
            result.secretNames << secret.toString();
            i = close + 1;
            continue;
        }
        const qsizetype dash = inner.indexOf(QLatin1String(":-"));
        const QStringView name = dash < 0 ? inner : inner.left(dash);
        if (!isVariableName(name)) {
            result.syntaxError = Text::tr("'${%1}' is not a variable reference; use ${NAME} or "
                                          "${NAME:-default} (letters, digits, '_')")
                                         .arg(quoted(inner));
            result.syntaxErrorIndex = start;
            return result;
        }
        const QString value = env.value(name.toString());
        if (!value.isEmpty()) {
            result.value += value;
            result.substituted << value;
        } else if (dash >= 0) {
            result.value += inner.mid(dash + 2);
        } else if (result.missingVariable.isEmpty()) {
            result.missingVariable = name.toString();
            result.missingIsEmpty = env.contains(result.missingVariable);
        }
        i = close + 1;
    }
    return result;
}

QList<VariableReference> variableReferences(const json &definition)
{
    static const QRegularExpression reference(
            QStringLiteral("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\\}"));
    QList<VariableReference> found;
    const auto scan = [&found](const json &value, const QString &field) {
        if (!value.is_string())
            return;
        const QString text = QString::fromStdString(value.get<std::string>());
        for (auto it = reference.globalMatch(text); it.hasNext();)
            found.append({it.next().captured(1), field});
    };
    if (!definition.is_object())
        return found;
    if (const auto it = definition.find("command"); it != definition.end())
        scan(*it, QStringLiteral("command"));
    if (const auto it = definition.find("args"); it != definition.end() && it->is_array()) {
        for (size_t i = 0; i < it->size(); ++i)
            scan((*it)[i], QStringLiteral("args[%1]").arg(i));
    }
    if (const auto it = definition.find("env"); it != definition.end()) {
        if (it->is_object()) {
            for (const auto &[name, value] : it->items())
                scan(value, QStringLiteral("env.") + QString::fromStdString(name));
        } else if (it->is_array()) {
            for (const json &item : *it) {
                const QString entry = item.is_string()
                                              ? QString::fromStdString(item.get<std::string>())
                                              : QString();
                scan(item, QStringLiteral("env.") + entry.section(QLatin1Char('='), 0, 0));
            }
        }
    }
    if (const auto it = definition.find("url"); it != definition.end())
        scan(*it, QStringLiteral("url"));
    if (const auto it = definition.find("headers"); it != definition.end() && it->is_object()) {
        for (const auto &[name, value] : it->items())
            scan(value, QStringLiteral("headers.") + QString::fromStdString(name));
    }
    return found;
}

SecretSubstitution substituteSecrets(const ServerConfig &server,
                                     const QHash<QString, QString> &values)
{
    SecretSubstitution result{server, {}};
    ServerConfig &out = result.server;
    for (const SecretReference &reference : server.secretReferences) {
        const QString value = values.value(reference.name);
        if (value.isEmpty()) {
            result.error
                    = Text::tr("the keychain secret %1 (used in %2) is not set; set it in "
                               "Settings → Server secrets or with: switchboard-cli secret set %1")
                              .arg(reference.name, reference.field);
            return result;
        }
        const QString token = secretReferenceText(reference.name);
        const QString &field = reference.field;
        QString *target = nullptr;
        if (field.startsWith(QLatin1String("args["))) {
            const qsizetype index = field.mid(5, field.size() - 6).toLongLong();
            if (index >= 0 && index < out.args.size())
                target = &out.args[index];
        } else if (field.startsWith(QLatin1String("env."))) {
            const QString name = field.mid(4);
            if (out.env.contains(name))
                target = &out.env[name];
        } else if (field.startsWith(QLatin1String("headers."))) {
            const QString name = field.mid(8);
            if (out.headers.contains(name))
                target = &out.headers[name];
        }
        if (!target)
            continue;
        target->replace(token, value);
        if (!out.expandedSecrets.contains(value))
            out.expandedSecrets << value;
    }
    return result;
}

QString privateVariableMessage(const QString &variable, const QString &field)
{
    return Text::tr("a workspace's file may not read ${%1} (in %2): it holds a secret of yours "
                    "(a provider key, or a variable your own configuration lists in "
                    "\"secretVariables\"); define it in your own configuration (%3) if it "
                    "should have it")
            .arg(variable, field, QDir::toNativeSeparators(userConfigPath()));
}

void refusePrivateVariables(McpConfig &config, const QStringList &privateVariables)
{
    if (privateVariables.isEmpty())
        return;
    for (auto it = config.servers.begin(); it != config.servers.end();) {
        std::optional<VariableReference> refused;
        if (it->origin == ConfigOrigin::Workspace) {
            for (const VariableReference &reference : variableReferences(it->definition)) {
                if (privateVariables.contains(reference.name)) {
                    refused = reference;
                    break;
                }
            }
        }
        if (!refused) {
            ++it;
            continue;
        }
        ConfigError error;
        error.file = it->sourceFile;
        error.line = it->line;
        error.server = it->name;
        error.message
                = Text::tr("server '%1': %2")
                          .arg(it->name, privateVariableMessage(refused->name, refused->field));
        config.errors.append(error);
        it = config.servers.erase(it);
    }
    sortErrors(config.errors);
}

} // namespace Mcp::ConfigLoader
