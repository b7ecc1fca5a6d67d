#include "redaction.h"

#include <QRegularExpression>
#include <QSet>
#include <QUrl>
#include <QUrlQuery>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>

namespace Mcp {

namespace {

bool isLower(unsigned char c)
{
    return c >= 'a' && c <= 'z';
}
bool isUpper(unsigned char c)
{
    return c >= 'A' && c <= 'Z';
}
bool isDigit(unsigned char c)
{
    return c >= '0' && c <= '9';
}
bool isAlnum(unsigned char c)
{
    return isLower(c) || isUpper(c) || isDigit(c);
}
bool isSpace(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}
bool endsWith(std::string_view text, std::string_view suffix)
{
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// "X-API-Key" -> x, api, key; "clientSecret" -> client, secret; "APIKey" -> api, key;
// "max_tokens" -> max, tokens. Anything but ASCII letters and digits separates words.
std::vector<std::string> splitWords(std::string_view name)
{
    std::vector<std::string> words;
    std::string current;
    auto flush = [&] {
        if (!current.empty())
            words.push_back(std::move(current));
        current.clear();
    };
    for (std::size_t i = 0; i < name.size(); ++i) {
        const auto c = static_cast<unsigned char>(name[i]);
        if (!isAlnum(c)) {
            flush();
            continue;
        }
        if (isUpper(c) && !current.empty()) {
            const auto prev = static_cast<unsigned char>(name[i - 1]);
            const bool nextLower
                    = i + 1 < name.size() && isLower(static_cast<unsigned char>(name[i + 1]));
            if (isLower(prev) || isDigit(prev) || (isUpper(prev) && nextLower))
                flush();
        }
        current += char(isUpper(c) ? c - 'A' + 'a' : c);
    }
    flush();
    return words;
}

std::string joined(const std::vector<std::string> &words)
{
    std::string all;
    for (const std::string &w : words)
        all += w;
    return all;
}

// Member names that end in one of these (words joined, lower case) name a credential.
constexpr std::array SecretSuffixes = {
        std::string_view("token"),
        std::string_view("secret"),
        std::string_view("secrets"),
        std::string_view("password"),
        std::string_view("passwords"),
        std::string_view("passwd"),
        std::string_view("passphrase"),
        std::string_view("cookie"),
        std::string_view("cookies"),
        std::string_view("authorization"),
        std::string_view("apikey"),
        std::string_view("privatekey"),
        std::string_view("secretkey"),
        std::string_view("accesskey"),
        std::string_view("signingkey"),
        std::string_view("credential"),
        std::string_view("credentials"),
        std::string_view("authcode"),
        std::string_view("authorizationcode"),
};

// "<word>token" names that are not credentials: pagination and progress handles of MCP and
// common APIs, and a language model's special tokens or limits.
constexpr std::array HarmlessTokenPrefixes = {
        std::string_view("progress"),     std::string_view("page"),
        std::string_view("next"),         std::string_view("nextpage"),
        std::string_view("continuation"), std::string_view("cancellation"),
        std::string_view("sync"),         std::string_view("resume"),
        std::string_view("pagination"),   std::string_view("max"),
        std::string_view("min"),          std::string_view("eos"),
        std::string_view("bos"),          std::string_view("pad"),
        std::string_view("unk"),          std::string_view("stop"),
        std::string_view("sep"),          std::string_view("mask"),
        std::string_view("start"),        std::string_view("end"),
};

// Words that make an environment variable, header or option name a credential's name.
constexpr std::array SecretNameWords = {
        std::string_view("key"),           std::string_view("keys"),
        std::string_view("token"),         std::string_view("secret"),
        std::string_view("secrets"),       std::string_view("password"),
        std::string_view("passwd"),        std::string_view("pass"),
        std::string_view("passphrase"),    std::string_view("auth"),
        std::string_view("authorization"), std::string_view("credential"),
        std::string_view("credentials"),   std::string_view("cookie"),
        std::string_view("pat"),           std::string_view("dsn"),
        std::string_view("jwt"),           std::string_view("apikey"),
};

bool isSecretWords(const std::vector<std::string> &words)
{
    if (words.empty())
        return false;
    const std::string all = joined(words);
    const auto suffix = std::find_if(SecretSuffixes.begin(), SecretSuffixes.end(),
                                     [&](std::string_view s) { return endsWith(all, s); });
    if (suffix == SecretSuffixes.end())
        return false;
    if (*suffix == "token") {
        // The word qualifying "token": "page" in next_page_token, "progress" in progresstoken.
        const std::string &last = words.back();
        std::string_view qualifier;
        if (last == "token")
            qualifier = words.size() > 1 ? std::string_view(words[words.size() - 2]) : "";
        else if (endsWith(last, "token"))
            qualifier = std::string_view(last).substr(0, last.size() - 5);
        return std::find(HarmlessTokenPrefixes.begin(), HarmlessTokenPrefixes.end(), qualifier)
               == HarmlessTokenPrefixes.end();
    }
    return true;
}

const std::string &quotedMarker()
{
    static const std::string marker = '"' + std::string(Redactor::Marker) + '"';
    return marker;
}

// Characters of a credential in "Bearer <credential>" (RFC 6750's b64token) and of the value
// in "name=value".
bool isTokenChar(unsigned char c)
{
    return isAlnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/'
           || c == '=';
}
bool isAssignmentValueChar(unsigned char c)
{
    return !isSpace(c) && c != '&' && c != '"' && c != '\'' && c != ',' && c != ';' && c != '<'
           && c != '>' && c != '\\' && c != '}' && c != ']' && c != ')';
}
bool isAssignmentNameChar(unsigned char c)
{
    return isAlnum(c) || c == '_' || c == '-' || c == '.';
}

// Rule 2: a tolerant scan of JSON-like text. Strings are the only tokens that can hide
// structure characters, so tracking them (with escapes) plus the bracket stack is enough to
// know which member a value belongs to, even when the text is cut off or not JSON at all.
QByteArray redactByKey(QByteArrayView in)
{
    const std::size_t n = std::size_t(in.size());
    const char *s = in.data();
    QByteArray out;
    out.reserve(in.size());
    // One entry per open bracket: whether it is an array whose scalars are secret.
    std::vector<bool> secretArrays;
    bool afterKey = false;  // a member name and its ':' were seen; its value comes next
    bool keySecret = false; // ... and that name is a credential's
    auto valueIsSecret = [&] {
        if (afterKey)
            return keySecret;
        return !secretArrays.empty() && secretArrays.back();
    };
    auto nextNonSpace = [&](std::size_t from) {
        while (from < n && (s[from] == ' ' || s[from] == '\t'))
            ++from;
        return from;
    };

    std::size_t i = 0;
    while (i < n) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c == '"') {
            std::size_t j = i + 1;
            while (j < n && s[j] != '"')
                j += s[j] == '\\' ? 2 : 1;
            const bool closed = j < n;
            const std::size_t end = closed ? j + 1 : n;
            const std::string_view content(s + i + 1, (closed ? j : std::min(j, n)) - i - 1);
            const std::size_t after = nextNonSpace(end);
            if (closed && after < n && s[after] == ':') { // a member name
                out.append(s + i, qsizetype(end - i));
                keySecret = Redactor::isSecretKey(content);
                afterKey = true;
            } else {
                if (valueIsSecret())
                    out.append(quotedMarker().data(),
                               qsizetype(quotedMarker().size() - (closed ? 0 : 1)));
                else
                    out.append(s + i, qsizetype(end - i));
                afterKey = false;
            }
            i = end;
        } else if (c == '{' || c == '[') {
            secretArrays.push_back(c == '[' && valueIsSecret());
            afterKey = false;
            out.append(char(c));
            ++i;
        } else if (c == '}' || c == ']') {
            if (!secretArrays.empty())
                secretArrays.pop_back();
            afterKey = false;
            out.append(char(c));
            ++i;
        } else if (c == ',') {
            afterKey = false;
            out.append(char(c));
            ++i;
        } else if (c == ':' || isSpace(c)) {
            if (c == '\n')
                afterKey = false;
            out.append(char(c));
            ++i;
        } else { // a number, true/false/null, or a word of free text
            std::size_t j = i;
            while (j < n) {
                const auto d = static_cast<unsigned char>(s[j]);
                if (isSpace(d) || d == '{' || d == '}' || d == '[' || d == ']' || d == ','
                    || d == ':' || d == '"')
                    break;
                ++j;
            }
            const std::string_view word(s + i, j - i);
            const std::size_t colon = nextNonSpace(j);
            if (colon < n && s[colon] == ':' && Redactor::isSecretKey(word)) {
                // "X-Api-Key: value" in free text: hide the rest of the line.
                out.append(s + i, qsizetype(colon + 1 - i));
                std::size_t valueStart = nextNonSpace(colon + 1);
                out.append(s + colon + 1, qsizetype(valueStart - colon - 1));
                std::size_t valueEnd = valueStart;
                while (valueEnd < n && s[valueEnd] != '\n' && s[valueEnd] != '\r'
                       && s[valueEnd] != '"' && s[valueEnd] != ',')
                    ++valueEnd;
                if (valueEnd > valueStart)
                    out.append(Redactor::Marker.data(), qsizetype(Redactor::Marker.size()));
                afterKey = false;
                i = valueEnd;
                continue;
            }
            const bool keep = word == "true" || word == "false" || word == "null";
            if (valueIsSecret() && !keep)
                out.append(quotedMarker().data(), qsizetype(quotedMarker().size()));
            else
                out.append(s + i, qsizetype(j - i));
            afterKey = false;
            i = j;
        }
    }
    return out;
}

// "access_token=abc" in query strings and environment dumps.
void redactAssignments(QByteArray &text)
{
    qsizetype from = 0;
    for (;;) {
        const qsizetype eq = text.indexOf('=', from);
        if (eq < 0)
            return;
        from = eq + 1;
        const char *data = text.constData();
        qsizetype nameStart = eq;
        while (nameStart > 0
               && isAssignmentNameChar(static_cast<unsigned char>(data[nameStart - 1])))
            --nameStart;
        const std::string_view name(data + nameStart, std::size_t(eq - nameStart));
        if (name.empty() || !Redactor::isSecretKey(name))
            continue;
        qsizetype valueEnd = eq + 1;
        while (valueEnd < text.size()
               && isAssignmentValueChar(static_cast<unsigned char>(data[valueEnd])))
            ++valueEnd;
        const QByteArrayView value(data + eq + 1, valueEnd - eq - 1);
        if (value.isEmpty() || value.startsWith(Redactor::Marker))
            continue;
        text.replace(eq + 1, value.size(),
                     QByteArrayView(Redactor::Marker.data(), Redactor::Marker.size()));
        from = eq + 1 + qsizetype(Redactor::Marker.size());
    }
}

// Rule 3: "Bearer <credential>", whatever the case; the credential must be at least 8
// characters and not only letters, so "bearer authentication" in prose stays.
void redactBearer(QByteArray &text)
{
    static const QByteArray word = QByteArrayLiteral("bearer");
    qsizetype from = 0;
    for (;;) {
        qsizetype at = -1;
        for (qsizetype i = from; i + word.size() < text.size(); ++i) {
            if ((text.at(i) | 0x20) == 'b'
                && QByteArrayView(text).sliced(i, word.size()).compare(word, Qt::CaseInsensitive)
                           == 0) {
                at = i;
                break;
            }
        }
        if (at < 0)
            return;
        qsizetype start = at + word.size();
        if (start >= text.size() || text.at(start) != ' ') {
            from = start;
            continue;
        }
        while (start < text.size() && text.at(start) == ' ')
            ++start;
        qsizetype end = start;
        bool nonLetter = false;
        while (end < text.size() && isTokenChar(static_cast<unsigned char>(text.at(end)))) {
            const auto c = static_cast<unsigned char>(text.at(end));
            nonLetter = nonLetter || !(isLower(c) || isUpper(c));
            ++end;
        }
        if (end - start >= 8 && nonLetter) {
            text.replace(start, end - start,
                         QByteArrayView(Redactor::Marker.data(), Redactor::Marker.size()));
            from = start + qsizetype(Redactor::Marker.size());
        } else {
            from = end > start ? end : start;
        }
    }
}

void addSecret(QStringList &out, const QString &value)
{
    if (value.size() >= Redactor::MinSecretLength && !out.contains(value))
        out << value;
}

// The password of "scheme://user:password@host" and the values of secret-named query items.
void addUrlSecrets(QStringList &out, const QString &text)
{
    static const QRegularExpression userInfo(QStringLiteral("://[^/@\\s:]*:([^/@\\s]+)@"));
    for (auto it = userInfo.globalMatch(text); it.hasNext();)
        addSecret(out, it.next().captured(1));
    const qsizetype question = text.indexOf(QLatin1Char('?'));
    if (question < 0)
        return;
    const QUrlQuery query(text.mid(question + 1));
    for (const auto &[name, value] : query.queryItems(QUrl::FullyDecoded)) {
        if (Redactor::isSecretName(name))
            addSecret(out, value);
    }
}

void addNamedValues(QStringList &out, const QMap<QString, QString> &values)
{
    for (auto it = values.cbegin(); it != values.cend(); ++it) {
        const QString &value = it.value();
        if (Redactor::isSecretName(it.key()) || Redactor::looksLikeCredential(value)) {
            addSecret(out, value);
            // "Bearer <token>", "token <token>": the credential alone may appear elsewhere.
            const qsizetype space = value.indexOf(QLatin1Char(' '));
            if (space > 0)
                addSecret(out, value.mid(space + 1).trimmed());
        }
        addUrlSecrets(out, value);
    }
}

} // namespace

bool Redactor::isSecretKey(std::string_view key)
{
    return isSecretWords(splitWords(key));
}

bool Redactor::isSecretName(QStringView name)
{
    const QByteArray latin = name.toUtf8();
    const std::vector<std::string> words
            = splitWords(std::string_view(latin.data(), std::size_t(latin.size())));
    if (isSecretWords(words))
        return true;
    return std::any_of(words.begin(), words.end(), [](const std::string &w) {
        return std::find(SecretNameWords.begin(), SecretNameWords.end(), w)
               != SecretNameWords.end();
    });
}

bool Redactor::looksLikeCredential(QStringView value)
{
    // 16: shorter random strings are rare as credentials; common words and versions are shorter.
    constexpr qsizetype MinCredentialLength = 16;
    if (value.size() < MinCredentialLength)
        return false;
    bool letter = false;
    bool digit = false;
    for (QChar c : value) {
        if (c.isSpace() || c == QLatin1Char('/') || c == QLatin1Char('\\') || c == QLatin1Char(':'))
            return false;
        letter = letter || c.isLetter();
        digit = digit || c.isDigit();
    }
    return letter && digit;
}

QStringList Redactor::secretValues(const ServerConfig &config)
{
    QStringList out;
    addNamedValues(out, config.env);
    addNamedValues(out, config.headers);
    for (const QString &value : config.expandedSecrets)
        addSecret(out, value);
    addUrlSecrets(out, config.url);
    for (qsizetype i = 0; i < config.args.size(); ++i) {
        const QString &arg = config.args.at(i);
        addUrlSecrets(out, arg);
        if (looksLikeCredential(arg))
            addSecret(out, arg);
        if (!arg.startsWith(QLatin1Char('-')))
            continue;
        const qsizetype eq = arg.indexOf(QLatin1Char('='));
        const QString name = arg.mid(0, eq < 0 ? arg.size() : eq);
        if (!isSecretName(name))
            continue;
        if (eq >= 0)
            addSecret(out, arg.mid(eq + 1));
        else if (i + 1 < config.args.size() && !config.args.at(i + 1).startsWith(QLatin1Char('-')))
            addSecret(out, config.args.at(i + 1));
    }
    return out;
}

Redactor::Redactor(const QStringList &knownSecrets)
{
    for (const QString &secret : knownSecrets) {
        if (secret.size() < MinSecretLength)
            continue;
        const QByteArray utf8 = secret.toUtf8();
        std::string plain(utf8.constData(), std::size_t(utf8.size()));
        // As a JSON serializer writes it inside a string: quotes, backslashes, controls.
        std::string escaped = nlohmann::json(plain).dump(-1, ' ', false,
                                                         nlohmann::json::error_handler_t::replace);
        escaped = escaped.substr(1, escaped.size() - 2);
        std::string slashEscaped;
        for (char c : escaped) {
            if (c == '/')
                slashEscaped += '\\';
            slashEscaped += c;
        }
        for (std::string *form : {&plain, &escaped, &slashEscaped}) {
            if (std::find(m_secrets.begin(), m_secrets.end(), *form) == m_secrets.end())
                m_secrets.push_back(std::move(*form));
        }
    }
    // Longest first, so a secret containing another is replaced whole.
    std::stable_sort(
            m_secrets.begin(), m_secrets.end(),
            [](const std::string &a, const std::string &b) { return a.size() > b.size(); });
}

Redactor Redactor::forServer(const ServerConfig &config)
{
    return Redactor(secretValues(config));
}

void Redactor::redactKnownValues(QByteArray &text, bool truncated) const
{
    const QByteArrayView marker(Marker.data(), qsizetype(Marker.size()));
    for (const std::string &secret : m_secrets)
        text.replace(QByteArrayView(secret.data(), qsizetype(secret.size())), marker);
    if (!truncated)
        return;
    for (const std::string &secret : m_secrets) {
        const qsizetype longest = std::min(qsizetype(secret.size()) - 1, text.size());
        for (qsizetype k = longest; k >= MinPartialSecretLength; --k) {
            if (text.endsWith(QByteArrayView(secret.data(), k))) {
                text.chop(k);
                text.append(marker);
                break;
            }
        }
    }
}

QByteArray Redactor::redact(QByteArrayView utf8, bool truncated) const
{
    QByteArray text = utf8.toByteArray();
    redactKnownValues(text, truncated);
    text = redactByKey(text);
    redactAssignments(text);
    redactBearer(text);
    return text;
}

QString Redactor::redactText(const QString &text) const
{
    return QString::fromUtf8(redact(QByteArrayView(text.toUtf8())));
}

QString Redactor::redactKnownText(const QString &text) const
{
    if (m_secrets.empty())
        return text;
    QByteArray utf8 = text.toUtf8();
    redactKnownValues(utf8, false);
    return QString::fromUtf8(utf8);
}

} // namespace Mcp
