#pragma once

#include <cstdlib>

// A fuzz target's invariant: a broken one aborts, which libFuzzer reports with the input.
inline void check(bool condition)
{
    if (!condition)
        std::abort();
}
