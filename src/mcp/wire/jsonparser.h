#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>

// A faster drop-in for nlohmann::json::parse(first, last, nullptr, false): it builds the same
// nlohmann::json values (one JSON library per layer: the protocol code uses nlohmann's type
// throughout) but scans the input in place instead of copying every byte through nlohmann's token
// buffer, and never touches the locale.
namespace Mcp {

using Json = nlohmann::json;

// Deeper documents are rejected rather than parsed; this is the only input on which parseJson
// and nlohmann differ (nlohmann has no limit).
inline constexpr int MaxJsonDepth = 1000;

struct JsonParseError
{
    std::size_t offset = 0; // byte offset of the problem; text.size() for a premature end
    std::string message;
};

// Parses one complete JSON text (RFC 8259) exactly as nlohmann::json::parse(first, last,
// nullptr, false) does, including its quirks:
//  - a UTF-8 byte order mark at the very start is skipped;
//  - a NUL byte after the value ends the input (whatever follows it is ignored);
//  - non-negative integers become number_unsigned, negative ones number_integer ("-0" is
//    number_integer 0); integers outside [INT64_MIN, UINT64_MAX] become number_float;
//  - a number whose double overflows (1e309) is an error; underflow yields (-)0.0;
//  - the last of duplicate object keys wins.
// Returns a discarded value (Json(Json::value_t::discarded)) on error and fills *error if
// given. Never throws (except std::bad_alloc), never recurses, never reads past `text`.
Json parseJson(std::string_view text, JsonParseError *error = nullptr);

} // namespace Mcp
