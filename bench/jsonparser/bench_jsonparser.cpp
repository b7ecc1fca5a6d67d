// Microbenchmark: Mcp::parseJson against nlohmann::json::parse on (a) a 141-byte JSON-RPC
// response and (b) a large tools/list line, plus the time to destroy each DOM. Standalone:
//
//   g++ -std=c++20 -O2 -DNDEBUG -Isrc bench/jsonparser/bench_jsonparser.cpp src/mcp/wire/jsonparser.cpp
//       -o /tmp/bench_jsonparser      (one line; run from the repository root)
//   /tmp/bench_jsonparser [/tmp/list10k.json]
//
// Create the large input with (see bench/server in the shared tree):
//   printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":
//   "2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}'
//   '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}' | node
//   /work/shared/bench/server/echo-server.mjs --tools 10000 | tail -1 > /tmp/list10k.json
// (the first printf argument is one line). Reports the median of several runs.

#include <mcp/wire/jsonparser.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using Mcp::Json;

Json parseNlohmann(const std::string &text)
{
    return Json::parse(text.begin(), text.end(), nullptr, false);
}

Json parseOurs(const std::string &text)
{
    return Mcp::parseJson(text);
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

// Small input: ns per parse (including destruction, as in the client), and separately ns to
// destroy, measured over batches so the clock's resolution does not matter.
template<typename Parse>
void benchSmall(const char *name, const std::string &text, Parse parse)
{
    constexpr int batch = 20000;
    std::vector<double> parseNs, destroyNs;
    std::vector<Json> keep(batch);
    for (int round = 0; round < 15; ++round) {
        auto t0 = Clock::now();
        for (int i = 0; i < batch; ++i)
            keep[i] = parse(text);
        auto t1 = Clock::now();
        for (int i = 0; i < batch; ++i)
            keep[i] = Json();
        auto t2 = Clock::now();
        parseNs.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / batch);
        destroyNs.push_back(std::chrono::duration<double, std::nano>(t2 - t1).count() / batch);
    }
    std::printf("  %-10s parse %8.1f ns/op   destroy %8.1f ns/op\n", name, median(parseNs),
                median(destroyNs));
}

template<typename Parse>
void benchLarge(const char *name, const std::string &text, Parse parse)
{
    std::vector<double> parseMs, destroyMs;
    for (int round = 0; round < 11; ++round) {
        auto t0 = Clock::now();
        Json *value = new Json(parse(text));
        auto t1 = Clock::now();
        delete value;
        auto t2 = Clock::now();
        parseMs.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        destroyMs.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
    }
    const double mb = static_cast<double>(text.size()) / 1e6;
    std::printf("  %-10s parse %8.2f ms (%6.0f MB/s)   destroy %8.2f ms\n", name, median(parseMs),
                mb / (median(parseMs) / 1e3), median(destroyMs));
}

} // namespace

int main(int argc, char **argv)
{
    const std::string small = R"({"jsonrpc":"2.0","id":12345,"result":{"content":[{"type":"text",)"
                              R"("text":")"
                              + std::string(64, 'x') + R"("}]}})";
    if (Mcp::parseJson(small) != parseNlohmann(small))
        return 1;
    std::printf("(a) %zu-byte response\n", small.size());
    benchSmall("nlohmann", small, parseNlohmann);
    benchSmall("parseJson", small, parseOurs);

    const char *path = argc > 1 ? argv[1] : "/tmp/list10k.json";
    std::ifstream in(path, std::ios::binary);
    std::string large{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    while (!large.empty() && (large.back() == '\n' || large.back() == '\r'))
        large.pop_back();
    if (large.empty()) {
        std::printf("(b) skipped: cannot read %s\n", path);
        return 0;
    }
    if (Mcp::parseJson(large) != parseNlohmann(large))
        return 1;
    std::printf("(b) %s, %zu bytes\n", path, large.size());
    benchLarge("nlohmann", large, parseNlohmann);
    benchLarge("parseJson", large, parseOurs);
    return 0;
}
