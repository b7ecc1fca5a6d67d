#pragma once

#include "jsonrpc.h"

namespace Mcp {

// A member of a JSON object, or null when `object` is not one or has no such member: reads
// what a server sent without throwing and without copying.
inline const Json &jsonMember(const Json &object, const char *key)
{
    static const Json null;
    if (!object.is_object())
        return null;
    const auto it = object.find(key);
    return it == object.end() ? null : *it;
}

} // namespace Mcp
