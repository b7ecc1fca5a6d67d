// libFuzzer target for Mcp::ConfigLoader: parse() and importConfig() of every kind on arbitrary
// bytes. Besides "no crash, no sanitizer report" it checks the loader's promises, aborting when
// one is broken so that libFuzzer keeps the input:
//  - errors point inside the text and carry a message;
//  - servers are sorted, named, without ServerConfig errors of the config kind, serializable;
//  - whatever importConfig() produces is a document parse() accepts without errors.

#include <mcp/config/config.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {

[[noreturn]] void fail(const char *what, const QString &detail)
{
    std::fprintf(stderr, "fuzz_config: %s: %s\n", what, qPrintable(detail));
    std::abort();
}

const QProcessEnvironment &environment()
{
    // A variable whose value looks like a reference checks that expansion is not recursive.
    static const QProcessEnvironment env = [] {
        QProcessEnvironment e;
        e.insert(QStringLiteral("HOME"), QStringLiteral("/home/fuzz"));
        e.insert(QStringLiteral("EMPTY"), QString());
        e.insert(QStringLiteral("TOKEN"), QStringLiteral("${HOME}"));
        return e;
    }();
    return env;
}

void checkErrors(const QList<Mcp::ConfigError> &errors, int lines)
{
    for (const Mcp::ConfigError &error : errors) {
        if (error.message.isEmpty())
            fail("error without a message", error.toString());
        if (error.line < 0 || error.line > lines || error.column < 0
            || (error.line > 0 && error.column == 0))
            fail("error position outside the text", error.toString());
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace Mcp;
    // No copy: reads past the fuzzer's buffer are then caught by AddressSanitizer.
    const QByteArray text
            = QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
    const int lines = int(text.count('\n')) + 1;

    const McpConfig config = ConfigLoader::parse(text, QStringLiteral("fuzz.json"), environment());
    checkErrors(config.errors, lines);
    for (qsizetype i = 0; i < config.servers.size(); ++i) {
        const ServerConfig &server = config.servers.at(i);
        if (server.name.isEmpty())
            fail("server without a name", server.name);
        if (i > 0 && config.servers.at(i - 1).name > server.name)
            fail("servers not sorted", server.name);
        (void)server.toJson().dump(); // throws (and aborts) on anything but valid UTF-8
    }

    for (const auto kind : {ConfigLoader::ImportKind::ClaudeDesktop,
                            ConfigLoader::ImportKind::VsCode, ConfigLoader::ImportKind::Cursor}) {
        const ConfigLoader::ImportResult imported
                = ConfigLoader::importConfig(kind, text, QStringLiteral("fuzz.json"));
        checkErrors(imported.errors, lines);
        const McpConfig reparsed = ConfigLoader::parse(imported.text, QStringLiteral("out.json"),
                                                       QProcessEnvironment());
        if (!reparsed.errors.isEmpty())
            fail("import produced an invalid .mcp.json", reparsed.errors.first().toString());
    }
    return 0;
}
