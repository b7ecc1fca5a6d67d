#pragma once

#include <memory>

namespace Mcp {

// An OpenSSL object owned as a std::unique_ptr, freed by its own function:
//   using Bio = OpenSslHandle<BIO, BIO_free_all>;
template<typename T, void (*Free)(T *)>
struct OpenSslDeleter
{
    void operator()(T *p) const { Free(p); }
};
template<typename T, void (*Free)(T *)>
using OpenSslHandle = std::unique_ptr<T, OpenSslDeleter<T, Free>>;

} // namespace Mcp
