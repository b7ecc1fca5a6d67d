#pragma once

#include <mcp/process/sandbox.h>

#include <QString>
#include <QTest>

#include <memory>
#include <optional>

// Whether the sandbox can be tested on this machine, by the product's own probe
// (Mcp::Sandbox::probe: bwrap installed *and* able to make its namespaces, which it cannot in
// most containers or in a chroot whose / is not a mount point). Tests that need a working
// sandbox start with SKIP_UNLESS_SANDBOX(); tests of what the product says when the sandbox
// cannot run do not, and still run everywhere.
namespace SandboxTest {

// Empty when the sandbox works here, else the probe's reason (what the user is told too).
inline QString unavailableReason()
{
    static std::optional<QString> cached;
    if (!cached) {
        // Shared with the callback, which the probe runs exactly once (it has its own
        // time limit), even should this wait give up first.
        auto answer = std::make_shared<std::optional<QString>>();
        Mcp::Sandbox::probe(
                QString::fromLatin1(Mcp::Sandbox::DefaultProgram), nullptr,
                [answer](bool works, const QString &why) { *answer = works ? QString() : why; });
        if (!QTest::qWaitFor([answer] { return answer->has_value(); }, 30000))
            return QStringLiteral("the sandbox probe did not answer within 30 s");
        cached = **answer;
    }
    return *cached;
}

// SWITCHBOARD_REQUIRE_SANDBOX=1 (set by .ci/run): a machine that cannot run the sandbox fails
// the sandbox tests instead of skipping them.
inline bool required()
{
    return qEnvironmentVariable("SWITCHBOARD_REQUIRE_SANDBOX") == QLatin1String("1");
}

} // namespace SandboxTest

// In a test function (a macro, so that the skip ends the test function itself): skips it with
// one line saying why the sandbox cannot run here, or fails it when SWITCHBOARD_REQUIRE_SANDBOX
// is 1.
#define SKIP_UNLESS_SANDBOX()                                                                      \
    do {                                                                                           \
        const QString sandboxUnavailable = SandboxTest::unavailableReason();                       \
        if (!sandboxUnavailable.isEmpty()) {                                                       \
            if (SandboxTest::required())                                                           \
                QFAIL(qPrintable(QStringLiteral("SWITCHBOARD_REQUIRE_SANDBOX=1, but the sandbox "  \
                                                "cannot run on this machine: ")                    \
                                 + sandboxUnavailable));                                           \
            QSKIP(qPrintable(QStringLiteral("the sandbox cannot run on this machine: ")            \
                             + sandboxUnavailable));                                               \
        }                                                                                          \
    } while (false)
