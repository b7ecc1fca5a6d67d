#pragma once

#include <QProcessEnvironment>

namespace Engine {

// The environment this process started with, and the provider keys kept out of everyone
// else's reach. A child process gets ChildEnvironment's allow-list of the live environment,
// never the keys; but a child that reads /proc/<our pid>/environ sees what we started with,
// and a server given the whole environment ("inheritEnv") sees what is still set. So each
// face's main() calls hideSecrets() first: the keys are read once into original(), blanked in
// the process's own environment block, unset, and the process is made non-dumpable.
namespace ProcessEnvironment {

// What the faces read settings and `${VAR}` values from: the environment before
// hideSecrets(), keys included (the live one when it was never called).
QProcessEnvironment original();

// Keeps original(), then removes the provider keys (providerKeyVariables()) from the process
// environment, overwriting their values where /proc/<pid>/environ reads them, and on Linux
// sets PR_SET_DUMPABLE to 0 (only root may read that file or attach a debugger). Call it
// before any thread starts.
void hideSecrets();

} // namespace ProcessEnvironment

} // namespace Engine
