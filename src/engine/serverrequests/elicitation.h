#pragma once

#include <mcp/wire/jsonrpc.h>

#include <QString>

#include <optional>

// A server asking the user for something (elicitation/create): what a policy answers when no
// one is asked (the CLI without a terminal, `--elicit`), and the checks any answer needs.
namespace Engine::Elicitation {

using Json = Mcp::Json;

enum class Policy {
    Decline,        // the user said no
    Cancel,         // the user dismissed it
    AcceptDefaults, // accept a form whose every required field has a default; else decline
};

// What a person is asked at most: a form of this many fields, a URL this long. The server's
// message is shown up to MaxMessageChars (messageOf).
inline constexpr int MaxFields = 100;
inline constexpr int MaxUrlChars = 8192;
inline constexpr int MaxMessageChars = 4000;

// Why `params` is not asked of anyone (too many fields, a URL too long), or "".
std::string oversize(const Json &params);
// The request's message, cut to MaxMessageChars (and marked so).
QString messageOf(const Json &params);

// "decline", "cancel", "accept-defaults"; nullopt for anything else.
std::optional<Policy> policyFromName(const QString &name);

// The form's values from its schema's defaults (flat: strings, numbers, booleans, enums), or
// nullopt and the first required field without one in *missing.
std::optional<Json> defaults(const Json &requestedSchema, QString *missing);

// The answer `policy` gives to `params`, and in *note what happened, for a person. A URL
// request is never accepted without a person (nothing is opened).
Mcp::Response answer(const Json &params, Policy policy, QString *note);

} // namespace Engine::Elicitation
