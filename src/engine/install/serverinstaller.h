#pragma once

#include <mcp/registry/installplan.h>
#include <mcp/registry/serverjson.h>

#include <QMap>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>

namespace Engine {

class ServerSecrets;
struct InstalledServer;

// One install of a registry entry: which of its packages or remotes, the answers to its form,
// and where the definition goes.
struct InstallRequest
{
    Mcp::Registry::ServerJson server;
    int package = -1; // an index into server.packages, or -1
    int remote = -1;  // an index into server.remotes, or -1 (exactly one of the two is set)
    QMap<QString, QString> answers; // by Mcp::Registry::Field::key
    QString name;                   // the configuration's name for the server
    QString file;                   // the .mcp.json it is added to
    QString registry;               // the registry's base URL, recorded in the definition
};

struct InstallOutcome
{
    bool ok = false;
    QString error; // !ok: why nothing was written
    // What the person must know: the variable to export for a secret no keychain kept, a
    // runtime that is not installed.
    QStringList notes;
    nlohmann::ordered_json definition; // as written: secrets as ${secret:NAME} or ${VAR}
    QString display;                   // its command line or URL, as written
    QStringList storedSecrets;         // the keychain entries made
};

// A secret answer of an install form: kept as the server secret `secretName` in the keychain,
// or, where no keychain answers, left to the environment variable `variable` (the person is
// told to export it).
struct SecretAnswer
{
    QString key;   // the form's key for it
    QString label; // as the person knows it
    QString value;
    QString secretName;
    QString variable;
};
struct StoredAnswers
{
    QMap<QString, QString> references; // by key: ${secret:NAME} or ${VAR}, what is written
    QStringList stored;                // the keychain entries made
    QStringList notes;                 // a variable to export, for each not stored
};
// Stores each answer in turn through `secrets` (null: none is stored); `done` once, from the
// event loop, unless `context` is gone. A value the keychain keeps only for this session is
// removed again: nothing secret is kept anywhere but the keychain.
void storeSecretAnswers(ServerSecrets *secrets, QObject *context, QList<SecretAnswer> answers,
                        std::function<void(const StoredAnswers &)> done);
// Deletes server secrets an install made (it failed, or the server is uninstalled).
void forgetSecrets(ServerSecrets *secrets, const QStringList &names);

// Turns a registry entry into a server of a configuration file: the answers are checked
// (Mcp::Registry::planPackage / planRemote), each secret answer goes to the keychain as a
// server secret named "<server>.<field>" and the definition reads it as ${secret:NAME} (where no
// keychain answers, nothing secret is kept: the definition reads ${VAR} and a note names the
// variable to export), and the definition is added through Mcp::ConfigPatcher, with
// "installedFrom" saying where it came from. Nothing is written when the plan is refused or
// the name is taken. Owned by the face that installs (the dialog, the CLI).
class ServerInstaller : public QObject
{
    Q_OBJECT
public:
    // `secrets` may be null: then every secret becomes a ${VAR} reference.
    explicit ServerInstaller(ServerSecrets *secrets, QObject *parent = nullptr);

    // "memory" for "io.github.modelcontextprotocol/server-memory": the name's last part
    // without a "server-"/"mcp-" prefix or "-server"/"-mcp" suffix, as a server name may be.
    static QString suggestedName(const QString &registryName);
    // A problem with a name for a new server in `existing` names, or empty.
    static QString nameProblem(const QString &name, const QStringList &existing);
    // The keychain secret for a field of a server: "<server>.<label>", as a secret's name may be.
    static QString secretName(const QString &server, const QString &label);
    // The environment variable a person exports instead where no keychain answers.
    static QString variableName(const QString &server, const Mcp::Registry::Field &field);
    // The program a plan needs when it is not on PATH: why, and how to install it; else empty.
    static QString missingRuntime(const QString &runtime);

    // The form of the chosen package or remote.
    static QList<Mcp::Registry::Field> fields(const InstallRequest &request);
    // The plan as it would be written (secret answers shown as ${secret:NAME}), or nullopt with
    // `problem` saying why it cannot be.
    static std::optional<Mcp::Registry::Plan> preview(const InstallRequest &request,
                                                      QString *problem);

    // `installed` (a registry package) at `latest`'s version: the argument naming the package's
    // version (`npx -y ID@V`, `uvx ID==V`, an image's tag) changed, everything else (the
    // answers, the entry's settings) as it was, "installedFrom" saying the new version. Nullopt
    // with `problem` when there is nothing to update (the same version, a remote), or the new
    // version cannot be had that way (the package gone, a required variable the entry lacks, an
    // entry edited so that it no longer names its package): then it is installed again.
    static std::optional<nlohmann::ordered_json>
    updatedDefinition(const InstalledServer &installed, const Mcp::Registry::ServerJson &latest,
                      QString *problem);

    // What `definition` runs, as one line ("npx -y ID@V"), or the URL it reaches.
    static QString commandLine(const nlohmann::ordered_json &definition);

    // `done` once, from the event loop, unless `context` is gone.
    void install(InstallRequest request, QObject *context,
                 std::function<void(const InstallOutcome &)> done);

private:
    struct Job;
    void finish(const std::shared_ptr<Job> &job);

    QPointer<ServerSecrets> m_secrets;
};

} // namespace Engine
