#pragma once

// Shared by the window benchmarks (bench/launch, bench/conversations).

#include <QProcessEnvironment>
#include <QString>

#include <algorithm>
#include <vector>

namespace Bench {

// The window's environment for a run: its settings and data under `home`, and no provider
// key (so no keychain or network is touched).
inline QProcessEnvironment windowEnvironment(const QString &home)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), home);
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home);
    env.remove(QStringLiteral("OPENAI_API_KEY"));
    env.remove(QStringLiteral("OPENAI_BASE_URL"));
    env.remove(QStringLiteral("ANTHROPIC_API_KEY"));
    return env;
}

inline double median(std::vector<double> values)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

} // namespace Bench
