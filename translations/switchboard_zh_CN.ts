<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Engine::Agent</name>
    <message>
        <location filename="../src/engine/agent.cpp" line="+47"/>
        <source>Could not save the conversation: %1</source>
        <translation>无法保存对话：%1</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Stopped after %1 model turns without a final answer (the turn limit).</source>
        <translation>模型已进行 %1 轮仍未给出最终回答，已停止（达到轮数上限）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>You are Switchboard, an assistant with tools. The workspace is %1. Use the tools when they help; tool results may contain errors or denials by the user: take them into account.</source>
        <translation>你是 Switchboard，一个可以使用工具的助手。工作区为 %1。在有帮助时使用工具；工具结果可能包含错误或用户的拒绝，请将其考虑在内。</translation>
    </message>
    <message>
        <location line="+121"/>
        <source>The user stopped the turn before this call finished.</source>
        <translation>此调用完成前，用户已停止本轮。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
</context>
<context>
    <name>Engine::AnthropicProvider</name>
    <message>
        <location filename="../src/engine/anthropicprovider.cpp" line="+185"/>
        <source>Anthropic %1 at %2</source>
        <translation>Anthropic %1（%2）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Anthropic API</source>
        <translation>Anthropic API</translation>
    </message>
</context>
<context>
    <name>Engine::BuiltinTools</name>
    <message>
        <location filename="../src/engine/builtintools.cpp" line="+58"/>
        <source>&apos;%1&apos; is required (a string)</source>
        <translation>缺少必需参数“%1”（字符串）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&apos;%1&apos; must be a string</source>
        <translation>“%1”必须是字符串</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>&apos;%1&apos; must be an integer from %2 to %3</source>
        <translation>“%1”必须是 %2 到 %3 之间的整数</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>&apos;%1&apos; must be true or false</source>
        <translation>“%1”必须是 true 或 false</translation>
    </message>
    <message numerus="yes">
        <location line="+51"/>
        <source> … [line cut: %n more characters]</source>
        <translation>
            <numerusform> … [行已截断：还有 %n 个字符]</numerusform>
        </translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&apos;%1&apos; is a directory; use list_dir to see its entries</source>
        <translation>“%1”是目录；请用 list_dir 查看其中的条目</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&apos;%1&apos; is not a regular file</source>
        <translation>“%1”不是普通文件</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&apos;%1&apos; is %2, larger than the %3 this tool reads; use search_files to find the lines you need, or bash (head, sed -n) to read a part</source>
        <translation>“%1”大小为 %2，超过此工具可读取的 %3；请用 search_files 查找所需的行，或用 bash（head、sed -n）读取其中一部分</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>cannot open &apos;%1&apos;: %2</source>
        <translation>无法打开“%1”：%2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&apos;%1&apos; is larger than the %2 this tool reads</source>
        <translation>“%1”超过此工具可读取的 %2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&apos;%1&apos; is a binary file (it contains NUL bytes); this tool reads text only</source>
        <translation>“%1”是二进制文件（包含 NUL 字节）；此工具只读取文本</translation>
    </message>
    <message>
        <location line="+16"/>
        <location line="+4"/>
        <location line="+5"/>
        <source>cannot write &apos;%1&apos;: %2</source>
        <translation>无法写入“%1”：%2</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>%1 failed: %2</source>
        <translation>%1 失败：%2</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Read a text file in the workspace. Each output line is the line number, a tab, then the line as it is in the file (the number and tab are not part of the file: leave them out when you quote text for edit_file). Reads up to 2000 lines from `offset` (1-based, default 1); when more remain, the output ends with the offset to continue from. Binary files and files over 10 MiB are refused. Paths are relative to the workspace root.</source>
        <translation>读取工作区中的文本文件。每行输出依次为行号、一个制表符，以及文件中该行的原文（行号和制表符不属于文件内容：为 edit_file 引用文本时请去掉它们）。从 `offset`（从 1 开始，默认为 1）起最多读取 2000 行；若还有剩余，输出末尾会给出继续读取的 offset。拒绝读取二进制文件和超过 10 MiB 的文件。路径相对于工作区根目录。</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>(%1 is empty)</source>
        <translation>（%1 为空）</translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>offset %1 is past the end of &apos;%2&apos; (%n lines)</source>
        <translation>
            <numerusform>offset %1 超出了“%2”的末尾（共 %n 行）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+19"/>
        <source>[lines %1-%2 of %3; call read_file with offset=%4 to read more]</source>
        <translation>[第 %1-%2 行，共 %3 行；使用 offset=%4 调用 read_file 继续读取]</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>List a directory in the workspace (not recursive). One entry per line: directories end with &apos;/&apos;, files show their size in bytes, symbolic links show their target. Directories come first, then files, each sorted by name; hidden entries are included. At most 1000 entries. Use search_files to find files by pattern across directories.</source>
        <translation>列出工作区中的目录（不递归）。每行一个条目：目录以“/”结尾，文件显示其字节大小，符号链接显示其目标。先列目录、后列文件，各自按名称排序；包含隐藏条目。最多 1000 个条目。要跨目录按模式查找文件，请使用 search_files。</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>&apos;%1&apos; is a file, not a directory; use read_file to read it</source>
        <translation>“%1”是文件而不是目录；请用 read_file 读取</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>cannot read the directory &apos;%1&apos;</source>
        <translation>无法读取目录“%1”</translation>
    </message>
    <message numerus="yes">
        <location line="+34"/>
        <source>%1  (%n bytes)</source>
        <translation>
            <numerusform>%1  （%n 字节）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+8"/>
        <source>%1 (%n entries)</source>
        <translation>
            <numerusform>%1（%n 个条目）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>[… %n more entries not shown]</source>
        <translation>
            <numerusform>[… 另有 %n 个条目未显示]</numerusform>
        </translation>
    </message>
    <message>
        <location line="+117"/>
        <source>search_files was cancelled</source>
        <translation>search_files 已取消</translation>
    </message>
    <message numerus="yes">
        <location line="+109"/>
        <source>[stopped at %n results; narrow the pattern or the query to see the rest]</source>
        <translation>
            <numerusform>[已在 %n 条结果处停止；请缩小模式或查询范围以查看其余结果]</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>[stopped after visiting %n files; narrow the pattern]</source>
        <translation>
            <numerusform>[已访问 %n 个文件后停止；请缩小模式范围]</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>[%n binary files skipped]</source>
        <translation>
            <numerusform>[已跳过 %n 个二进制文件]</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>[%n files over %1 skipped]</source>
        <translation>
            <numerusform>[已跳过 %n 个超过 %1 的文件]</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No files match &apos;%1&apos;.</source>
        <translation>没有与“%1”匹配的文件。</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>No lines match &apos;%1&apos; in the %n files matching &apos;%2&apos;.</source>
        <translation>
            <numerusform>在匹配“%2”的 %n 个文件中，没有与“%1”匹配的行。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Find files in the workspace by glob pattern, and optionally the lines in them that contain a text or match a regular expression. Patterns are relative to the workspace root: `*` and `?` match within one path segment, `**/` any number of directories, `{a,b}` alternatives, `[abc]` a character; a pattern without &apos;/&apos; (like `*.cpp`) matches file names at any depth. Without `query` the result is the matching paths, one per line; with it, each matching line as `path:line: text`. Skips .git, node_modules, build directories and binary files unless the pattern starts inside them. Results are capped (`max_results`, default 100).</source>
        <translation>按 glob 模式查找工作区中的文件，并可选地查找其中包含某段文本或匹配某个正则表达式的行。模式相对于工作区根目录：`*` 和 `?` 在单个路径段内匹配，`**/` 匹配任意层目录，`{a,b}` 表示多选一，`[abc]` 匹配一个字符；不含“/”的模式（如 `*.cpp`）匹配任意深度的文件名。不带 `query` 时，结果为匹配的路径，每行一个；带 `query` 时，每个匹配行的格式为 `path:line: text`。除非模式从其内部开始，否则跳过 .git、node_modules、构建目录和二进制文件。结果数量有上限（`max_results`，默认为 100）。</translation>
    </message>
    <message>
        <location line="+81"/>
        <source>&apos;query&apos; is not a valid regular expression: %1 (at offset %2)</source>
        <translation>“query”不是有效的正则表达式：%1（位于偏移 %2）</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>pattern &apos;%1&apos; is outside the workspace %2</source>
        <translation>模式“%1”位于工作区 %2 之外</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&apos;pattern&apos; is empty; use for example &quot;**/*&quot; for every file</source>
        <translation>“pattern”为空；如需匹配所有文件，可使用例如 &quot;**/*&quot;</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>&apos;%1&apos; is not a directory</source>
        <translation>“%1”不是目录</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>pattern &apos;%1&apos; is not a valid glob</source>
        <translation>模式“%1”不是有效的 glob</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Create a file in the workspace, or replace its whole content. Missing parent directories are created. The write is atomic: the file has either its old or its new content, never a part. Content is written as UTF-8, exactly as given. To change part of an existing file, prefer edit_file.</source>
        <translation>在工作区中创建文件，或替换其全部内容。会自动创建缺失的父目录。写入是原子的：文件要么保持旧内容，要么是新内容，绝不会只写入一部分。内容按给定的原样以 UTF-8 写入。要修改现有文件的一部分，请优先使用 edit_file。</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>&apos;%1&apos; is a directory</source>
        <translation>“%1”是目录</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>cannot create the directory &apos;%1&apos;</source>
        <translation>无法创建目录“%1”</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>%n bytes</source>
        <translation>
            <numerusform>%n 字节</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Replaced %1 (%2, %n lines).</source>
        <translation>
            <numerusform>已替换 %1（%2，%n 行）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Created %1 (%2, %n lines).</source>
        <translation>
            <numerusform>已创建 %1（%2，%n 行）。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Replace text in a file of the workspace. `old_string` must match the file exactly, including whitespace and indentation (without read_file&apos;s line-number prefixes), and must occur exactly once, unless `replace_all` is true; include enough surrounding lines to make it unique. The file is rewritten atomically. Read the file before editing it.</source>
        <translation>替换工作区中某个文件里的文本。`old_string` 必须与文件内容完全一致，包括空白和缩进（不含 read_file 的行号前缀），并且除非 `replace_all` 为 true，否则必须恰好出现一次；请包含足够多的上下文行以使其唯一。文件会被原子地重写。编辑前请先读取该文件。</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>&apos;old_string&apos; is empty; to create or replace a whole file use write_file</source>
        <translation>“old_string”为空；要创建或替换整个文件，请使用 write_file</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&apos;old_string&apos; and &apos;new_string&apos; are the same; nothing to change</source>
        <translation>“old_string”与“new_string”相同；无需修改</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>&apos;%1&apos; is not valid UTF-8; edit_file changes UTF-8 text only</source>
        <translation>“%1”不是有效的 UTF-8；edit_file 只能修改 UTF-8 文本</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>&apos;old_string&apos; was not found in &apos;%1&apos;; read the file again and copy the text exactly, including whitespace and indentation</source>
        <translation>在“%1”中未找到“old_string”；请重新读取文件，并准确复制文本，包括空白和缩进</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>&apos;old_string&apos; occurs %n times in &apos;%1&apos;; include more surrounding lines to make it unique, or set replace_all to true</source>
        <translation>
            <numerusform>“old_string”在“%1”中出现了 %n 次；请包含更多上下文行使其唯一，或将 replace_all 设为 true</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+13"/>
        <source>Edited %1: replaced %n occurrence(s), the first at line %2.</source>
        <translation>
            <numerusform>已编辑 %1：替换了 %n 处，第一处位于第 %2 行。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+21"/>
        <source>
… [cut: %n characters in the middle; the full output is in the UI] …
</source>
        <translation>
            <numerusform>
… [已截断：中间省略 %n 个字符；完整输出见界面] …
</numerusform>
        </translation>
    </message>
    <message>
        <location line="+98"/>
        <source>bash could not be started: %1</source>
        <translation>无法启动 bash：%1</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>[cancelled; the command and its child processes were killed]</source>
        <translation>[已取消；命令及其子进程已被终止]</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>[timed out after %1 ms; the command and its child processes were killed]</source>
        <translation>[%1 毫秒后超时；命令及其子进程已被终止]</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>[the command was killed by a signal]</source>
        <translation>[命令被信号终止]</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>[exit code %1]</source>
        <translation>[退出码 %1]</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>(no output)</source>
        <translation>（无输出）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>[%1 of output beyond the first %2 was dropped]
</source>
        <translation>[前 %2 之后的 %1 输出已丢弃]
</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Run a command with `bash -c` in the workspace root. The result is the combined stdout and stderr, then the exit code; a non-zero exit is reported as an error. Long output is shortened to its beginning and end. stdin is empty, so interactive commands fail instead of waiting. The command and everything it started are killed after `timeout_ms` (at most 600000, i.e. 10 minutes) and when it ends, so do not start servers in the background. Prefer read_file, list_dir, search_files and edit_file for files.</source>
        <translation>在工作区根目录中用 `bash -c` 运行命令。结果为合并后的 stdout 和 stderr，随后是退出码；非零退出码会作为错误报告。过长的输出只保留开头和结尾。stdin 为空，因此交互式命令会直接失败而不会等待。命令及其启动的所有进程会在 `timeout_ms`（最多 600000，即 10 分钟）后以及命令结束时被终止，因此不要在后台启动服务器。处理文件时请优先使用 read_file、list_dir、search_files 和 edit_file。</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>&apos;command&apos; is empty</source>
        <translation>“command”为空</translation>
    </message>
    <message>
        <location line="+2"/>
        <location filename="../src/engine/workspace.cpp" line="+68"/>
        <source>the workspace folder %1 does not exist</source>
        <translation>工作区文件夹 %1 不存在</translation>
    </message>
    <message>
        <location filename="../src/engine/workspace.cpp" line="+2"/>
        <source>the path is empty; give a path relative to the workspace %1</source>
        <translation>路径为空；请给出相对于工作区 %1 的路径</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the path contains a NUL character</source>
        <translation>路径包含 NUL 字符</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>path &apos;%1&apos; is outside the workspace %2</source>
        <translation>路径“%1”位于工作区 %2 之外</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>path &apos;%1&apos; goes through a symbolic link that cannot be resolved (%2)</source>
        <translation>路径“%1”经过一个无法解析的符号链接（%2）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&apos;%1&apos; does not exist in the workspace %2</source>
        <translation>工作区 %2 中不存在“%1”</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>cannot create &apos;%1&apos;: &apos;%2&apos; is not a directory</source>
        <translation>无法创建“%1”：“%2”不是目录</translation>
    </message>
</context>
<context>
    <name>Engine::ConversationStore</name>
    <message>
        <location filename="../src/engine/conversationstore.cpp" line="+126"/>
        <source>The conversation file %1 is damaged: its first line is not a conversation header.</source>
        <translation>对话文件 %1 已损坏：第一行不是对话头。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The conversation file %1 has format version %2, which this version of Switchboard cannot read.</source>
        <translation>对话文件 %1 的格式版本为 %2，此版本的 Switchboard 无法读取。</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>The conversation file %1 is empty.</source>
        <translation>对话文件 %1 为空。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Cannot read the conversation file %1: %2</source>
        <translation>无法读取对话文件 %1：%2</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+146"/>
        <source>There is no conversation file %1.</source>
        <translation>对话文件 %1 不存在。</translation>
    </message>
    <message>
        <location line="-139"/>
        <source>The conversation file %1 is larger than %2 MiB.</source>
        <translation>对话文件 %1 超过 %2 MiB。</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>&apos;%1&apos; is not a valid conversation id.</source>
        <translation>“%1”不是有效的对话 ID。</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>Cannot create the conversations folder %1.</source>
        <translation>无法创建对话文件夹 %1。</translation>
    </message>
    <message>
        <location line="+20"/>
        <location line="+46"/>
        <location line="+32"/>
        <source>Cannot write the conversation file %1: %2</source>
        <translation>无法写入对话文件 %1：%2</translation>
    </message>
    <message>
        <location line="-39"/>
        <source>Cannot open the conversation file %1 for writing.</source>
        <translation>无法打开对话文件 %1 进行写入。</translation>
    </message>
    <message>
        <location line="+84"/>
        <source>Cannot delete the conversation file %1: %2</source>
        <translation>无法删除对话文件 %1：%2</translation>
    </message>
</context>
<context>
    <name>Engine::McpTool</name>
    <message>
        <location filename="../src/engine/mcptooladapter.cpp" line="+77"/>
        <source>MCP server &apos;%1&apos; is not connected (%2).</source>
        <translation>MCP 服务器“%1”未连接（%2）。</translation>
    </message>
</context>
<context>
    <name>Engine::OpenAiProvider</name>
    <message>
        <location filename="../src/engine/openaiprovider.cpp" line="+172"/>
        <source>OpenAI-compatible %1 at %2</source>
        <translation>OpenAI 兼容 %1（%2）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>OpenAI-compatible server</source>
        <translation>OpenAI 兼容服务器</translation>
    </message>
</context>
<context>
    <name>Engine::ProviderConfig</name>
    <message>
        <location filename="../src/engine/providerconfig.cpp" line="+65"/>
        <source>no model provider is configured: set OPENAI_API_KEY (and optionally OPENAI_MODEL, or OPENAI_BASE_URL for an OpenAI-compatible server such as Ollama, vLLM or llama.cpp), or ANTHROPIC_API_KEY (and optionally ANTHROPIC_MODEL), or choose a provider in Settings</source>
        <translation>未配置模型提供方：请设置 OPENAI_API_KEY（可选 OPENAI_MODEL；若使用 Ollama、vLLM 或 llama.cpp 等 OpenAI 兼容服务器，可设置 OPENAI_BASE_URL），或设置 ANTHROPIC_API_KEY（可选 ANTHROPIC_MODEL），或在“设置”中选择提供方</translation>
    </message>
</context>
<context>
    <name>Engine::StreamingLlmProvider</name>
    <message>
        <location filename="../src/engine/streamingllmprovider.cpp" line="+96"/>
        <source>%1 at %2</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location line="+109"/>
        <source>%1 reported an error: %2</source>
        <translation>%1 报告错误：%2</translation>
    </message>
    <message>
        <location line="+13"/>
        <location line="+55"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="-25"/>
        <source>the response ended before the model finished</source>
        <translation>模型尚未完成，响应就已结束</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1: the stream broke: %2</source>
        <translation>%1：流中断：%2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 answered HTTP %2: %3. Check the API key (%4) and the base URL.</source>
        <translation>%1 返回 HTTP %2：%3。请检查 API key（%4）和 base URL。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>unauthorized</source>
        <translation>未授权</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 answered HTTP %2</source>
        <translation>%1 返回 HTTP %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 answered HTTP %2: %3</source>
        <translation>%1 返回 HTTP %2：%3</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>%1 sent nothing for %2 s; giving up</source>
        <translation>%1 已 %2 秒没有发送任何数据；放弃</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1 (after %2 attempts)</source>
        <translation>%1（已尝试 %2 次）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1; the server asked to retry after %2 s</source>
        <translation>%1；服务器要求 %2 秒后重试</translation>
    </message>
</context>
<context>
    <name>Engine::ToolOutput</name>
    <message numerus="yes">
        <location filename="../src/engine/tool.cpp" line="+43"/>
        <source>%n bytes base64</source>
        <translation>
            <numerusform>%n 字节 base64</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+57"/>
        <source>… [cut: %n more characters; the full output is in the UI]</source>
        <translation>
            <numerusform>… [已截断：还有 %n 个字符；完整输出见界面]</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Engine::ToolRegistry</name>
    <message>
        <location filename="../src/engine/toolregistry.cpp" line="+10"/>
        <source>a tool named &apos;%1&apos; already exists (from %2); the one from %3 is not registered</source>
        <translation>名为“%1”的工具已存在（来自 %2）；来自 %3 的同名工具未注册</translation>
    </message>
</context>
<context>
    <name>Engine::ToolRunner</name>
    <message>
        <location filename="../src/engine/toolrunner.cpp" line="+54"/>
        <source>There is no tool named &apos;%1&apos;. Available tools: %2</source>
        <translation>没有名为“%1”的工具。可用工具：%2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The arguments for &apos;%1&apos; are not valid JSON: %2</source>
        <translation>“%1”的参数不是有效的 JSON：%2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The arguments for &apos;%1&apos; must be a JSON object.</source>
        <translation>“%1”的参数必须是 JSON 对象。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Denied: nobody can approve &apos;%1&apos; here.</source>
        <translation>已拒绝：此处无人可以批准“%1”。</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>The user denied this call to %1.</source>
        <translation>用户拒绝了对 %1 的此次调用。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The user denied this call to %1: %2</source>
        <translation>用户拒绝了对 %1 的此次调用：%2</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Could not save &quot;always allow&quot; for %1: %2</source>
        <translation>无法为 %1 保存“始终允许”：%2</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>%1 timed out after %2 s and was cancelled.</source>
        <translation>%1 在 %2 秒后超时，已取消。</translation>
    </message>
    <message>
        <location line="+71"/>
        <source>The call was cancelled.</source>
        <translation>调用已取消。</translation>
    </message>
</context>
<context>
    <name>Mcp::Client</name>
    <message>
        <location filename="../src/mcp/client.cpp" line="+139"/>
        <source>initialize failed: %1</source>
        <translation>initialize 失败：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>initialize returned a result that is not an object</source>
        <translation>initialize 返回的结果不是对象</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>initialize result has no protocolVersion</source>
        <translation>initialize 结果中没有 protocolVersion</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>the server speaks MCP protocol version &apos;%1&apos;, which Switchboard does not support (supported: %2)</source>
        <translation>服务器使用的 MCP 协议版本为“%1”，Switchboard 不支持（支持的版本：%2）</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>tools/list failed: %1</source>
        <translation>tools/list 失败：%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>tools/list returned no tools array</source>
        <translation>tools/list 未返回 tools 数组</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>tools/list: entry %1 has no name; skipped</source>
        <translation>tools/list：第 %1 项没有名称；已跳过</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>tools/list keeps paging (cursor %1 after %2 pages); stopped</source>
        <translation>tools/list 一直在翻页（%2 页后游标为 %1）；已停止</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>tools/list: duplicate tool &apos;%1&apos;; kept the first</source>
        <translation>tools/list：工具“%1”重复；保留第一个</translation>
    </message>
    <message>
        <location line="+161"/>
        <source>ignored a message that is not JSON-RPC: %1</source>
        <translation>已忽略一条非 JSON-RPC 消息：%1</translation>
    </message>
    <message>
        <location line="+204"/>
        <source>the connection closed</source>
        <translation>连接已关闭</translation>
    </message>
</context>
<context>
    <name>Mcp::ConfigEditor</name>
    <message>
        <location filename="../src/mcp/configeditor.cpp" line="+204"/>
        <source>line %1, column %2</source>
        <translation>第 %1 行，第 %2 列</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Cannot change %1: %2</source>
        <translation>无法修改 %1：%2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the file is larger than %1 KiB.</source>
        <translation>文件超过 %1 KiB。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>it contains a NUL byte (%1); it must be UTF-8 text.</source>
        <translation>其中包含 NUL 字节（%1）；必须是 UTF-8 文本。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>it is not valid JSON (%1: %2). Fix the file first.</source>
        <translation>不是有效的 JSON（%1：%2）。请先修复该文件。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>it has no &quot;mcpServers&quot; object.</source>
        <translation>其中没有 &quot;mcpServers&quot; 对象。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>server &apos;%1&apos; is not defined in it.</source>
        <translation>其中未定义服务器“%1”。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>server &apos;%1&apos; is not an object.</source>
        <translation>服务器“%1”不是对象。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>internal error: &quot;mcpServers&quot; not found in the text.</source>
        <translation>内部错误：文本中未找到 &quot;mcpServers&quot;。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>internal error: server &apos;%1&apos; not found in the text.</source>
        <translation>内部错误：文本中未找到服务器“%1”。</translation>
    </message>
    <message>
        <location line="+107"/>
        <source>Cannot change %1: the edit did not produce the expected document (internal error); the file was left unchanged.</source>
        <translation>无法修改 %1：编辑结果与预期文档不符（内部错误）；文件未做更改。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Cannot save %1: %2</source>
        <translation>无法保存 %1：%2</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>Cannot change %1: &quot;autoApprove&quot; of server &apos;%2&apos; is not a list (%3). Make it a list of tool names.</source>
        <translation>无法修改 %1：服务器“%2”的 &quot;autoApprove&quot; 不是列表（%3）。请将其改为工具名称列表。</translation>
    </message>
</context>
<context>
    <name>Mcp::Manager</name>
    <message>
        <location filename="../src/mcp/manager.cpp" line="+126"/>
        <source>the %1 transport is not available in this build yet</source>
        <translation>此版本尚不支持 %1 传输</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>did not finish starting within %1 s</source>
        <translation>未能在 %1 秒内完成启动</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>%1 (gave up after %2 restarts within %3 s)</source>
        <translation>%1（%3 秒内重启 %2 次后放弃）</translation>
    </message>
</context>
<context>
    <name>Mcp::SseParser</name>
    <message>
        <location filename="../src/mcp/sseparser.cpp" line="+191"/>
        <source>event stream: an event exceeded %1 bytes and was dropped</source>
        <translation>事件流：某个事件超过 %1 字节，已丢弃</translation>
    </message>
</context>
<context>
    <name>Mcp::StdioTransport</name>
    <message>
        <location filename="../src/mcp/stdiotransport.cpp" line="+142"/>
        <source>command &apos;%1&apos; was not found on PATH</source>
        <translation>在 PATH 中找不到命令“%1”</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>working directory &apos;%1&apos; does not exist</source>
        <translation>工作目录“%1”不存在</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>could not create pipes: %1</source>
        <translation>无法创建管道：%1</translation>
    </message>
    <message>
        <location line="+65"/>
        <source>could not start &apos;%1&apos;: %2</source>
        <translation>无法启动“%1”：%2</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>server process crashed (%1)</source>
        <translation>服务器进程崩溃（%1）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>server process exited with code %1</source>
        <translation>服务器进程已退出，退出码 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 and had to be stopped</source>
        <translation>%1，因此被强制停止</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>; last stderr line: %1</source>
        <translation>；stderr 最后一行：%1</translation>
    </message>
    <message>
        <location line="+34"/>
        <location line="+32"/>
        <source>writing to the server failed: %1</source>
        <translation>写入服务器失败：%1</translation>
    </message>
    <message>
        <location line="+60"/>
        <source>server closed its standard output</source>
        <translation>服务器关闭了其标准输出</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>skipped a line that is not JSON on stdout: %1</source>
        <translation>已跳过 stdout 上一行非 JSON 内容：%1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>dropped a %1-byte message over the %2-byte cap</source>
        <translation>已丢弃一条 %1 字节的消息（超过 %2 字节上限）</translation>
    </message>
</context>
<context>
    <name>TerminalApprovalGate</name>
    <message>
        <location filename="../src/cli/terminalgate.cpp" line="+37"/>
        <source>switchboard-cli runs with --approve deny</source>
        <translation>switchboard-cli 以 --approve deny 运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>denied: %1 (%2 risk)
</source>
        <translation>已拒绝：%1（风险：%2）
</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>  server&apos;s hints (untrusted): %1
</source>
        <translation>  服务器提示（不可信）：%1
</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>
Allow %1 (%2 risk, from %3)?
  arguments: %4
%5[y] once  [c] for this conversation  [a] always  [n] deny (n: reason) &gt; </source>
        <translation>
允许 %1（风险：%2，来自 %3）吗？
  参数：%4
%5[y] 允许一次  [c] 本次对话内允许  [a] 始终允许  [n] 拒绝（n: 原因） &gt; </translation>
    </message>
    <message>
        <location line="+13"/>
        <source>no terminal to ask on</source>
        <translation>没有可用于询问的终端</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>no answer (end of input)</source>
        <translation>未作答（输入已结束）</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Please answer y, c, a or n &gt; </source>
        <translation>请输入 y、c、a 或 n &gt; </translation>
    </message>
</context>
<context>
    <name>Ui::ApprovalDialog</name>
    <message>
        <location filename="../src/ui/approvaldialog.cpp" line="+49"/>
        <source>Allow tool call?</source>
        <translation>允许调用工具？</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Source:</source>
        <translation>来源：</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>built-in tool</source>
        <translation>内置工具</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>server &quot;%1&quot;</source>
        <translation>服务器“%1”</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Tool:</source>
        <translation>工具：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 (&quot;%2&quot; on the server)</source>
        <translation>%1（服务器上为“%2”）</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Risk:</source>
        <translation>风险：</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The server gives no hints about this tool.</source>
        <translation>服务器未提供关于此工具的提示。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The server says: %1 (not verified)</source>
        <translation>服务器声称：%1（未经验证）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Untrusted: a server can claim anything about its own tools.</source>
        <translation>不可信：服务器可以对自己的工具随意声称。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Untrusted hints:</source>
        <translation>不可信提示：</translation>
    </message>
    <message numerus="yes">
        <location line="+16"/>
        <source>… (%n more characters not shown)</source>
        <translation>
            <numerusform>…（另有 %n 个字符未显示）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Ar&amp;guments:</source>
        <translation>参数(&amp;G)：</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Optional; told to the model when you deny</source>
        <translation>可选；拒绝时会告知模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Reason for denying:</source>
        <translation>拒绝原因(&amp;R)：</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>&amp;Allow once</source>
        <translation>允许一次(&amp;A)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Allow for this &amp;conversation</source>
        <translation>本次对话内允许(&amp;C)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Allow this tool without asking again until the conversation ends.</source>
        <translation>在本次对话结束前允许此工具，不再询问。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Al&amp;ways allow</source>
        <translation>始终允许(&amp;W)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save this tool to the server&apos;s autoApprove list.</source>
        <translation>将此工具保存到服务器的 autoApprove 列表。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Deny</source>
        <translation>拒绝(&amp;D)</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>the window closed</source>
        <translation>窗口已关闭</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>read-only</source>
        <translation>只读</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>may change things</source>
        <translation>可能修改内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>destructive</source>
        <translation>破坏性</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>not destructive</source>
        <translation>非破坏性</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>idempotent</source>
        <translation>幂等</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>not idempotent</source>
        <translation>非幂等</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>reaches outside systems</source>
        <translation>访问外部系统</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>closed world</source>
        <translation>不访问外部系统</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>title &quot;%1&quot;</source>
        <translation>标题“%1”</translation>
    </message>
</context>
<context>
    <name>Ui::ChatView</name>
    <message>
        <location filename="../src/ui/chatview.cpp" line="+49"/>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>denied</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>timed out</source>
        <translation>已超时</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location line="+180"/>
        <source>waiting for your approval…</source>
        <translation>等待你的批准…</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>running…</source>
        <translation>运行中…</translation>
    </message>
</context>
<context>
    <name>Ui::MainWindow</name>
    <message>
        <location filename="../src/ui/mainwindow.cpp" line="+39"/>
        <source>Switchboard — %1</source>
        <translation>Switchboard — %1</translation>
    </message>
    <message>
        <location line="+71"/>
        <source>built-in tools are allowed for this session only</source>
        <translation>内置工具仅在本次会话中允许</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Ask anything — Enter sends, Shift+Enter for a new line, /mcp opens the tools</source>
        <translation>输入任何问题 — Enter 发送，Shift+Enter 换行，/mcp 打开工具</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+159"/>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <location line="-127"/>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>New conversation</source>
        <translation>新建对话</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;New conversation</source>
        <translation>新建对话(&amp;N)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Tool browser…</source>
        <translation>工具浏览器(&amp;T)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+T</source>
        <translation>Ctrl+T</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>&lt;b&gt;No model is configured.&lt;/b&gt; Servers, tools and manual runs work; to chat, set &lt;code&gt;OPENAI_API_KEY&lt;/code&gt; (optionally &lt;code&gt;OPENAI_BASE_URL&lt;/code&gt; and &lt;code&gt;OPENAI_MODEL&lt;/code&gt; — any OpenAI-compatible server such as DeepSeek, Ollama or llama.cpp; a local one needs only the base URL) or &lt;code&gt;ANTHROPIC_API_KEY&lt;/code&gt;, then restart Switchboard.</source>
        <translation>&lt;b&gt;未配置模型。&lt;/b&gt;服务器、工具和手动运行均可使用；如需聊天，请设置 &lt;code&gt;OPENAI_API_KEY&lt;/code&gt;（可选 &lt;code&gt;OPENAI_BASE_URL&lt;/code&gt; 和 &lt;code&gt;OPENAI_MODEL&lt;/code&gt; — 适用于任何 OpenAI 兼容服务器，如 DeepSeek、Ollama 或 llama.cpp；本地服务器只需 base URL）或 &lt;code&gt;ANTHROPIC_API_KEY&lt;/code&gt;，然后重启 Switchboard。</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>last turn: %1 in / %2 out tokens</source>
        <translation>上一轮：输入 %1 / 输出 %2 tokens</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>No model is configured: %1</source>
        <translation>未配置模型：%1</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>(untitled)</source>
        <translation>（无标题）</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>%n message(s), %1</source>
        <translation>
            <numerusform>%n 条消息，%1</numerusform>
        </translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Could not rename the conversation: %1</source>
        <translation>无法重命名对话：%1</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>no model configured</source>
        <translation>未配置模型</translation>
    </message>
</context>
<context>
    <name>Ui::Risk</name>
    <message>
        <location filename="../src/ui/risk.h" line="+16"/>
        <source>read</source>
        <translation>只读</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>mutating</source>
        <translation>修改</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>dangerous</source>
        <translation>危险</translation>
    </message>
</context>
<context>
    <name>Ui::SchemaForm</name>
    <message>
        <location filename="../src/ui/schemaform.cpp" line="+135"/>
        <source>This tool takes no arguments.</source>
        <translation>此工具不需要参数。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Fields marked * are required.</source>
        <translation>标有 * 的字段为必填项。</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>min %1</source>
        <translation>最小 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>max %1</source>
        <translation>最大 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>integer</source>
        <translation>整数</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>number</source>
        <translation>数字</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>(not set)</source>
        <translation>（未设置）</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>JSON value</source>
        <translation>JSON 值</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>JSON %1</source>
        <translation>JSON %1</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>%1 *</source>
        <translation>%1 *</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>&apos;%1&apos; is not a whole number</source>
        <translation>“%1”不是整数</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&apos;%1&apos; is not a number</source>
        <translation>“%1”不是数字</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>must be at least %1</source>
        <translation>不能小于 %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>must be at most %1</source>
        <translation>不能大于 %1</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>not valid JSON: %1</source>
        <translation>不是有效的 JSON：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>must be a JSON object ({...})</source>
        <translation>必须是 JSON 对象（{...}）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>must be a JSON array ([...])</source>
        <translation>必须是 JSON 数组（[...]）</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>required</source>
        <translation>必填</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Field &apos;%1&apos;: %2</source>
        <translation>字段“%1”：%2</translation>
    </message>
</context>
<context>
    <name>Ui::ServerDock</name>
    <message>
        <location filename="../src/ui/serverdock.cpp" line="+193"/>
        <source>starting</source>
        <comment>server state</comment>
        <translation>启动中</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>connected</source>
        <comment>server state</comment>
        <translation>已连接</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>failed</source>
        <comment>server state</comment>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>disabled</source>
        <comment>server state</comment>
        <translation>已停用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>restarting</source>
        <comment>server state</comment>
        <translation>重启中</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>no servers configured</source>
        <translation>未配置服务器</translation>
    </message>
    <message numerus="yes">
        <location line="+8"/>
        <source>%n connected</source>
        <comment>servers</comment>
        <translation>
            <numerusform>%n 个已连接</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n starting</source>
        <comment>servers</comment>
        <translation>
            <numerusform>%n 个启动中</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n failed</source>
        <comment>servers</comment>
        <translation>
            <numerusform>%n 个失败</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n disabled</source>
        <comment>servers</comment>
        <translation>
            <numerusform>%n 个已停用</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>, </source>
        <comment>summary separator</comment>
        <translation>，</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Tools</source>
        <translation>工具</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Restart</source>
        <translation>重启</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop the selected server and start it again</source>
        <translation>停止所选服务器并重新启动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show stderr</source>
        <translation>查看 stderr</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show the last lines the selected server wrote to stderr</source>
        <translation>显示所选服务器最近写入 stderr 的内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open log</source>
        <translation>打开日志</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show the selected server&apos;s protocol traffic</source>
        <translation>显示所选服务器的协议通信</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+129"/>
        <source>Copy all</source>
        <translation>全部复制</translation>
    </message>
    <message>
        <location line="-127"/>
        <location line="+146"/>
        <source>stderr — %1</source>
        <translation>stderr — %1</translation>
    </message>
    <message>
        <location line="-86"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>restarted %n time(s) after a crash</source>
        <translation>
            <numerusform>崩溃后已重启 %n 次</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Servers — %1</source>
        <translation>服务器 — %1</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Enable</source>
        <translation>启用</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Disable</source>
        <translation>停用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Start the selected server again</source>
        <translation>重新启动所选服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop the selected server and keep it stopped</source>
        <translation>停止所选服务器并保持停止</translation>
    </message>
</context>
<context>
    <name>Ui::ToolBrowser</name>
    <message>
        <location filename="../src/ui/toolbrowser.cpp" line="+97"/>
        <source>Tools</source>
        <translation>工具</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Search tools</source>
        <translation>搜索工具</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Risk</source>
        <translation>风险</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>Arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Input schema</source>
        <translation>输入 schema</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cancel run</source>
        <translation>取消运行</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location line="+77"/>
        <source>Built-in tools</source>
        <translation>内置工具</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MCP server: %1</source>
        <translation>MCP 服务器：%1</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>The tool &apos;%1&apos; is no longer available: its server stopped or changed its tool list.</source>
        <translation>工具“%1”已不可用：其服务器已停止或更改了工具列表。</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>No tool selected</source>
        <translation>未选择工具</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choose a tool on the left to see what it does and run it.</source>
        <translation>在左侧选择一个工具，查看其用途并运行。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>(no description)</source>
        <translation>（无描述）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>built-in</source>
        <translation>内置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Risk: &lt;span style=&quot;color:%1&quot;&gt;&lt;b&gt;%2&lt;/b&gt;&lt;/span&gt; &amp;middot; Source: %3 &amp;middot; Name at source: %4</source>
        <translation>风险：&lt;span style=&quot;color:%1&quot;&gt;&lt;b&gt;%2&lt;/b&gt;&lt;/span&gt; &amp;middot; 来源：%3 &amp;middot; 源名称：%4</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Server hints (untrusted; Switchboard decides by the risk above): %1</source>
        <translation>服务器提示（不可信；Switchboard 按上面的风险级别决定）：%1</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Fix the arguments, then run again.</source>
        <translation>请修正参数后重新运行。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Waiting for approval…</source>
        <translation>等待批准…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Running…</source>
        <translation>运行中…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Running… %1 of %2</source>
        <translation>运行中… %1 / %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Running… %1</source>
        <translation>运行中… %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Denied: %1 did not run.</source>
        <translation>已拒绝：%1 未运行。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Timed out.</source>
        <translation>已超时。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 reported an error.</source>
        <translation>%1 报告了错误。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 finished.</source>
        <translation>%1 已完成。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Structured content:</source>
        <translation>结构化内容：</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>(The tool returned no content.)</source>
        <translation>（工具未返回任何内容。）</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>[image %1 could not be decoded]</source>
        <translation>[无法解码图像 %1]</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1, %2×%3</source>
        <translation>%1，%2×%3</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>[audio %1, about %2 bytes]</source>
        <translation>[音频 %1，约 %2 字节]</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Link: %1 %2</source>
        <translation>链接：%1 %2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Resource %1:</source>
        <translation>资源 %1：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>[resource %1, %2]</source>
        <translation>[资源 %1，%2]</translation>
    </message>
</context>
<context>
    <name>Ui::UiApprovalGate</name>
    <message>
        <location filename="../src/ui/uiapprovalgate.cpp" line="+26"/>
        <location line="+39"/>
        <source>the window closed</source>
        <translation>窗口已关闭</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../src/ui/main.cpp" line="+66"/>
        <source>Switchboard: a desktop AI agent and MCP client.</source>
        <translation>Switchboard：桌面 AI 智能体与 MCP 客户端。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The workspace folder (default: the current folder).</source>
        <translation>工作区文件夹（默认：当前文件夹）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Use FILE instead of the workspace&apos;s .mcp.json.</source>
        <translation>使用 FILE 代替工作区的 .mcp.json。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The interface language: en or zh_CN (default: the system&apos;s).</source>
        <translation>界面语言：en 或 zh_CN（默认：跟随系统）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Save the main window as PNG once every server has settled, then exit.</source>
        <translation>待所有服务器状态稳定后，将主窗口保存为 PNG，然后退出。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Print the time to the window&apos;s first paint, then exit (for benchmarks).</source>
        <translation>打印窗口首次绘制所用的时间，然后退出（用于基准测试）。</translation>
    </message>
</context>
</TS>
