#include "jsonrpc.h"

#include <emmintrin.h>

#include <memory>

namespace Mcp {

RpcError RpcError::fromJson(const Json &error)
{
    RpcError e;
    if (!error.is_object()) {
        e.message = "malformed error object: " + error.dump();
        return e;
    }
    if (auto it = error.find("code"); it != error.end() && it->is_number_integer())
        e.code = it->get<int>();
    if (auto it = error.find("message"); it != error.end() && it->is_string())
        e.message = it->get<std::string>();
    else
        e.message = "error without message";
    if (auto it = error.find("data"); it != error.end())
        e.data = *it;
    return e;
}

Json RpcError::toJson() const
{
    Json j{{"code", code}, {"message", message}};
    if (!data.is_null())
        j["data"] = data;
    return j;
}

QString RpcError::toString() const
{
    return QStringLiteral("%1 (code %2)").arg(QString::fromStdString(message)).arg(code);
}

MessageKind classify(const Json &message)
{
    if (!message.is_object())
        return MessageKind::Invalid;
    const auto method = message.find("method");
    const auto id = message.find("id");
    const bool hasId = id != message.end();
    if (method != message.end()) {
        if (!method->is_string())
            return MessageKind::Invalid;
        if (!hasId)
            return MessageKind::Notification;
        return (id->is_string() || id->is_number()) ? MessageKind::Request : MessageKind::Invalid;
    }
    if (hasId && (message.contains("result") || message.contains("error")))
        return MessageKind::Response;
    return MessageKind::Invalid;
}

namespace {
// Written as it is between quotes: no quote, backslash, control character or byte of a
// multi-byte (or invalid) UTF-8 sequence. Sixteen bytes at a time; a signed compare makes the
// bytes from 0x80 up "less than a space".
bool isPlain(std::string_view text)
{
    const char *p = text.data();
    const char *const end = p + text.size();
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i space = _mm_set1_epi8(0x20);
    for (; end - p >= 16; p += 16) {
        const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
        const __m128i special = _mm_or_si128(
                _mm_or_si128(_mm_cmpeq_epi8(chunk, quote), _mm_cmpeq_epi8(chunk, backslash)),
                _mm_cmplt_epi8(chunk, space));
        if (_mm_movemask_epi8(special) != 0)
            return false;
    }
    for (; p < end; ++p) {
        if (static_cast<signed char>(*p) < 0x20 || *p == '"' || *p == '\\')
            return false;
    }
    return true;
}

// Counts what nlohmann's serializer writes instead of keeping it.
class CountingOutput : public nlohmann::detail::output_adapter_protocol<char>
{
public:
    void write_character(char) override { ++bytes; }
    void write_characters(const char *, std::size_t length) override { bytes += length; }

    std::size_t bytes = 0;
};

// dumpedSize()'s walk: one serializer for every value that is not counted by hand.
class SizeCounter
{
public:
    std::size_t size(const Json &value)
    {
        switch (value.type()) {
        case Json::value_t::object: {
            const auto &object = value.get_ref<const Json::object_t &>();
            std::size_t bytes = object.empty() ? 2 : object.size() + 1; // braces, commas
            for (const auto &[key, member] : object) // the key, quoted; a colon; the value
                bytes += (isPlain(key) ? key.size() + 2 : serialized(Json(key))) + 1 + size(member);
            return bytes;
        }
        case Json::value_t::array: {
            const auto &array = value.get_ref<const Json::array_t &>();
            std::size_t bytes = array.empty() ? 2 : array.size() + 1; // brackets, commas
            for (const Json &element : array)
                bytes += size(element);
            return bytes;
        }
        case Json::value_t::string: {
            const auto &text = value.get_ref<const std::string &>();
            return isPlain(text) ? text.size() + 2 : serialized(value);
        }
        default: // numbers, booleans, null: a few bytes, written as dump() writes them
            return serialized(value);
        }
    }

private:
    std::size_t serialized(const Json &value)
    {
        const std::size_t before = m_output->bytes;
        m_serializer.dump(value, false, false, 0);
        return m_output->bytes - before;
    }

    std::shared_ptr<CountingOutput> m_output = std::make_shared<CountingOutput>();
    nlohmann::detail::serializer<Json> m_serializer{m_output, ' ', Json::error_handler_t::replace};
};
} // namespace

// Hand-assembled envelopes: the hot path of every call, and cheaper than building a
// temporary object only to dump it again.
void appendJsonString(std::string &out, std::string_view text)
{
    // Names are plain ASCII in practice; anything else goes through the serializer.
    if (!isPlain(text)) {
        out += Json(text).dump(-1, ' ', false, Json::error_handler_t::replace);
        return;
    }
    out += '"';
    out += text;
    out += '"';
}

std::size_t dumpedSize(const Json &value)
{
    return SizeCounter().size(value);
}

std::string serializeRequest(std::int64_t id, std::string_view method, std::string_view paramsJson)
{
    std::string out;
    out.reserve(48 + method.size() + paramsJson.size());
    out += R"({"jsonrpc":"2.0","id":)";
    out += std::to_string(id);
    out += R"(,"method":)";
    appendJsonString(out, method);
    if (!paramsJson.empty()) {
        out += R"(,"params":)";
        out += paramsJson;
    }
    out += '}';
    return out;
}

std::string serializeNotification(std::string_view method, const Json &params)
{
    std::string out = R"({"jsonrpc":"2.0","method":)";
    appendJsonString(out, method);
    if (!params.is_null()) {
        out += R"(,"params":)";
        out += params.dump(-1, ' ', false, Json::error_handler_t::replace);
    }
    out += '}';
    return out;
}

std::string serializeResult(const Json &id, const Json &result)
{
    return Json{{"jsonrpc", "2.0"}, {"id", id}, {"result", result}}.dump(
            -1, ' ', false, Json::error_handler_t::replace);
}

std::string serializeError(const Json &id, const RpcError &error)
{
    return Json{{"jsonrpc", "2.0"}, {"id", id}, {"error", error.toJson()}}.dump(
            -1, ' ', false, Json::error_handler_t::replace);
}

std::optional<std::int64_t> integerId(const Json &id)
{
    if (id.is_number_integer())
        return id.get<std::int64_t>();
    if (id.is_number_unsigned()) {
        const auto v = id.get<std::uint64_t>();
        if (v <= static_cast<std::uint64_t>(INT64_MAX))
            return static_cast<std::int64_t>(v);
    }
    return std::nullopt;
}

QString stringMember(const Json &object, const char *key)
{
    if (!object.is_object())
        return {};
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                                 : QString();
}

} // namespace Mcp
