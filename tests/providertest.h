#pragma once

#include <engine/llm.h>

#include <QStringList>
#include <QTest>

#include <memory>
#include <optional>

// What one completion call reported, for the provider tests: the text deltas, and the result
// or the error (finals counts onDone + onError: exactly one is the contract).
struct CompletionOutcome
{
    QStringList deltas;
    std::optional<Engine::CompletionResult> result;
    std::optional<Engine::CompletionError> error;
    int finals = 0;
};

inline Engine::LlmProvider::Callbacks recordInto(const std::shared_ptr<CompletionOutcome> &o)
{
    Engine::LlmProvider::Callbacks c;
    c.onText = [o](const QString &d) {
        o->deltas << d;
    };
    c.onDone = [o](Engine::CompletionResult r) {
        o->result = std::move(r);
        ++o->finals;
    };
    c.onError = [o](Engine::CompletionError e) {
        o->error = std::move(e);
        ++o->finals;
    };
    return c;
}

// Starts one completion and waits (event loop running) until it has ended; the caller checks
// finals == 1.
inline std::shared_ptr<CompletionOutcome> completeOnce(Engine::LlmProvider &provider,
                                                       const Engine::CompletionRequest &request)
{
    auto o = std::make_shared<CompletionOutcome>();
    provider.complete(request, recordInto(o));
    (void)QTest::qWaitFor([&] { return o->finals > 0; }, 10000);
    return o;
}
