#pragma once

#include "config.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <QStringList>
#include <QStringView>

#include <string>
#include <string_view>
#include <vector>

namespace Mcp {

// Hides secrets in protocol text before anyone sees it (the protocol log, copied text). Works
// on any text, valid JSON or not (a message cut at the log's size cap, a stderr line):
//  1. By value: every secret known from the server's configuration (see secretValues()) is
//     replaced wherever it appears, also in its JSON-escaped form; at the end of cut-off text
//     a partial secret is replaced too.
//  2. By key: the value of every JSON object member whose name is a credential's name
//     (isSecretKey(): "authorization", "api_key", "access_token", "password", ...) becomes
//     "«redacted»" when it is a string or number, and so does each string and number of an
//     array there; an object's members are judged by their own names (a tool schema's
//     "password" property stays readable). Booleans and null are kept: they hide nothing.
//     Found by a tolerant scan rather than a parse, so cut-off JSON and JSON inside a log line
//     are covered, as are unquoted "api-key: value" (to the end of the line) and
//     "token=value" pairs (query strings, environment dumps).
//  3. "Bearer <credential>" anywhere.
// Valid JSON stays valid JSON. A value type: build one per server and reuse it; pure
// functions otherwise.
class Redactor
{
public:
    // What a hidden value becomes (UTF-8 bytes of "«redacted»", without quotes).
    static constexpr std::string_view Marker = "\xC2\xABredacted\xC2\xBB";
    // Shorter known values are never replaced: hiding "1" or "yes" everywhere would garble the
    // log while protecting nothing anyone could guess less easily.
    static constexpr qsizetype MinSecretLength = 4;
    // A cut-off text ending in this many or more leading characters of a known secret has
    // them replaced; fewer reveal nothing useful.
    static constexpr qsizetype MinPartialSecretLength = 3;

    Redactor() = default;
    explicit Redactor(const QStringList &knownSecrets);
    // A redactor knowing secretValues(config).
    static Redactor forServer(const ServerConfig &config);

    // `truncated`: the text was cut off (its end may hold the start of a secret).
    QByteArray redact(QByteArrayView utf8, bool truncated = false) const;
    QString redactText(const QString &text) const;
    // Rule 1 only: replaces the known secret values and nothing else. For tool results, whose
    // text the model may edit and write back: a file's "password": "x" must stay as it is,
    // while a value the app knows to be secret must never reach the model.
    QString redactKnownText(const QString &text) const;

    bool hasKnownSecrets() const { return !m_secrets.empty(); }

    // Whether a JSON member name names a credential. Precise, since it applies to all traffic:
    // case, '_', '-' and camelCase do not matter ("apiKey", "X-API-Key", "client_secret"),
    // but counts and protocol fields are not secrets ("max_tokens", "tokens",
    // "progressToken", "nextPageToken", "token_type", "secret_name").
    static bool isSecretKey(std::string_view key);
    // Whether an environment variable, header or option name holds a credential. Broader than
    // isSecretKey() ("GITHUB_PAT", "DB_PASS", "OPENAI_KEY", "DATABASE_DSN"), since a false
    // match only hides one configured value from the log.
    static bool isSecretName(QStringView name);
    // Whether a value has the shape of a generated credential whatever its name: at least 16
    // characters, no spaces or path separators, letters and digits mixed ("sk-...", "ghp_...").
    static bool looksLikeCredential(QStringView value);

    // The secret values in a server's configuration, each at least MinSecretLength long:
    //  - values of env and headers whose name isSecretName(), and the credential after the
    //    scheme word of such a header ("Bearer <token>");
    //  - the values `${VAR}` references put into env and headers (config.expandedSecrets);
    //  - any env or header value that looksLikeCredential();
    //  - command-line values of secret-named options ("--api-key X", "--token=X");
    //  - the password of credentials in a URL ("https://user:pass@host") and the values of
    //    secret-named query items, in the url, args and env.
    // Plain paths, hosts and flags stay visible, so the log remains readable.
    static QStringList secretValues(const ServerConfig &config);

private:
    void redactKnownValues(QByteArray &text, bool truncated) const;

    std::vector<std::string> m_secrets; // UTF-8 and JSON-escaped forms, longest first
};

} // namespace Mcp
