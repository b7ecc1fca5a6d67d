#pragma once

// What the files of the configuration loader share (internal to src/mcp/config): the
// translation context, JSON pointers, the index that turns them into lines and columns, and
// the check of one server that parse() and importConfig() both run. The public API is config.h;
// the jobs are in config.cpp (parse, load, merge), configpositions.cpp (positions and syntax
// errors), configchecks.cpp (a server's keys), configvariables.cpp (${VAR}) and
// configimport.cpp (other clients' files).

#include "config.h"

#include <QCoreApplication>
#include <QList>
#include <QProcessEnvironment>
#include <QSet>
#include <QString>
#include <QStringView>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace Mcp::ConfigLoader::Internal {

using json = nlohmann::json;

// Every message of the loader shares this translation context (lupdate reads it from the
// macro). Untranslated, the English text is what `switchboard-cli config check` prints.
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(Mcp::ConfigLoader)
};

inline QString fromStd(const std::string &s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// The JSON pointer of a member or an element of the value at `parent` (RFC 6901).
std::string childPointer(const std::string &parent, std::string_view key);
std::string childPointer(const std::string &parent, size_t index);

// A value as messages quote it: control characters escaped, long values cut.
QString quoted(QStringView value);

// Maps JSON pointers to the byte offset where their value starts, and byte offsets to
// line/column. nlohmann_json keeps no positions, so the text is scanned once more. The scan
// only tracks strings and brackets, so it is safe on any bytes; its map is meaningful once
// nlohmann_json has accepted the same text. It also enforces kMaxNestingDepth before
// nlohmann_json builds anything.
class PositionIndex
{
public:
    // `collection`: the top-level member whose members are named entries (servers, agents);
    // a duplicate key inside one of them names it.
    explicit PositionIndex(const QByteArray &text, std::string collection = "mcpServers");

    // A key written twice in one object: nlohmann_json keeps the last value silently.
    struct Duplicate
    {
        qsizetype offset = 0;      // the second occurrence's opening quote
        qsizetype firstOffset = 0; // the first one's
        std::string key;
        std::string server; // the server it is inside of (or the server name itself), if any
    };

    bool tooDeep() const { return m_tooDeepOffset >= 0; }
    const std::vector<Duplicate> &duplicates() const { return m_duplicates; }

    // Offset of the opening quote of the key whose value `pointer` names; -1 if not seen.
    qsizetype keyOffsetOf(const std::string &pointer) const
    {
        const auto it = m_keyOffsets.find(pointer);
        return it == m_keyOffsets.end() ? -1 : it->second;
    }
    qsizetype tooDeepOffset() const { return m_tooDeepOffset; }

    // -1 if the pointer was not seen.
    qsizetype offsetOf(const std::string &pointer) const
    {
        const auto it = m_offsets.find(pointer);
        return it == m_offsets.end() ? -1 : it->second;
    }

    // 1-based line and column (in code points) of a byte offset; the end of the text is a
    // valid position (for "unexpected end of input").
    std::pair<int, int> location(qsizetype offset) const;

    // Byte offset of UTF-16 unit `unit` of the decoded string whose opening quote is at
    // `quote`; lets an error point inside a string even when escapes come before it.
    qsizetype offsetInString(qsizetype quote, qsizetype unit) const;

private:
    struct Frame;

    void scan();
    void recordDuplicate(const std::vector<Frame> &stack, qsizetype offset, qsizetype first);

    QByteArray m_text;
    std::string m_collection;
    std::vector<qsizetype> m_lineStarts;
    std::unordered_map<std::string, qsizetype> m_offsets;
    std::unordered_map<std::string, qsizetype> m_keyOffsets;
    std::vector<Duplicate> m_duplicates;
    qsizetype m_tooDeepOffset = -1;
};

// Where errors go, and how a JSON pointer becomes a line and column.
struct Context
{
    const PositionIndex &index;
    QString file;
    QList<ConfigError> &errors;
    // False when strings were rewritten (import): then an offset inside a string would point
    // at the wrong character, so errors point at the string itself.
    bool preciseStringOffsets = true;

    qsizetype offsetOf(std::string pointer) const;
    // Where UTF-16 unit `unit` of the string (key or value) starting at `stringOffset` is.
    qsizetype insideString(qsizetype stringOffset, qsizetype unit) const;
    // UTF-16 unit `unit` of the key of the value `pointer` names; that value (or a parent)
    // if the key was not seen.
    qsizetype inKey(const std::string &pointer, qsizetype unit) const;
    // UTF-16 unit `unit` of the string value `pointer` names (the value itself if it was not
    // indexed exactly).
    qsizetype inValue(const std::string &pointer, qsizetype unit) const;
    void addAt(qsizetype offset, const QString &server, const QString &message) const;
    void add(const std::string &pointer, const QString &server, const QString &message) const;
    int lineOf(const std::string &pointer) const;
};

// Parses `text` into `root`; false (with an error) on any syntax problem.
bool parseJson(const QByteArray &text, const Context &ctx, json &root);

// nlohmann_json kept the last of each duplicate key; the user may have meant the first. Returns
// the entries (servers) with a duplicate key.
// `entryFormat` ("agent '%1': %2"): how a problem inside an entry is worded; empty: a server's.
QSet<QString> reportDuplicates(const Context &ctx, const QString &entryFormat = QString());

// A JSON value's type as messages name it ("an object", "a list", ...).
QString jsonTypeName(const json &value);

// Checks one server's settings and builds its ServerConfig. Every problem is reported (not
// only the first), with the field named, so one `config check` shows them all. std::nullopt
// when the server has config errors. importConfig() passes no variables: there only the
// references' syntax counts.
std::optional<ServerConfig> checkServer(const Context &ctx, const std::string &nameUtf8,
                                        const json &value, const std::string &pointer,
                                        const QProcessEnvironment &env, const ServerCheck &check);

} // namespace Mcp::ConfigLoader::Internal
