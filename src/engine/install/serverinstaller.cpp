#include "serverinstaller.h"

#include "installedserver.h"

#include <engine/secrets/serversecrets.h>

#include <mcp/config/config.h>
#include <mcp/config/configpatcher.h>

#include <QStandardPaths>
#include <QTimer>
#include <QVersionNumber>

#include <memory>

namespace Engine {

using Mcp::Registry::Field;
using Mcp::Registry::Plan;
using OrderedJson = nlohmann::ordered_json;

namespace {

bool isNameCharacter(QChar c, bool dot)
{
    return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9')
           || c == u'_' || c == u'-' || (dot && c == u'.');
}

// `text` with every character a name may not hold as '_', at most `max` long, never empty.
QString cleaned(const QString &text, qsizetype max, bool dot)
{
    QString out;
    for (const QChar c : text)
        out += isNameCharacter(c, dot) ? c : QChar(u'_');
    out = out.left(max);
    return out.isEmpty() ? QStringLiteral("server") : out;
}

std::optional<Plan> planOf(const InstallRequest &request, const QMap<QString, QString> &answers,
                           QString *problem)
{
    const bool onePackage
            = request.package >= 0 && request.package < request.server.packages.size();
    const bool oneRemote = request.remote >= 0 && request.remote < request.server.remotes.size();
    if (onePackage == oneRemote) {
        *problem = ServerInstaller::tr("choose one package or one remote of %1 to install")
                           .arg(request.server.name);
        return std::nullopt;
    }
    return onePackage ? Mcp::Registry::planPackage(request.server.packages.at(request.package),
                                                   answers, problem)
                      : Mcp::Registry::planRemote(request.server.remotes.at(request.remote),
                                                  answers, problem);
}

// The answers whose values are secrets: the plan's secret keys that the person answered.
QStringList secretAnswers(const Plan &plan, const QMap<QString, QString> &answers)
{
    QStringList keys;
    for (const QString &key : plan.secretKeys) {
        if (!answers.value(key).trimmed().isEmpty())
            keys << key;
    }
    return keys;
}

OrderedJson definitionOf(const InstallRequest &request, const Plan &plan)
{
    OrderedJson definition = OrderedJson::object();
    if (!plan.url.isEmpty()) {
        const QString type = request.server.remotes.at(request.remote).transport.type;
        definition["type"] = type == QLatin1String("sse") ? "sse" : "http";
        definition["url"] = plan.url.toStdString();
        if (!plan.headers.isEmpty()) {
            OrderedJson headers = OrderedJson::object();
            for (const auto &[name, value] : plan.headers)
                headers[name.toStdString()] = value.toStdString();
            definition["headers"] = std::move(headers);
        }
    } else {
        definition["command"] = plan.command.toStdString();
        OrderedJson args = OrderedJson::array();
        for (const QString &arg : plan.args)
            args.push_back(arg.toStdString());
        definition["args"] = std::move(args);
        if (!plan.env.isEmpty()) {
            OrderedJson env = OrderedJson::object();
            for (const auto &[name, value] : plan.env)
                env[name.toStdString()] = value.toStdString();
            definition["env"] = std::move(env);
        }
    }
    OrderedJson from = OrderedJson::object();
    from["registry"] = request.registry.toStdString();
    from["name"] = request.server.name.toStdString();
    from["version"] = request.server.version.toStdString();
    if (request.package >= 0) {
        const Mcp::Registry::Package &package = request.server.packages.at(request.package);
        from["package"]
                = (package.registryType + QLatin1Char(' ') + package.identifier).toStdString();
    }
    definition["installedFrom"] = std::move(from);
    return definition;
}

} // namespace

struct ServerInstaller::Job
{
    InstallRequest request;
    QPointer<QObject> context;
    std::function<void(const InstallOutcome &)> done;
    QMap<QString, QString> written; // the answers as written: secrets as references
    QList<Field> fields;
    InstallOutcome outcome;
};

ServerInstaller::ServerInstaller(ServerSecrets *secrets, QObject *parent)
    : QObject(parent)
    , m_secrets(secrets)
{
}

QString ServerInstaller::suggestedName(const QString &registryName)
{
    QString name = registryName.section(QLatin1Char('/'), -1).toLower();
    for (const char *prefix : {"server-", "mcp-server-", "mcp-"}) {
        if (name.startsWith(QLatin1String(prefix)) && name.size() > qsizetype(strlen(prefix)))
            name = name.mid(qsizetype(strlen(prefix)));
    }
    for (const char *suffix : {"-mcp-server", "-server", "-mcp"}) {
        if (name.endsWith(QLatin1String(suffix)) && name.size() > qsizetype(strlen(suffix)))
            name.chop(qsizetype(strlen(suffix)));
    }
    name = cleaned(name, Mcp::ConfigLoader::kMaxServerNameLength, true);
    if (name.compare(QLatin1String("builtin"), Qt::CaseInsensitive) == 0)
        name += QStringLiteral("-server");
    return name;
}

QString ServerInstaller::nameProblem(const QString &name, const QStringList &existing)
{
    if (existing.contains(name))
        return tr("a server named '%1' exists already").arg(name);
    // The loader's own rules, in its words.
    const Mcp::McpConfig probe = Mcp::ConfigLoader::parse(
            QByteArray::fromStdString(
                    nlohmann::json{{"mcpServers", {{name.toStdString(), {{"command", "x"}}}}}}.dump(
                            -1, ' ', false, nlohmann::json::error_handler_t::replace)),
            QStringLiteral("name"), {});
    return probe.errors.isEmpty() ? QString() : probe.errors.constFirst().message;
}

QString ServerInstaller::secretName(const QString &server, const QString &label)
{
    QString name = cleaned(server, 32, true) + QLatin1Char('.') + cleaned(label, 64, true);
    if (!(name.at(0).isLetter() || name.at(0) == u'_'))
        name.prepend(u'_');
    return name.left(Mcp::ConfigLoader::kMaxSecretNameLength);
}

QString ServerInstaller::variableName(const QString &server, const Field &field)
{
    if (field.key.startsWith(QLatin1String("env:")) && !field.key.contains(QLatin1Char('/')))
        return field.label; // the variable the server reads: export it under its own name
    QString name = (cleaned(server, 32, false) + QLatin1Char('_') + cleaned(field.label, 64, false))
                           .toUpper()
                           .replace(QLatin1Char('-'), QLatin1Char('_'));
    if (!(name.at(0).isLetter() || name.at(0) == u'_'))
        name.prepend(u'_');
    return name;
}

QString ServerInstaller::missingRuntime(const QString &runtime)
{
    if (runtime.isEmpty() || !QStandardPaths::findExecutable(runtime).isEmpty())
        return {};
    if (runtime == QLatin1String("npx"))
        return tr("npx is not installed: this server needs Node.js and npm (on Debian: sudo apt "
                  "install nodejs npm)");
    if (runtime == QLatin1String("uvx"))
        return tr("uvx is not installed: this server needs uv (pipx install uv, or pip install "
                  "--user uv)");
    if (runtime == QLatin1String("docker"))
        return tr("docker is not installed: this server runs in a container (on Debian: sudo apt "
                  "install docker.io)");
    return tr("%1 is not installed").arg(runtime);
}

QList<Field> ServerInstaller::fields(const InstallRequest &request)
{
    if (request.package >= 0 && request.package < request.server.packages.size())
        return Mcp::Registry::fieldsOf(request.server.packages.at(request.package));
    if (request.remote >= 0 && request.remote < request.server.remotes.size())
        return Mcp::Registry::fieldsOf(request.server.remotes.at(request.remote));
    return {};
}

std::optional<Plan> ServerInstaller::preview(const InstallRequest &request, QString *problem)
{
    const std::optional<Plan> checked = planOf(request, request.answers, problem);
    if (!checked)
        return std::nullopt;
    QMap<QString, QString> shown = request.answers;
    const QList<Field> form = fields(request);
    for (const QString &key : secretAnswers(*checked, request.answers)) {
        const auto field = std::find_if(form.cbegin(), form.cend(),
                                        [&key](const Field &f) { return f.key == key; });
        shown[key] = Mcp::ConfigLoader::secretReferenceText(
                secretName(request.name, field == form.cend() ? key : field->label));
    }
    return planOf(request, shown, problem);
}

void ServerInstaller::install(InstallRequest request, QObject *context,
                              std::function<void(const InstallOutcome &)> done)
{
    auto job = std::make_shared<Job>();
    job->context = context;
    job->done = std::move(done);
    job->fields = fields(request);
    job->request = std::move(request);
    QString problem;
    const std::optional<Plan> checked = planOf(job->request, job->request.answers, &problem);
    if (checked)
        problem = Mcp::ConfigLoader::readFile(job->request.file).error;
    if (problem.isEmpty()) {
        const Mcp::McpConfig existing
                = Mcp::ConfigLoader::loadFile(job->request.file, QProcessEnvironment());
        QStringList names;
        for (const Mcp::ServerConfig &server : existing.servers)
            names << server.name;
        problem = nameProblem(job->request.name, names);
    }
    if (!problem.isEmpty()) {
        job->outcome.error = problem;
        QTimer::singleShot(0, this, [this, job] { finish(job); });
        return;
    }
    job->written = job->request.answers;
    if (const QString missing = missingRuntime(checked->runtime); !missing.isEmpty())
        job->outcome.notes << missing;
    QList<SecretAnswer> secrets;
    for (const QString &key : secretAnswers(*checked, job->request.answers)) {
        const auto found = std::find_if(job->fields.cbegin(), job->fields.cend(),
                                        [&key](const Field &f) { return f.key == key; });
        const Field field = found == job->fields.cend() ? Field{key, key, {}, false} : *found;
        secrets << SecretAnswer{key, field.label, job->request.answers.value(key).trimmed(),
                                secretName(job->request.name, field.label),
                                variableName(job->request.name, field)};
    }
    storeSecretAnswers(m_secrets, this, secrets, [this, job](const StoredAnswers &stored) {
        for (auto it = stored.references.cbegin(); it != stored.references.cend(); ++it)
            job->written[it.key()] = it.value();
        job->outcome.storedSecrets = stored.stored;
        job->outcome.notes << stored.notes;
        finish(job);
    });
}

void storeSecretAnswers(ServerSecrets *secrets, QObject *context, QList<SecretAnswer> answers,
                        std::function<void(const StoredAnswers &)> done)
{
    struct Pending
    {
        QPointer<ServerSecrets> secrets;
        QPointer<QObject> context;
        QList<SecretAnswer> left;
        StoredAnswers result;
        std::function<void(const StoredAnswers &)> done;
        std::function<void()> next;
    };
    auto pending = std::make_shared<Pending>();
    pending->secrets = secrets;
    pending->context = context;
    pending->left = std::move(answers);
    pending->done = std::move(done);
    // Each in turn: into the keychain, or (none answering) a ${VAR} to export.
    pending->next = [weak = std::weak_ptr<Pending>(pending)] {
        const std::shared_ptr<Pending> p = weak.lock();
        if (!p)
            return;
        if (p->left.isEmpty()) {
            auto done = std::move(p->done);
            const StoredAnswers result = p->result;
            p->next = nullptr; // ends the cycle that keeps `p`
            if (p->context)
                done(result);
            return;
        }
        const SecretAnswer answer = p->left.takeFirst();
        const auto instead = [p, answer] {
            p->result.references.insert(answer.key, QStringLiteral("${%1}").arg(answer.variable));
            p->result.notes << ServerInstaller::tr("No keychain answered, so %1 was not stored: "
                                                   "export %2 with its value before Switchboard "
                                                   "starts")
                                       .arg(answer.label, answer.variable);
            p->next();
        };
        if (!p->secrets) {
            instead();
            return;
        }
        p->secrets->set(answer.secretName, answer.value, p->secrets,
                        [p, answer, instead](const ServerSecrets::Outcome &outcome) {
                            if (outcome.ok && !outcome.sessionOnly) {
                                p->result.references.insert(
                                        answer.key,
                                        Mcp::ConfigLoader::secretReferenceText(answer.secretName));
                                p->result.stored << answer.secretName;
                                p->next();
                                return;
                            }
                            if (outcome.sessionOnly && p->secrets)
                                forgetSecrets(p->secrets, {answer.secretName});
                            instead();
                        });
    };
    QTimer::singleShot(0, context, [pending] { pending->next(); });
}

void forgetSecrets(ServerSecrets *secrets, const QStringList &names)
{
    if (!secrets)
        return;
    for (const QString &name : names)
        secrets->remove(name, secrets, [](const ServerSecrets::Outcome &) {});
}

namespace {

// An image reference without its tag ("ghcr.io/o/i:1.2" → "ghcr.io/o/i").
QString untagged(const QString &image)
{
    const qsizetype colon = image.lastIndexOf(QLatin1Char(':'));
    return colon > image.lastIndexOf(QLatin1Char('/')) ? image.left(colon) : image;
}

} // namespace

QString ServerInstaller::commandLine(const OrderedJson &definition)
{
    if (!definition.is_object())
        return {};
    if (definition.contains("url") && definition["url"].is_string())
        return QString::fromStdString(definition["url"].get<std::string>());
    QStringList words{QString::fromStdString(definition.value("command", std::string()))};
    if (definition.contains("args") && definition["args"].is_array())
        for (const auto &arg : definition["args"])
            if (arg.is_string())
                words << QString::fromStdString(arg.get<std::string>());
    return words.join(QLatin1Char(' '));
}

std::optional<OrderedJson>
ServerInstaller::updatedDefinition(const InstalledServer &installed,
                                   const Mcp::Registry::ServerJson &latest, QString *problem)
{
    const auto refuse = [problem](const QString &why) -> std::optional<OrderedJson> {
        *problem = why;
        return std::nullopt;
    };
    if (installed.registryName != latest.name)
        return refuse(tr("%1 was not installed from the registry entry %2")
                              .arg(installed.name, latest.name));
    const QVersionNumber was = QVersionNumber::fromString(installed.version);
    const QVersionNumber now = QVersionNumber::fromString(latest.version);
    if (installed.version == latest.version || (!was.isNull() && !now.isNull() && now <= was))
        return refuse(tr("%1 %2 is installed, and the registry's latest version is %3: there is "
                         "nothing to update")
                              .arg(installed.name, installed.version, latest.version));
    const qsizetype space = installed.package.indexOf(QLatin1Char(' '));
    if (space <= 0)
        return refuse(tr("%1 is a remote server: whoever runs it updates it; there is nothing "
                         "to install here")
                              .arg(installed.name));
    const QString type = installed.package.left(space);
    const QString identifier = installed.package.mid(space + 1);
    const bool oci = type == QLatin1String("oci");
    const Mcp::Registry::Package *package = nullptr;
    for (const Mcp::Registry::Package &candidate : latest.packages) {
        if (candidate.registryType == type
            && (oci ? untagged(candidate.identifier) == untagged(identifier)
                    : candidate.identifier == identifier))
            package = &candidate;
    }
    const QString again = tr("uninstall it and install it again");
    if (!package)
        return refuse(tr("version %1 of %2 no longer has the %3 package %4: %5")
                              .arg(latest.version, latest.name, type, identifier, again));
    if (const QString bad = Mcp::Registry::checkPackageIdentity(
                package->registryType, package->identifier, package->version);
        !bad.isEmpty())
        return refuse(bad);
    OrderedJson definition = installed.definition;
    QString prefix; // what the argument naming the package starts with
    QString replacement;
    if (type == QLatin1String("npm")) {
        prefix = identifier + QLatin1Char('@');
        replacement = identifier + QLatin1Char('@') + package->version;
    } else if (type == QLatin1String("pypi")) {
        prefix = identifier + QLatin1String("==");
        replacement = identifier + QLatin1String("==") + package->version;
    } else if (oci) {
        prefix = identifier;
        replacement = package->identifier;
    } else {
        return refuse(tr("Switchboard cannot update a %1 package").arg(type));
    }
    bool replaced = false;
    if (definition.contains("args") && definition["args"].is_array()) {
        for (auto &arg : definition["args"]) {
            if (!arg.is_string())
                continue;
            const QString text = QString::fromStdString(arg.get<std::string>());
            if (oci ? text == identifier : text.startsWith(prefix)) {
                arg = replacement.toStdString();
                replaced = true;
                break;
            }
        }
    }
    if (!replaced)
        return refuse(tr("the definition of %1 no longer names %2 (was it edited?): %3")
                              .arg(installed.name, identifier, again));
    // A variable the new version needs that the entry has no value for.
    QStringList missing;
    for (const Mcp::Registry::KeyValueInput &variable : package->environmentVariables) {
        const bool has = definition.contains("env") && definition["env"].is_object()
                         && definition["env"].contains(variable.name.toStdString());
        if (variable.isRequired && variable.value.isEmpty() && variable.defaultValue.isEmpty()
            && !has)
            missing << variable.name;
    }
    if (!missing.isEmpty())
        return refuse(tr("version %1 of %2 asks for %3, which %4 has no value for: %5")
                              .arg(latest.version, latest.name, missing.join(QLatin1String(", ")),
                                   installed.name, again));
    definition["installedFrom"]["version"] = latest.version.toStdString();
    definition["installedFrom"]["package"]
            = (type + QLatin1Char(' ') + package->identifier).toStdString();
    return definition;
}

void ServerInstaller::finish(const std::shared_ptr<Job> &job)
{
    InstallOutcome &outcome = job->outcome;
    if (outcome.error.isEmpty()) {
        QString problem;
        if (const std::optional<Plan> plan = planOf(job->request, job->written, &problem)) {
            outcome.definition = definitionOf(job->request, *plan);
            outcome.display = plan->display();
            outcome.ok = Mcp::ConfigPatcher::addServer(job->request.file, job->request.name,
                                                       outcome.definition, &outcome.error);
        } else {
            outcome.error = problem;
        }
    }
    if (!outcome.ok) {
        // Nothing of a failed install stays behind.
        forgetSecrets(m_secrets, outcome.storedSecrets);
        outcome.storedSecrets.clear();
    }
    if (job->context)
        job->done(outcome);
}

} // namespace Engine
