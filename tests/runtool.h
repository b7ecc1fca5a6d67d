#pragma once

// Runs one tool call through a ToolRunner and waits for its answer (at most 5 s).
#include <engine/approval/toolrunner.h>

#include <QTest>

#include <optional>

inline std::optional<Engine::ToolRunResult>
runAndWait(Engine::ToolRunner &runner, const QString &name,
           const QString &conversation = QStringLiteral("c1"),
           const Engine::Json &arguments = Engine::Json::object())
{
    std::optional<Engine::ToolRunResult> result;
    Engine::ToolCallRequest call;
    call.id = QStringLiteral("1");
    call.name = name;
    call.arguments = arguments;
    Engine::ToolRunner::Callbacks callbacks;
    callbacks.onDone = [&](Engine::ToolRunResult r) {
        result = std::move(r);
    };
    runner.run(call, conversation, nullptr, std::move(callbacks));
    (void)QTest::qWaitFor([&] { return result.has_value(); }, 5000);
    return result;
}
