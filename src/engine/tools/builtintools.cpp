#include "builtintools.h"

#include "builtintool.h"

namespace Engine {

std::vector<std::shared_ptr<Tool>> createBuiltinTools(std::shared_ptr<Workspace> workspace,
                                                      BuiltinToolsOptions options)
{
    using namespace Builtin;
    return {makeReadFileTool(workspace),    makeListDirTool(workspace),
            makeSearchFilesTool(workspace), makeWriteFileTool(workspace),
            makeEditFileTool(workspace),    makeBashTool(workspace, std::move(options))};
}

} // namespace Engine
