#include "installplan.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QUrl>

namespace Mcp::Registry {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Mcp::Registry", text);
}

QString labelOf(const Argument &argument)
{
    return argument.type == Argument::Type::Named ? argument.name : argument.valueHint;
}

void addFields(QList<Field> &fields, const QString &key, const QString &label, const Input &input,
               bool repeated)
{
    if (input.value.isEmpty())
        fields << Field{key, label, input, repeated};
    for (auto it = input.variables.cbegin(); it != input.variables.cend(); ++it)
        fields << Field{key + QLatin1Char('/') + it.key(), it.key(), it.value(), false};
}

// Works out the values of one package or remote from the person's answers.
class Resolver
{
public:
    Resolver(const QMap<QString, QString> &answers)
        : m_answers(answers)
    {
    }

    QString problem;
    QStringList secretKeys;

    // The values of `key` (one per line for a repeated argument; none when left out).
    QStringList values(const QString &key, const QString &label, const Input &input, bool repeated)
    {
        if (!problem.isEmpty())
            return {};
        if (!input.value.isEmpty())
            return {substitute(key, input)};
        QString answer = m_answers.value(key).trimmed();
        if (answer.isEmpty())
            answer = input.defaultValue;
        if (answer.isEmpty()) {
            if (input.isRequired)
                problem = tr("%1 is required").arg(label);
            return {};
        }
        const QStringList parts = repeated ? answer.split(QLatin1Char('\n'), Qt::SkipEmptyParts)
                                           : QStringList{answer};
        for (const QString &part : parts) {
            if (!check(label, input, part.trimmed()))
                return {};
        }
        if (input.isSecret)
            secretKeys << key;
        QStringList out;
        for (const QString &part : parts)
            out << part.trimmed();
        return out;
    }

private:
    bool check(const QString &label, const Input &input, const QString &value)
    {
        if (!input.choices.isEmpty() && !input.choices.contains(value)) {
            problem = tr("%1 must be one of %2")
                              .arg(label, input.choices.join(QLatin1String(", ")));
            return false;
        }
        if (input.format == Input::Format::Number) {
            bool ok = false;
            value.toDouble(&ok);
            if (!ok) {
                problem = tr("%1 must be a number").arg(label);
                return false;
            }
        }
        if (input.format == Input::Format::Boolean && value != QLatin1String("true")
            && value != QLatin1String("false")) {
            problem = tr("%1 must be true or false").arg(label);
            return false;
        }
        for (const QChar c : value) {
            if (c.category() == QChar::Other_Control) {
                problem = tr("%1 holds a control character").arg(label);
                return false;
            }
        }
        return true;
    }

    // A fixed value with its {variables} put in; a name it does not declare stays as written.
    QString substitute(const QString &key, const Input &input)
    {
        static const QRegularExpression variable(QStringLiteral("\\{([A-Za-z_][A-Za-z0-9_]*)\\}"));
        QString out;
        qsizetype last = 0;
        for (auto it = variable.globalMatch(input.value); it.hasNext();) {
            const QRegularExpressionMatch match = it.next();
            out += QStringView(input.value).mid(last, match.capturedStart() - last);
            last = match.capturedEnd();
            const QString name = match.captured(1);
            if (!input.variables.contains(name)) {
                out += match.captured(0);
                continue;
            }
            const Input &declared = input.variables.value(name);
            const QStringList value = values(key + QLatin1Char('/') + name, name, declared, false);
            if (!problem.isEmpty())
                return {};
            if (declared.isSecret && !value.isEmpty())
                secretKeys << key;
            out += value.value(0);
        }
        out += QStringView(input.value).mid(last);
        return out;
    }

    const QMap<QString, QString> &m_answers;
};

QStringList argumentList(Resolver &resolver, const QList<Argument> &arguments, const char *kind)
{
    QStringList out;
    for (int i = 0; i < arguments.size(); ++i) {
        const Argument &argument = arguments.at(i);
        const QString key = QStringLiteral("%1:%2").arg(QLatin1String(kind)).arg(i);
        const QStringList values
                = resolver.values(key, labelOf(argument), argument, argument.isRepeated);
        for (const QString &value : values) {
            if (argument.type == Argument::Type::Positional) {
                out << value;
            } else if (argument.format == Input::Format::Boolean && argument.value.isEmpty()) {
                if (value == QLatin1String("true"))
                    out << argument.name; // a switch: there or not
            } else {
                out << argument.name << value;
            }
        }
    }
    return out;
}

bool needsQuotes(const QString &text)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_@%+=:,./-]+$"));
    return !plain.match(text).hasMatch();
}

} // namespace

QList<Field> fieldsOf(const Package &package)
{
    QList<Field> fields;
    for (int i = 0; i < package.runtimeArguments.size(); ++i) {
        const Argument &argument = package.runtimeArguments.at(i);
        addFields(fields, QStringLiteral("runtime:%1").arg(i), labelOf(argument), argument,
                  argument.isRepeated);
    }
    for (int i = 0; i < package.packageArguments.size(); ++i) {
        const Argument &argument = package.packageArguments.at(i);
        addFields(fields, QStringLiteral("package:%1").arg(i), labelOf(argument), argument,
                  argument.isRepeated);
    }
    for (const KeyValueInput &variable : package.environmentVariables)
        addFields(fields, QStringLiteral("env:") + variable.name, variable.name, variable, false);
    return fields;
}

QList<Field> fieldsOf(const Remote &remote)
{
    QList<Field> fields;
    for (auto it = remote.variables.cbegin(); it != remote.variables.cend(); ++it)
        fields << Field{QStringLiteral("url/") + it.key(), it.key(), it.value(), false};
    for (const KeyValueInput &header : remote.transport.headers)
        addFields(fields, QStringLiteral("header:") + header.name, header.name, header, false);
    return fields;
}

QString Plan::display() const
{
    if (!url.isEmpty())
        return url;
    QStringList words{command};
    for (const QString &arg : args) {
        if (!needsQuotes(arg))
            words << arg;
        else
            words << QLatin1Char('\'')
                             + QString(arg).replace(QLatin1Char('\''), QLatin1String("'\\''"))
                             + QLatin1Char('\'');
    }
    return words.join(QLatin1Char(' '));
}

std::optional<Plan> planPackage(const Package &package, const QMap<QString, QString> &answers,
                                QString *problem)
{
    const auto refuse = [problem](const QString &why) -> std::optional<Plan> {
        if (problem)
            *problem = why;
        return std::nullopt;
    };
    if (const QString identity
        = checkPackageIdentity(package.registryType, package.identifier, package.version);
        !identity.isEmpty())
        return refuse(identity);
    if (package.transport.type != QLatin1String("stdio"))
        return refuse(tr("%1 serves MCP over HTTP from a process of its own; Switchboard "
                         "installs packages that speak over stdio")
                              .arg(package.identifier));
    const QString type = package.registryType;
    const bool versioned = type == QLatin1String("npm") || type == QLatin1String("pypi");
    if (versioned && package.version.isEmpty())
        return refuse(tr("%1 names no version: Switchboard installs exact versions only")
                              .arg(package.identifier));
    Resolver resolver(answers);
    Plan plan;
    const QStringList runtimeArgs = argumentList(resolver, package.runtimeArguments, "runtime");
    const QStringList packageArgs = argumentList(resolver, package.packageArguments, "package");
    for (const KeyValueInput &variable : package.environmentVariables) {
        const QStringList value = resolver.values(QStringLiteral("env:") + variable.name,
                                                  variable.name, variable, false);
        if (!value.isEmpty())
            plan.env << qMakePair(variable.name, value.constFirst());
    }
    if (!resolver.problem.isEmpty())
        return refuse(resolver.problem);
    if (type == QLatin1String("npm")) {
        plan.command = plan.runtime = QStringLiteral("npx");
        plan.args << runtimeArgs << QStringLiteral("-y")
                  << package.identifier + QLatin1Char('@') + package.version << packageArgs;
    } else if (type == QLatin1String("pypi")) {
        plan.command = plan.runtime = QStringLiteral("uvx");
        plan.args << runtimeArgs << package.identifier + QLatin1String("==") + package.version
                  << packageArgs;
    } else if (type == QLatin1String("oci")) {
        plan.command = plan.runtime = QStringLiteral("docker");
        plan.args << QStringLiteral("run") << QStringLiteral("-i") << QStringLiteral("--rm")
                  << runtimeArgs;
        // The container sees only the variables it is handed (their values stay in docker's
        // environment, not on its command line).
        for (const auto &[name, value] : std::as_const(plan.env))
            plan.args << QStringLiteral("-e") << name;
        plan.args << package.identifier << packageArgs;
    } else {
        return refuse(tr("Switchboard cannot run packages from the %1 registry here (npm, PyPI "
                         "and OCI images it can)")
                              .arg(type));
    }
    plan.secretKeys = resolver.secretKeys;
    plan.secretKeys.removeDuplicates();
    return plan;
}

std::optional<Plan> planRemote(const Remote &remote, const QMap<QString, QString> &answers,
                               QString *problem)
{
    const auto refuse = [problem](const QString &why) -> std::optional<Plan> {
        if (problem)
            *problem = why;
        return std::nullopt;
    };
    Resolver resolver(answers);
    Input url;
    url.value = remote.transport.url;
    url.variables = remote.variables;
    Plan plan;
    plan.url = resolver.values(QStringLiteral("url"), QStringLiteral("url"), url, false).value(0);
    for (const KeyValueInput &header : remote.transport.headers) {
        const QStringList value = resolver.values(QStringLiteral("header:") + header.name,
                                                  header.name, header, false);
        if (!value.isEmpty())
            plan.headers << qMakePair(header.name, value.constFirst());
    }
    if (!resolver.problem.isEmpty())
        return refuse(resolver.problem);
    const QUrl parsed(plan.url, QUrl::StrictMode);
    const QString scheme = parsed.scheme().toLower();
    if (!parsed.isValid() || parsed.host().isEmpty()
        || (scheme != QLatin1String("https") && scheme != QLatin1String("http"))
        || plan.url.contains(QLatin1Char('{')))
        return refuse(tr("'%1' is not an address a server can be reached at").arg(plan.url));
    plan.secretKeys = resolver.secretKeys;
    plan.secretKeys.removeDuplicates();
    return plan;
}

} // namespace Mcp::Registry
