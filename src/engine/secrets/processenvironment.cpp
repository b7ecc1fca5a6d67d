#include "processenvironment.h"

#include <engine/llm/providerconfig.h>

#include <optional>

#include <cstdlib>
#include <cstring>

#ifdef Q_OS_UNIX
#include <unistd.h>
extern char **environ;
#endif
#ifdef Q_OS_LINUX
#include <sys/prctl.h>
#endif

#if defined(__SANITIZE_ADDRESS__)
#define SWITCHBOARD_SANITIZED
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SWITCHBOARD_SANITIZED
#endif
#endif

namespace Engine::ProcessEnvironment {

namespace {
std::optional<QProcessEnvironment> &snapshot()
{
    static std::optional<QProcessEnvironment> environment;
    return environment;
}
} // namespace

QProcessEnvironment original()
{
    return snapshot().value_or(QProcessEnvironment::systemEnvironment());
}

void hideSecrets()
{
    if (!snapshot())
        snapshot() = QProcessEnvironment::systemEnvironment();
#ifdef Q_OS_UNIX
    // /proc/<pid>/environ shows the block the kernel put on our stack at exec, whatever
    // unsetenv() does to the list: the values are overwritten there first.
    for (const QString &name : providerKeyVariables()) {
        const QByteArray prefix = name.toLatin1() + '=';
        for (char **entry = environ; entry && *entry; ++entry) {
            if (std::strncmp(*entry, prefix.constData(), size_t(prefix.size())) == 0) {
                char *value = *entry + prefix.size();
                std::memset(value, 0, std::strlen(value));
            }
        }
    }
#endif
    for (const QString &name : providerKeyVariables())
        qunsetenv(name.toLatin1().constData());
#if defined(Q_OS_LINUX) && !defined(SWITCHBOARD_SANITIZED)
    // (Not under the sanitizers: LeakSanitizer stops the world with ptrace, which a
    // non-dumpable process refuses to anyone but root.)
    ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
#endif
}

} // namespace Engine::ProcessEnvironment
