#pragma once

#include <mcp/wire/jsonrpc.h>

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

// The skills extension (SEP-2640): a server lists skills (skills/list) whose files are
// skill:// resources. A skill's files are read only when it is used, and each is verified
// against its listing before anything of it is used: listed, its size, its SHA-256 digest,
// and for the SKILL.md its YAML frontmatter field by field.
namespace Mcp::Skills {

inline constexpr const char *Extension = "io.modelcontextprotocol/skills";
inline constexpr int MaxFilesPerSkill = 512;
inline constexpr qint64 MaxSkillBytes = 16 * 1024 * 1024;

// Whether the server declared the extension (capabilities.extensions).
bool offered(const Json &serverCapabilities);

struct File
{
    QString uri;
    QString digest; // "sha256:" + 64 lowercase hex digits
    qint64 size = -1;
};

struct Entry
{
    QString uri;      // its SKILL.md
    Json frontmatter; // an object, as listed
    std::vector<File> files;
    bool dynamic = false; // "resources": "dynamic": nothing to verify against (never loaded)

    QString name() const;
    QString description() const;
    const File *file(const QString &uri) const;
};

// The entries of a skills/list result (or the one of skills/get's {skill}); an entry that is
// not well formed is left out and why goes to `problems`.
std::vector<Entry> readList(const Json &result, QStringList *problems = nullptr);

// A SKILL.md's frontmatter (between the leading "---" lines) as JSON: the YAML subset skills
// use (scalars, quoted or not; one level of nested mappings and "- " lists). std::nullopt,
// with why, when there is none or it is written in YAML this reader does not take (which
// then fails verification: what cannot be compared is not used).
std::optional<Json> parseFrontmatter(const QByteArray &text, QString *error);

// The bytes of a resources/read result's content for `uri` (text as UTF-8, a blob decoded).
std::optional<QByteArray> contentBytes(const Json &readResult, const QString &uri, QString *error);

// Empty when `bytes`, read for `uri`, may be used as part of `entry`; else why not.
QString verify(const Entry &entry, const QString &uri, const QByteArray &bytes);

} // namespace Mcp::Skills
