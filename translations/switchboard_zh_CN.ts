<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Cli::Application</name>
    <message>
        <location filename="../src/cli/cli.cpp" line="+370"/>
        <source>switchboard-cli: refusing to use %1 as the workspace (it is / or your home folder: the tools could read every project and your private files there); run it in a project folder or name one with --workspace DIR</source>
        <translation>switchboard-cli：拒绝将 %1 用作工作区（它是 / 或你的主文件夹：工具将能读取其中的所有项目和你的私人文件）；请在项目文件夹中运行，或用 --workspace DIR 指定一个</translation>
    </message>
    <message>
        <location filename="../src/cli/clifeatures.cpp" line="+40"/>
        <source>server &apos;%1&apos; offers no resources</source>
        <translation>服务器“%1”不提供资源</translation>
    </message>
    <message>
        <location line="+83"/>
        <source>server &apos;%1&apos; offers no prompts</source>
        <translation>服务器“%1”不提供提示词</translation>
    </message>
    <message>
        <location filename="../src/cli/clitrust.cpp" line="+138"/>
        <source>--tail needs a positive whole number</source>
        <translation>--tail 需要一个正整数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>audit: unexpected argument &apos;%1&apos;</source>
        <translation>audit：意外的参数“%1”</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1: cannot read: %2</source>
        <translation>%1：无法读取：%2</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>the audit log %1 is empty</source>
        <translation>审计日志 %1 为空</translation>
    </message>
    <message>
        <location line="+77"/>
        <source>no such file</source>
        <translation>没有此文件</translation>
    </message>
    <message>
        <location filename="../src/cli/clia2a.cpp" line="+79"/>
        <source>a2a send: %1</source>
        <translation>a2a send：%1</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>[artifact] %1</source>
        <translation>[产出物] %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>[%1] %2</source>
        <translation>[%1] %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>[%1]</source>
        <translation>[%1]</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>the agent is waiting: task %1, context %2</source>
        <translation>智能体正在等待：任务 %1，上下文 %2</translation>
    </message>
    <message>
        <location filename="../src/cli/cliauth.cpp" line="+29"/>
        <source>no server named &apos;%1&apos;</source>
        <translation>没有名为“%1”的服务器</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&apos;%1&apos; is not a remote server (&quot;url&quot; with Streamable HTTP): there is nothing to sign in to</source>
        <translation>“%1”不是远程服务器（使用 Streamable HTTP 的 &quot;url&quot;）：没有可登录的对象</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>&apos;%1&apos; sends its own Authorization header (in &quot;headers&quot;): Switchboard keeps no tokens for it</source>
        <translation>“%1”自行发送 Authorization 头（在 &quot;headers&quot; 中）：Switchboard 不为它保存令牌</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>signed out of %1: its tokens are forgotten</source>
        <translation>已退出 %1：其令牌已被清除</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>signed in to %1 (authorization server %2)</source>
        <translation>已登录 %1（授权服务器 %2）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 is connected; it asked for no sign-in</source>
        <translation>%1 已连接；它不要求登录</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no keychain answered: the tokens were kept in memory only and are gone when this command ends</source>
        <translation>没有钥匙串响应：令牌仅保存在内存中，此命令结束后即失效</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>%1: sign-in failed: %2</source>
        <translation>%1：登录失败：%2</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>no remote server here signs in</source>
        <translation>此处没有需要登录的远程服务器</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1: signed in (authorization server %2, since %3)</source>
        <translation>%1：已登录（授权服务器 %2，自 %3 起）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: not signed in</source>
        <translation>%1：未登录</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the keychain did not answer (%1): nothing is kept across runs</source>
        <translation>钥匙串没有响应（%1）：运行之间不会保留任何内容</translation>
    </message>
    <message>
        <location filename="../src/cli/clia2a.cpp" line="+60"/>
        <source>task %1 %2%3</source>
        <translation>任务 %1 %2%3</translation>
    </message>
    <message>
        <location line="+4"/>
        <source> (refused: %1)</source>
        <translation>（已拒绝：%1）</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>stopping</source>
        <translation>正在停止</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>serving %1 on %2</source>
        <translation>正在 %2 上提供 %1</translation>
    </message>
    <message>
        <location filename="../src/cli/cliinstall.cpp" line="+53"/>
        <location filename="../src/cli/cliregistry.cpp" line="+70"/>
        <source>required</source>
        <translation>必填</translation>
    </message>
    <message>
        <location line="+2"/>
        <location filename="../src/cli/cliregistry.cpp" line="+2"/>
        <source>secret</source>
        <translation>机密</translation>
    </message>
    <message>
        <location line="+74"/>
        <source>%1 was deleted from the registry: %2</source>
        <translation>%1 已从注册表中删除：%2</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>%1 has no such package or remote to install (packages: %2, remotes: %3)</source>
        <translation>%1 没有可安装的这个软件包或远程服务器（软件包：%2，远程：%3）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>note: %1 is deprecated: %2</source>
        <translation>注意：%1 已弃用：%2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>install: %1 is an MCP Bundle: it goes into your own configuration, under its own name</source>
        <translation>install：%1 是 MCP 扩展包：它会以自己的名称装入你自己的配置</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>install: &apos;%1&apos; is not one of what %2 asks for:
%3</source>
        <translation>install：“%1”不是 %2 要求填写的项目之一：
%3</translation>
    </message>
    <message>
        <location line="+13"/>
        <location line="+137"/>
        <source>%1 for %2 (not shown): </source>
        <translation>%2 的 %1（不显示）：</translation>
    </message>
    <message>
        <location line="-131"/>
        <location line="+10"/>
        <location line="+34"/>
        <location line="+74"/>
        <location line="+27"/>
        <source>install: %1</source>
        <translation>install：%1</translation>
    </message>
    <message>
        <location line="-143"/>
        <source>%1 asks for:
%2</source>
        <translation>%1 要求填写：
%2</translation>
    </message>
    <message>
        <location line="+12"/>
        <location line="+139"/>
        <source>installed %1 into %2</source>
        <translation>已将 %1 安装到 %2</translation>
    </message>
    <message>
        <location line="-134"/>
        <location line="+138"/>
        <source>  secret %1 stored in the keychain</source>
        <translation>  密钥 %1 已存入钥匙串</translation>
    </message>
    <message>
        <location line="-135"/>
        <location line="+137"/>
        <source>note: %1</source>
        <translation>注意：%1</translation>
    </message>
    <message>
        <location line="-120"/>
        <source>downloading %1</source>
        <translation>正在下载 %1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>  its SHA-256 is the one the registry names</source>
        <translation>  其 SHA-256 与注册表所列一致</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>%1 %2 by %3</source>
        <translation>%1 %2，作者 %3</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>  signed by %1 (%2)</source>
        <translation>  由 %1 签名（%2）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>  signed by %1 with a certificate of its own (self-signed): nobody vouches for it</source>
        <translation>  由 %1 用自己的证书签名（自签名）：没有人为它担保</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>  signed by %1, whose certificate this system does not trust</source>
        <translation>  由 %1 签名，但本系统不信任其证书</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>  not signed: nothing says who made it</source>
        <translation>  未签名：无法得知是谁制作的</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>  tools: %1</source>
        <translation>  工具：%1</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>install: &apos;%1&apos; is not one of what %2 asks for: %3</source>
        <translation>install：“%1”不是 %2 要求填写的项目之一：%3</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>nothing</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>updating %1 from %2 to %3; its settings are kept</source>
        <translation>正在将 %1 从 %2 更新到 %3；其设置保持不变</translation>
    </message>
    <message>
        <location line="+24"/>
        <location line="+112"/>
        <location line="+24"/>
        <location line="+5"/>
        <source>update: %1</source>
        <translation>update：%1</translation>
    </message>
    <message>
        <location line="-136"/>
        <source>updated %1 to %2 in %3</source>
        <translation>已将 %3 中的 %1 更新到 %2</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>%1 is written, but the configuration does not load it</source>
        <translation>%1 已写入，但配置没有加载它</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 does not start yet: %2</source>
        <translation>%1 暂时无法启动：%2</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%1 connected: %n tool(s)</source>
        <translation>
            <numerusform>%1 已连接：%n 个工具</numerusform>
        </translation>
    </message>
    <message>
        <location line="+70"/>
        <source>update: %1 was not installed from the MCP Registry or an extension; edit its definition in %2 instead</source>
        <translation>update：%1 不是从 MCP Registry 或扩展安装的；请改为在 %2 中编辑其定义</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>updated %1 from %2 to %3 in %4</source>
        <translation>已将 %4 中的 %1 从 %2 更新到 %3</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>uninstall: %1</source>
        <translation>uninstall：%1</translation>
    </message>
    <message>
        <location filename="../src/cli/cliregistry.cpp" line="+2"/>
        <source>one of %1</source>
        <translation>可选值：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>default %1</source>
        <translation>默认 %1</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>the registry could not be asked: this is what it answered on %1</source>
        <translation>无法访问注册表：以下是它在 %1 的回答</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>left out: %1</source>
        <translation>已略去：%1</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>no server found</source>
        <translation>未找到服务器</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>(more results: search for something narrower)</source>
        <translation>（还有更多结果：请缩小搜索范围）</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>repository: %1</source>
        <translation>代码仓库：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>website: %1</source>
        <translation>网站：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>package: %1</source>
        <translation>包：%1</translation>
    </message>
    <message>
        <location filename="../src/cli/cliinstall.cpp" line="-301"/>
        <location line="+138"/>
        <location line="+139"/>
        <location filename="../src/cli/cliregistry.cpp" line="+3"/>
        <source>  runs: %1</source>
        <translation>  运行：%1</translation>
    </message>
    <message>
        <location filename="../src/cli/cliregistry.cpp" line="+5"/>
        <source>remote: %1 %2</source>
        <translation>远程：%1 %2</translation>
    </message>
    <message>
        <location filename="../src/cli/clisecrets.cpp" line="+94"/>
        <source>Value of %1 (not shown): </source>
        <translation>%1 的值（不显示）：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>nothing was typed: %1 is unchanged</source>
        <translation>未输入任何内容：%1 未改变</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>no keychain answered (%1): nothing was stored. Where there is no keychain, export the value as an environment variable and write ${%2} instead of ${secret:%2}</source>
        <translation>没有钥匙串响应（%1）：未存储任何内容。没有钥匙串时，请将该值导出为环境变量，并用 ${%2} 代替 ${secret:%2}</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 is stored in the keychain; a server reads it as ${secret:%1}</source>
        <translation>%1 已存入钥匙串；服务器以 ${secret:%1} 读取它</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>%1 could not be deleted: %2</source>
        <translation>无法删除 %1：%2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 is deleted from the keychain</source>
        <translation>%1 已从钥匙串中删除</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>no secrets stored; store one with: switchboard-cli secret set NAME</source>
        <translation>尚未存储任何密钥；可用以下命令存储：switchboard-cli secret set NAME</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>used by no server</source>
        <translation>没有服务器使用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>used by %1</source>
        <translation>由 %1 使用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> (not stored)</source>
        <translation>（未存储）</translation>
    </message>
    <message>
        <location filename="../src/cli/cliconversations.cpp" line="+31"/>
        <source>conversations: unexpected argument &apos;%1&apos;</source>
        <translation>conversations：意外的参数“%1”</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>conversations: --search needs the text to look for</source>
        <translation>conversations：--search 需要要查找的文字</translation>
    </message>
    <message numerus="yes">
        <location line="+40"/>
        <source>%n message(s)</source>
        <translation>
            <numerusform>%n 条消息</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(untitled)</source>
        <translation>（无标题）</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>    #%1: %2 (%n match(es))</source>
        <translation>
            <numerusform>    #%1：%2（%n 处匹配）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+8"/>
        <source>no saved conversations</source>
        <translation>没有已保存的对话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no saved conversations in %1 (--all lists every workspace&apos;s)</source>
        <translation>%1 中没有已保存的对话（--all 列出所有工作区的对话）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no conversation says &apos;%1&apos;</source>
        <translation>没有对话提到“%1”</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no conversation of this workspace says &apos;%1&apos;</source>
        <translation>此工作区没有对话提到“%1”</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>export: unexpected argument &apos;%1&apos;</source>
        <translation>export：意外的参数“%1”</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>export needs the ID of a conversation (switchboard-cli conversations lists them)</source>
        <translation>export 需要对话的 ID（switchboard-cli conversations 会列出它们）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>export: --format is md, html or json, not &apos;%1&apos;</source>
        <translation>export：--format 只能是 md、html 或 json，而不是“%1”</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>export: no saved conversation has the ID %1</source>
        <translation>export：没有 ID 为 %1 的已保存对话</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>export: %1 starts %n conversation ID(s); give more of it</source>
        <translation>
            <numerusform>export：有 %n 个对话 ID 以 %1 开头；请给出更长的部分</numerusform>
        </translation>
    </message>
    <message>
        <location line="+8"/>
        <source>export: %1</source>
        <translation>export：%1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>export: cannot write %1: %2</source>
        <translation>export：无法写入 %1：%2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>exported %1 to %2</source>
        <translation>已将 %1 导出到 %2</translation>
    </message>
</context>
<context>
    <name>Cli::TerminalApprovalGate</name>
    <message>
        <location filename="../src/cli/terminalgate.cpp" line="+41"/>
        <source>switchboard-cli runs with --approve deny</source>
        <translation>switchboard-cli 以 --approve deny 运行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>denied: %1 (%2 risk)
</source>
        <translation>已拒绝：%1（风险：%2）
</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>denied: %1 (%2)
</source>
        <translation>已拒绝：%1（%2）
</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>  server&apos;s hints (untrusted): %1
</source>
        <translation>  服务器提示（不可信）：%1
</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>  why it asks: %1
</source>
        <translation>  询问原因：%1
</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>[y] once  [n] deny (n: reason) &gt; </source>
        <translation>[y] 允许一次  [n] 拒绝（n: 原因）&gt; </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>[y] once  [c] for this conversation  [a] always  [n] deny (n: reason) &gt; </source>
        <translation>[y] 允许一次  [c] 本次对话内允许  [a] 始终允许  [n] 拒绝（n: 原因）&gt; </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>[y] this command once  [c] exactly this command in this conversation  [a] always  [n] deny (n: reason) &gt; </source>
        <translation>[y] 本次允许此命令  [c] 在本对话中允许完全相同的命令  [a] 总是允许  [n] 拒绝（n: 原因）&gt; </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>[y] this command once  [c] commands matching %1 in this conversation  [a] always  [n] deny (n: reason) &gt; </source>
        <translation>[y] 允许此命令一次  [c] 本次对话内允许匹配 %1 的命令  [a] 始终允许  [n] 拒绝（n: 原因）&gt; </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>
Allow %1 (%2 risk, from %3)?
  arguments: %4
%5%6%7</source>
        <translation>
允许 %1 吗（风险：%2，来自 %3）？
  参数：%4
%5%6%7</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>built-in</source>
        <translation>内置</translation>
    </message>
    <message>
        <location line="+76"/>
        <source>Please answer y or n &gt; </source>
        <translation>请输入 y 或 n &gt; </translation>
    </message>
    <message>
        <location line="+12"/>
        <source>the turn was stopped</source>
        <translation>本轮已被停止</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>(withdrawn: the turn was stopped)
</source>
        <translation>（已撤回：本轮已被停止）
</translation>
    </message>
    <message>
        <location line="-68"/>
        <source>no terminal to ask on</source>
        <translation>没有可用于询问的终端</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>no answer (end of input)</source>
        <translation>未作答（输入已结束）</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Please answer y, c, a or n &gt; </source>
        <translation>请输入 y、c、a 或 n &gt; </translation>
    </message>
</context>
<context>
    <name>Cli::TerminalHost</name>
    <message>
        <location filename="../src/cli/terminalhost.cpp" line="+25"/>
        <source>Open this address in a browser to sign in (waiting up to 5 minutes):
%1</source>
        <translation>请在浏览器中打开此地址以登录（最多等待 5 分钟）：
%1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>sign-in needed: run &apos;switchboard-cli --workspace %1 auth login %2&apos;</source>
        <translation>需要登录：请运行 &apos;switchboard-cli --workspace %1 auth login %2&apos;</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>%1 asks your model for a completion</source>
        <translation>%1 请求你的模型生成回复</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>[sampling] %1 asks your model (%2 messages, at most %3 tokens)</source>
        <translation>[采样] %1 请求你的模型（%2 条消息，最多 %3 个词元）</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>[elicitation] %1 asks: %2 (%3)</source>
        <translation>[信息请求] %1 询问：%2（%3）</translation>
    </message>
</context>
<context>
    <name>Engine::A2A</name>
    <message>
        <location filename="../src/engine/a2a/wire.cpp" line="+79"/>
        <source>a task status is not an object</source>
        <translation>任务状态不是对象</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>an artifact is not an object</source>
        <translation>产出物不是对象</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>an artifact has no parts</source>
        <translation>产出物没有内容部分</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>submitted</source>
        <translation>已提交</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>working</source>
        <translation>进行中</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>input required</source>
        <translation>需要输入</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>authorization required</source>
        <translation>需要授权</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>completed</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>failed</source>
        <translation>已失败</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>canceled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>rejected</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>in an unknown state</source>
        <translation>处于未知状态</translation>
    </message>
    <message>
        <location line="+181"/>
        <source>a message part is not an object</source>
        <translation>消息部分不是对象</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>a text part has no text</source>
        <translation>文本部分没有文本</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>a message part is neither text, data, a URL nor a file</source>
        <translation>消息部分既不是文本、数据、URL，也不是文件</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>a message is not an object</source>
        <translation>消息不是对象</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>a message has no parts</source>
        <translation>消息没有内容部分</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>a task is not an object</source>
        <translation>任务不是对象</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>a task has no id</source>
        <translation>任务没有 id</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>a task&apos;s &apos;%1&apos; is not a list</source>
        <translation>任务的“%1”不是列表</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>the answer is not an object</source>
        <translation>应答不是对象</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>the answer is neither a task, a message nor an update</source>
        <translation>应答既不是任务、消息，也不是更新</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the agent card is not a JSON object</source>
        <translation>智能体名片不是 JSON 对象</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the agent card has no name</source>
        <translation>智能体名片没有名称</translation>
    </message>
    <message>
        <location filename="../src/engine/a2a/clienttask.cpp" line="+47"/>
        <source>the agent answered error %1: %2</source>
        <translation>智能体返回错误 %1：%2</translation>
    </message>
    <message>
        <location filename="../src/engine/a2a/delegatetool.cpp" line="+22"/>
        <source>no agents are configured (.a2a.json in the workspace, or a2a.json in your config folder)</source>
        <translation>未配置任何智能体（工作区中的 .a2a.json，或配置文件夹中的 a2a.json）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>known agents: %1</source>
        <translation>已知智能体：%1</translation>
    </message>
    <message>
        <location filename="../src/engine/a2a/peers.cpp" line="+232"/>
        <source>agent &apos;%1&apos;: %2</source>
        <translation>智能体“%1”：%2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the top level must be an object: {&quot;agents&quot;: {...}}</source>
        <translation>顶层必须是对象：{&quot;agents&quot;: {...}}</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&apos;agents&apos; must be an object mapping agent names to their settings</source>
        <translation>“agents”必须是将智能体名称映射到其设置的对象</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>a name is 1 to %1 letters, digits, &apos;_&apos;, &apos;-&apos; or &apos;.&apos;</source>
        <translation>名称须为 1 到 %1 个字母、数字、“_”、“-”或“.”</translation>
    </message>
    <message>
        <location line="+72"/>
        <source>agent &apos;%1&apos; is also defined in %2; that definition is used</source>
        <translation>智能体“%1”也在 %2 中定义；使用那里的定义</translation>
    </message>
</context>
<context>
    <name>Engine::A2A::AgentExecutor</name>
    <message>
        <location filename="../src/engine/agentexecutor.cpp" line="+31"/>
        <source>Switchboard: %1</source>
        <translation>Switchboard：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A Switchboard agent working in %1 (read-only tools for remote requests).</source>
        <translation>在 %1 中工作的 Switchboard 智能体（远程请求只能使用只读工具）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Workspace questions</source>
        <translation>工作区问题</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Answers questions about the workspace %1 with its read-only tools.</source>
        <translation>使用只读工具回答关于工作区 %1 的问题。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Another task of this context is still running; wait for it or start a new context.</source>
        <translation>此上下文中的另一个任务仍在运行；请等待它完成，或开始新的上下文。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>A2A: %1</source>
        <translation>A2A：%1</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>using %1</source>
        <translation>正在使用 %1</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>The model gave no answer.</source>
        <translation>模型没有给出回答。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The agent could not take the task.</source>
        <translation>智能体无法接受此任务。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
</context>
<context>
    <name>Engine::A2A::Client</name>
    <message>
        <location filename="../src/engine/a2a/clienttask.cpp" line="+49"/>
        <source>%1 did not finish the task within %2 s</source>
        <translation>%1 未在 %2 秒内完成任务</translation>
    </message>
    <message>
        <location line="+31"/>
        <location line="+28"/>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>agent &apos;%1&apos; offers no JSON-RPC interface (its card lists: %2)</source>
        <translation>智能体“%1”未提供 JSON-RPC 接口（其名片列出：%2）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>agent &apos;%1&apos; gives an interface URL that is not http(s): %2</source>
        <translation>智能体“%1”给出的接口网址不是 http(s)：%2</translation>
    </message>
    <message>
        <location filename="../src/engine/a2a/client.cpp" line="+170"/>
        <location filename="../src/engine/a2a/clienttask.h" line="+50"/>
        <source>agent &apos;%1&apos;</source>
        <translation>智能体“%1”</translation>
    </message>
    <message>
        <location filename="../src/engine/a2a/clienttaskfollow.cpp" line="+52"/>
        <source>%1 sent an answer that is not A2A: %2</source>
        <translation>%1 发送的应答不是 A2A：%2</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>%1 ended its answer without a task or a message</source>
        <translation>%1 结束了应答，但没有任务或消息</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>%1 sent a task that is not A2A: %2</source>
        <translation>%1 发送的任务不是 A2A：%2</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>the task is in a state this client does not know</source>
        <translation>任务处于本客户端未知的状态</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>%1 answered code %2: %3</source>
        <translation>%1 返回代码 %2：%3</translation>
    </message>
    <message>
        <location filename="../src/engine/a2a/clienttask.cpp" line="+165"/>
        <source>%1 speaks A2A 0.3, which has no %2</source>
        <translation>%1 使用 A2A 0.3，其中没有 %2</translation>
    </message>
    <message>
        <location filename="../src/engine/a2a/client.cpp" line="-30"/>
        <source>&apos;%1&apos; is not an http(s) URL</source>
        <translation>“%1”不是 http(s) 网址</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>no agent card at %1: %2</source>
        <translation>%1 处没有智能体名片：%2</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>the agent card at %1 is not usable: %2</source>
        <translation>%1 处的智能体名片不可用：%2</translation>
    </message>
</context>
<context>
    <name>Engine::A2A::DelegateAgentTool</name>
    <message>
        <location filename="../src/engine/a2a/delegatetool.cpp" line="+63"/>
        <source>give either an agent&apos;s name or a URL, not both</source>
        <translation>请给出智能体名称或网址，不要同时给出</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>no agent named &apos;%1&apos;; %2</source>
        <translation>没有名为“%1”的智能体；%2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>agent &apos;%1&apos; comes from this workspace&apos;s %2 and is not trusted yet; nothing was sent (trust it with &apos;switchboard-cli --workspace %3 trust %1&apos;)</source>
        <translation>智能体“%1”来自此工作区的 %2，尚未受信任；未发送任何内容（请用 &apos;switchboard-cli --workspace %3 trust %1&apos; 信任它）</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>say which agent: &apos;agent&apos; (%1) or &apos;url&apos;</source>
        <translation>请指明智能体：“agent”（%1）或“url”</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&apos;%1&apos; is not an http or https URL</source>
        <translation>“%1”不是 http 或 https 网址</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>&apos;message&apos; is empty: say what the other agent should do</source>
        <translation>“message”为空：请说明另一个智能体应做什么</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>sent</source>
        <translation>已发送</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 (%2 s)</source>
        <translation>%1（%2 秒）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>artifact received</source>
        <translation>已收到产出物</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>(agent %1 completed the task and said nothing)</source>
        <translation>（智能体 %1 完成了任务，但没有说明）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>agent %1: %2</source>
        <translation>智能体 %1：%2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The agent is waiting for an answer: call delegate_agent again with the answer as the message, taskId %1 and contextId %2.</source>
        <translation>智能体正在等待答复：请再次调用 delegate_agent，将答复作为 message，并给出 taskId %1 和 contextId %2。</translation>
    </message>
</context>
<context>
    <name>Engine::A2A::Exchange</name>
    <message>
        <location filename="../src/engine/a2a/exchange.cpp" line="+49"/>
        <source>%1 sent an answer larger than %2 MiB</source>
        <translation>%1 发送的应答大于 %2 MiB</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>Engine::A2A::Inbound</name>
    <message>
        <location filename="../src/engine/a2a/inbound.cpp" line="+57"/>
        <source>The request is not valid JSON (at byte %1: %2).</source>
        <translation>请求不是有效的 JSON（第 %1 字节：%2）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Batch requests are not supported.</source>
        <translation>不支持批量请求。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The request is not a JSON-RPC request object.</source>
        <translation>请求不是 JSON-RPC 请求对象。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The request&apos;s id must be a string or an integer.</source>
        <translation>请求的 id 必须是字符串或整数。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The request is not JSON-RPC 2.0 (&quot;jsonrpc&quot;: &quot;2.0&quot;).</source>
        <translation>请求不是 JSON-RPC 2.0（&quot;jsonrpc&quot;: &quot;2.0&quot;）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The request has no method.</source>
        <translation>请求没有 method。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>A2A version &apos;%1&apos; is not supported; this agent speaks 1.0 and 0.3.</source>
        <translation>不支持 A2A 版本“%1”；此智能体支持 1.0 和 0.3。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Method not found: %1 (A2A %2).</source>
        <translation>找不到方法：%1（A2A %2）。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The params of %1 must be an object.</source>
        <translation>%1 的 params 必须是对象。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>params.message is required.</source>
        <translation>缺少 params.message。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>params.message is not a message: %1</source>
        <translation>params.message 不是消息：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>params.message must come from the user (role user).</source>
        <translation>params.message 必须来自用户（role 为 user）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+60"/>
        <source>The message is empty: there is nothing to do.</source>
        <translation>消息为空：没有要做的事。</translation>
    </message>
    <message>
        <location line="-39"/>
        <source>params.id (the task&apos;s id) is required.</source>
        <translation>缺少 params.id（任务的 id）。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>params.pageSize must be an integer.</source>
        <translation>params.pageSize 必须是整数。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>params.pageSize must be between 1 and 100.</source>
        <translation>params.pageSize 必须在 1 到 100 之间。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>params.pageToken is not one this agent gave.</source>
        <translation>params.pageToken 不是此智能体给出的。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The request is not valid JSON.</source>
        <translation>请求不是有效的 JSON。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The request must be a JSON object: {&quot;message&quot;: &quot;...&quot;}.</source>
        <translation>请求必须是 JSON 对象：{&quot;message&quot;: &quot;...&quot;}。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The request has no &quot;message&quot; string.</source>
        <translation>请求中没有 &quot;message&quot; 字符串。</translation>
    </message>
</context>
<context>
    <name>Engine::A2A::Outcome</name>
    <message>
        <location filename="../src/engine/a2a/client.cpp" line="-168"/>
        <source>completed</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>timed out: %1</source>
        <translation>超时：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>unreachable: %1</source>
        <translation>无法连接：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>error: %1</source>
        <translation>错误：%1</translation>
    </message>
</context>
<context>
    <name>Engine::A2A::Reader</name>
    <message>
        <location filename="../src/engine/a2a/peers.cpp" line="-275"/>
        <source>agent &apos;%1&apos;: %2</source>
        <translation>智能体“%1”：%2</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>agent &apos;%1&apos; needs the environment variable %2, which is %3</source>
        <translation>智能体“%1”需要环境变量 %2，但它%3</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>empty</source>
        <translation>为空</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>its settings must be an object ({&quot;url&quot;: &quot;...&quot;})</source>
        <translation>其设置必须是对象（{&quot;url&quot;: &quot;...&quot;}）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>unknown key &apos;%1&apos; (an agent has: url, headers, timeout, description)</source>
        <translation>未知的键“%1”（智能体可有：url、headers、timeout、description）</translation>
    </message>
    <message>
        <location line="+12"/>
        <location line="+17"/>
        <location line="+37"/>
        <source>a string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <location line="-42"/>
        <source>&apos;url&apos; is missing: the agent&apos;s address (http or https)</source>
        <translation>缺少“url”：智能体的地址（http 或 https）</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>&apos;url&apos; must be an http or https URL, not %1</source>
        <translation>“url”必须是 http 或 https 网址，而不是 %1</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>an object of strings</source>
        <translation>值为字符串的对象</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&apos;%1&apos; is not a header name</source>
        <translation>“%1”不是有效的头名称</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>header &apos;%1&apos;</source>
        <translation>头“%1”</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>header &apos;%1&apos; has a line break or NUL in its value</source>
        <translation>头“%1”的值中含有换行符或 NUL</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>&apos;timeout&apos; must be a number of seconds from 1 to %1</source>
        <translation>“timeout”必须是 1 到 %1 之间的秒数</translation>
    </message>
</context>
<context>
    <name>Engine::A2A::Server</name>
    <message>
        <location filename="../src/engine/a2a/server.cpp" line="+274"/>
        <source>&apos;%1&apos; is not an IP address to listen on.</source>
        <translation>“%1”不是可监听的 IP 地址。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Refusing to serve on %1 without a token: anyone who can reach that address could make this agent work. Give a bearer token (--token), or serve on 127.0.0.1.</source>
        <translation>拒绝在没有令牌的情况下在 %1 上提供服务：任何能访问该地址的人都可以让此智能体工作。请提供 bearer 令牌（--token），或在 127.0.0.1 上提供服务。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Could not listen on %1 port %2 (in use, or not an address of this machine).</source>
        <translation>无法在 %1 端口 %2 上监听（已被占用，或不是本机地址）。</translation>
    </message>
    <message>
        <location line="+79"/>
        <source>This agent answers on 127.0.0.1 only.</source>
        <translation>此智能体只在 127.0.0.1 上应答。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>A bearer token is required (Authorization: Bearer ...).</source>
        <translation>需要 bearer 令牌（Authorization: Bearer ...）。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Not found.</source>
        <translation>未找到。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Use POST here.</source>
        <translation>此处请使用 POST。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The request is %1 bytes; this agent takes at most %2.</source>
        <translation>请求有 %1 字节；此智能体最多接受 %2 字节。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Unsupported Content-Type &apos;%1&apos;; expected application/json.</source>
        <translation>不支持的 Content-Type“%1”；应为 application/json。</translation>
    </message>
    <message>
        <location line="+247"/>
        <location line="+101"/>
        <source>Task not found: %1</source>
        <translation>找不到任务：%1</translation>
    </message>
    <message>
        <location line="-75"/>
        <source>Task not cancelable: it is %1.</source>
        <translation>任务无法取消：它已%1。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Canceled by the client.</source>
        <translation>已被客户端取消。</translation>
    </message>
    <message>
        <location line="+69"/>
        <source>Task %1 is %2 and takes no more messages; send a new message with its contextId to go on.</source>
        <translation>任务 %1 已%2，不再接受消息；要继续，请用它的 contextId 发送新消息。</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+51"/>
        <source>This agent is busy (%1 tasks running); try again later.</source>
        <translation>此智能体正忙（%1 个任务在运行）；请稍后再试。</translation>
    </message>
</context>
<context>
    <name>Engine::Agent</name>
    <message>
        <location filename="../src/engine/agent/agent.cpp" line="+84"/>
        <location line="+50"/>
        <source>Could not save the conversation: %1</source>
        <translation>无法保存对话：%1</translation>
    </message>
    <message>
        <location line="+80"/>
        <source>Stopped after %1 model turns without a final answer (the turn limit).</source>
        <translation>模型已进行 %1 轮仍未给出最终回答，已停止（达到轮数上限）。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>You are Switchboard, an assistant with tools. The workspace is %1. Use the tools when they help; tool results may contain errors or denials by the user: take them into account.</source>
        <translation>你是 Switchboard，一个可以使用工具的助手。工作区为 %1。在有帮助时使用工具；工具结果可能包含错误或用户的拒绝，请将其考虑在内。</translation>
    </message>
    <message numerus="yes">
        <location line="+34"/>
        <source>The earlier part of this conversation (%n messages) was left out to fit the context window. A summary of it:</source>
        <translation>
            <numerusform>为适应上下文窗口，本对话较早的部分（%n 条消息）被省略。其摘要如下：</numerusform>
        </translation>
    </message>
    <message>
        <location line="+59"/>
        <source>Summary so far:</source>
        <translation>目前的摘要：</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tool result (%1)</source>
        <translation>工具结果（%1）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>You summarise the earlier part of a conversation between a user and an assistant with tools, so the assistant can continue without it. Keep facts, decisions, file names, open questions and what the user asked for; leave out pleasantries. At most 300 words.</source>
        <translation>你负责总结用户与带工具的助手之间对话的较早部分，使助手无需原文也能继续。保留事实、决定、文件名、未决问题以及用户的要求；省略客套话。最多 300 字。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Summarise this conversation:</source>
        <translation>请总结这段对话：</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>The model&apos;s answer did not include this call.</source>
        <translation>模型的回答最终没有包含这次调用。</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>The tool %1 is turned off for this conversation; use another tool or answer without it.</source>
        <translation>工具 %1 已在此对话中关闭；请使用其他工具，或不用它直接回答。</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>The user stopped the turn before this call finished.</source>
        <translation>此调用完成前，用户已停止本轮。</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>Only the model&apos;s share of this result was kept with the conversation: the whole result (%1 MB) is larger than the %2 MB kept for one result (Settings).</source>
        <translation>此结果只保存了模型读到的部分：完整结果（%1 MB）超过了单个结果可保存的 %2 MB（设置）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Only the model&apos;s share of this result was kept with the conversation: its whole results reached the %1 MB kept for one conversation (Settings).</source>
        <translation>此结果只保存了模型读到的部分：本对话保存的完整结果已达到每个对话的 %1 MB 上限（设置）。</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>Stopped before the model finished writing this call.</source>
        <translation>在模型写完这次调用之前已停止。</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+16"/>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
</context>
<context>
    <name>Engine::AnthropicProvider</name>
    <message>
        <location filename="../src/engine/llm/anthropicprovider.cpp" line="+246"/>
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
    <name>Engine::AppBridge</name>
    <message>
        <location filename="../src/engine/apps/appbridge.cpp" line="+97"/>
        <source>the view sent %1 messages too many in one second; they were dropped (at most %2 a second)</source>
        <translation>视图在一秒内多发了 %1 条消息；已丢弃（每秒最多 %2 条）</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>refused: %1</source>
        <translation>已拒绝：%1</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>ignored: an answer to no request of the host</source>
        <translation>已忽略：并非对宿主任何请求的应答</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>the view has not sent ui/initialize</source>
        <translation>视图尚未发送 ui/initialize</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1 is not a method of this host</source>
        <translation>%1 不是此宿主的方法</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>ignored: initialized before ui/initialize</source>
        <translation>已忽略：在 ui/initialize 之前发送了 initialized</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>the view logs (%1): %2</source>
        <translation>视图日志（%1）：%2</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>tools/call needs a tool name</source>
        <translation>tools/call 需要工具名</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the arguments of tools/call must be an object</source>
        <translation>tools/call 的参数必须是对象</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>refused: the view asked for tool &apos;%1&apos;, which its server &apos;%2&apos; does not have</source>
        <translation>已拒绝：视图请求了工具“%1”，但其服务器“%2”没有该工具</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no tool &apos;%1&apos; on this view&apos;s server</source>
        <translation>此视图的服务器上没有工具“%1”</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>refused: tool &apos;%1&apos; is not for views (its visibility lacks &quot;app&quot;)</source>
        <translation>已拒绝：工具“%1”不供视图调用（其可见性不含“app”）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>tool &apos;%1&apos; is not callable by views</source>
        <translation>视图不能调用工具“%1”</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>a request with this id is still running</source>
        <translation>使用此 id 的请求仍在运行</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>throttled: the view calls tools too often</source>
        <translation>已限流：视图调用工具过于频繁</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>too many tool calls: at most %1 at once and %2 a minute; try again later</source>
        <translation>工具调用过多：最多同时 %1 个、每分钟 %2 个；请稍后再试</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>resources/read needs a uri</source>
        <translation>resources/read 需要 URI</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the server &apos;%1&apos; is not connected</source>
        <translation>服务器“%1”未连接</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>refused: ui/open-link of a URL that is not http or https</source>
        <translation>已拒绝：ui/open-link 的 URL 不是 http 或 https</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the person is still being asked about a link</source>
        <translation>仍在询问用户是否打开另一个链接</translation>
    </message>
    <message>
        <location line="+152"/>
        <source>the view did not answer ui/resource-teardown within %1 s; closed anyway</source>
        <translation>视图未在 %1 秒内应答 ui/resource-teardown；已强制关闭</translation>
    </message>
</context>
<context>
    <name>Engine::ApprovalStore</name>
    <message>
        <location filename="../src/engine/approval/approvalstore.cpp" line="+48"/>
        <source>cannot read %1</source>
        <translation>无法读取 %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 is not an approvals file (fix or delete it)</source>
        <translation>%1 不是批准记录文件（请修复或删除它）</translation>
    </message>
</context>
<context>
    <name>Engine::Attachment</name>
    <message numerus="yes">
        <location filename="../src/engine/llm/llm.cpp" line="+57"/>
        <source>[%1 %2, %n bytes]</source>
        <translation>
            <numerusform>[%1 %2，%n 字节]</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Engine::AuditLog</name>
    <message>
        <location filename="../src/engine/approval/auditlog.cpp" line="+191"/>
        <source>Cannot rotate the audit log %1.</source>
        <translation>无法轮转审计日志 %1。</translation>
    </message>
</context>
<context>
    <name>Engine::BuiltinTools</name>
    <message>
        <location filename="../src/engine/tools/builtintool.h" line="+63"/>
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
        <location filename="../src/engine/tools/builtintool.cpp" line="+43"/>
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
        <location filename="../src/engine/tools/builtintool.h" line="+91"/>
        <source>%1 touches &apos;%2&apos;, which may hold secrets (it matches &quot;%3&quot; in the list of sensitive files)</source>
        <translation>%1 涉及“%2”，它可能包含机密（与敏感文件列表中的“%3”匹配）</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>%1 failed: %2</source>
        <translation>%1 失败：%2</translation>
    </message>
    <message>
        <location filename="../src/engine/tools/readfiletool.cpp" line="+20"/>
        <source>Read a text file in the workspace. Each output line is the line number, a tab, then the line as it is in the file (the number and tab are not part of the file: leave them out when you quote text for edit_file). Reads up to 2000 lines from `offset` (1-based, default 1); when more remain, the output ends with the offset to continue from. Binary files and files over 10 MiB are refused. Paths are relative to the workspace root.</source>
        <translation>读取工作区中的文本文件。每行输出依次为行号、一个制表符，以及文件中该行的原文（行号和制表符不属于文件内容：为 edit_file 引用文本时请去掉它们）。从 `offset`（从 1 开始，默认为 1）起最多读取 2000 行；若还有剩余，输出末尾会给出继续读取的 offset。拒绝读取二进制文件和超过 10 MiB 的文件。路径相对于工作区根目录。</translation>
    </message>
    <message>
        <location line="+46"/>
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
        <location filename="../src/engine/tools/listdirtool.cpp" line="+20"/>
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
        <location filename="../src/engine/tools/searchjob.h" line="+42"/>
        <source>search_files was cancelled</source>
        <translation>search_files 已取消</translation>
    </message>
    <message numerus="yes">
        <location line="+115"/>
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
    <message numerus="yes">
        <location line="+3"/>
        <source>[%n files that may hold secrets (.env, keys, ...) were not searched; search again with include_sensitive: true to ask the user]</source>
        <translation>
            <numerusform>[有 %n 个可能包含机密的文件（.env、密钥等）未被搜索；如需询问用户，请以 include_sensitive: true 重新搜索]</numerusform>
        </translation>
    </message>
    <message>
        <location line="+6"/>
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
        <location filename="../src/engine/tools/searchfilestool.cpp" line="+22"/>
        <source>search_files asks to search inside files that may hold secrets (include_sensitive; see the list of sensitive files)</source>
        <translation>search_files 请求在可能包含机密的文件中搜索（include_sensitive；参见敏感文件列表）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Find files in the workspace by glob pattern, and optionally the lines in them that contain a text or match a regular expression. Patterns are relative to the workspace root: `*` and `?` match within one path segment, `**/` any number of directories, `{a,b}` alternatives, `[abc]` a character; a pattern without &apos;/&apos; (like `*.cpp`) matches file names at any depth. Without `query` the result is the matching paths, one per line; with it, each matching line as `path:line: text`. Skips .git, node_modules, build directories and binary files unless the pattern starts inside them, and does not search inside files that may hold secrets (.env, keys) unless `include_sensitive` is true. Results are capped (`max_results`, default 100).</source>
        <translation>按 glob 模式查找工作区中的文件，并可选地查找其中包含某段文本或匹配某个正则表达式的行。模式相对于工作区根目录：`*` 和 `?` 在单个路径段内匹配，`**/` 匹配任意层目录，`{a,b}` 表示备选项，`[abc]` 匹配一个字符；不含“/”的模式（如 `*.cpp`）匹配任意深度的文件名。不带 `query` 时，结果为匹配的路径，每行一个；带 `query` 时，每个匹配行显示为 `path:line: text`。除非模式本身从其中开始，否则跳过 .git、node_modules、构建目录和二进制文件；除非 `include_sensitive` 为 true，否则不在可能包含机密的文件（.env、密钥）中搜索。结果数量有上限（`max_results`，默认为 100）。</translation>
    </message>
    <message>
        <location line="+88"/>
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
        <location filename="../src/engine/tools/writefiletool.cpp" line="+16"/>
        <source>Create a file in the workspace, or replace its whole content. Missing parent directories are created. The write is atomic: the file has either its old or its new content, never a part. Content is written as UTF-8, exactly as given. To change part of an existing file, prefer edit_file.</source>
        <translation>在工作区中创建文件，或替换其全部内容。会自动创建缺失的父目录。写入是原子的：文件要么保持旧内容，要么是新内容，绝不会只写入一部分。内容按给定的原样以 UTF-8 写入。要修改现有文件的一部分，请优先使用 edit_file。</translation>
    </message>
    <message>
        <location line="+44"/>
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
        <location filename="../src/engine/tools/editfiletool.cpp" line="+16"/>
        <source>Replace text in a file of the workspace. `old_string` must match the file exactly, including whitespace and indentation (without read_file&apos;s line-number prefixes), and must occur exactly once, unless `replace_all` is true; include enough surrounding lines to make it unique. The file is rewritten atomically. Read the file before editing it.</source>
        <translation>替换工作区中某个文件里的文本。`old_string` 必须与文件内容完全一致，包括空白和缩进（不含 read_file 的行号前缀），并且除非 `replace_all` 为 true，否则必须恰好出现一次；请包含足够多的上下文行以使其唯一。文件会被原子地重写。编辑前请先读取该文件。</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>&apos;old_string&apos; is empty; to create or replace a whole file use write_file</source>
        <translation>“old_string”为空；要创建或替换整个文件，请使用 write_file</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&apos;old_string&apos; and &apos;new_string&apos; are the same; nothing to change</source>
        <translation>“old_string”与“new_string”相同；无需修改</translation>
    </message>
    <message>
        <location line="+82"/>
        <source>&apos;%1&apos; is not valid UTF-8; edit_file changes UTF-8 text only</source>
        <translation>“%1”不是有效的 UTF-8；edit_file 只能修改 UTF-8 文本</translation>
    </message>
    <message>
        <location line="-37"/>
        <source>&apos;old_string&apos; was not found in &apos;%1&apos;; read the file again and copy the text exactly, including whitespace and indentation</source>
        <translation>在“%1”中未找到“old_string”；请重新读取文件，并准确复制文本，包括空白和缩进</translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>&apos;old_string&apos; occurs %n times in &apos;%1&apos;; include more surrounding lines to make it unique, or set replace_all to true</source>
        <translation>
            <numerusform>“old_string”在“%1”中出现了 %n 次；请包含更多上下文行使其唯一，或将 replace_all 设为 true</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+39"/>
        <source>Edited %1: replaced %n occurrence(s), the first at line %2.</source>
        <translation>
            <numerusform>已编辑 %1：替换了 %n 处，第一处位于第 %2 行。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../src/engine/tools/bashrun.cpp" line="+18"/>
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
        <location filename="../src/engine/tools/bashrun.h" line="+47"/>
        <source>bash was not run: %1</source>
        <translation>bash 未运行：%1</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>[cancelled before the command started]</source>
        <translation>[命令开始前已取消]</translation>
    </message>
    <message>
        <location line="+29"/>
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
        <location line="+9"/>
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
        <location filename="../src/engine/tools/bashtool.cpp" line="+21"/>
        <source>Run a command with `bash -c` in the workspace root. The result is the combined stdout and stderr, then the exit code; a non-zero exit is reported as an error. Long output is shortened to its beginning and end. stdin is empty, so interactive commands fail instead of waiting. The command and everything it started are killed after `timeout_ms` (at most 600000, i.e. 10 minutes) and when it ends, so do not start servers in the background. Prefer read_file, list_dir, search_files and edit_file for files.</source>
        <translation>在工作区根目录中用 `bash -c` 运行命令。结果为合并后的 stdout 和 stderr，随后是退出码；非零退出码会作为错误报告。过长的输出只保留开头和结尾。stdin 为空，因此交互式命令会直接失败而不会等待。命令及其启动的所有进程会在 `timeout_ms`（最多 600000，即 10 分钟）后以及命令结束时被终止，因此不要在后台启动服务器。处理文件时请优先使用 read_file、list_dir、search_files 和 edit_file。</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>&apos;command&apos; is empty</source>
        <translation>“command”为空</translation>
    </message>
    <message>
        <location line="+2"/>
        <location filename="../src/engine/tools/workspace.cpp" line="+142"/>
        <source>the workspace folder %1 does not exist</source>
        <translation>工作区文件夹 %1 不存在</translation>
    </message>
    <message>
        <location filename="../src/engine/tools/workspace.cpp" line="+2"/>
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
    <name>Engine::BundleDownload</name>
    <message>
        <location filename="../src/engine/install/bundledownload.cpp" line="+30"/>
        <source>%1 is not an MCP Bundle</source>
        <translation>%1 不是 MCP 扩展包</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 names no SHA-256 of the file: Switchboard installs a download only when it can check it</source>
        <translation>%1 未给出文件的 SHA-256：Switchboard 只安装能够校验的下载</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>%1 cannot be created</source>
        <translation>无法创建 %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+24"/>
        <location line="+32"/>
        <source>%1 cannot be written: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location line="-38"/>
        <source>%1 is larger than %2 MiB</source>
        <translation>%1 大于 %2 MiB</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>%1 did not answer within %2 s</source>
        <translation>%1 在 %2 秒内没有响应</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 answered HTTP %2</source>
        <translation>%1 返回了 HTTP %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 cannot be fetched: %2</source>
        <translation>无法获取 %1：%2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 is not the file the registry names: its SHA-256 is %2, not %3</source>
        <translation>%1 不是注册表所列的文件：其 SHA-256 为 %2，而不是 %3</translation>
    </message>
</context>
<context>
    <name>Engine::BundleInstaller</name>
    <message>
        <location filename="../src/engine/install/bundleinstaller.cpp" line="+51"/>
        <source>%1 cannot be created</source>
        <translation>无法创建 %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 could not be moved aside</source>
        <translation>无法将 %1 移到一旁</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>the new version could not be put in %1</source>
        <translation>无法将新版本放入 %1</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>node is not installed: this extension needs Node.js (on Debian: sudo apt install nodejs)</source>
        <translation>未安装 node：此扩展需要 Node.js（Debian 上：sudo apt install nodejs）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>python3 is not installed: this extension needs Python (on Debian: sudo apt install python3)</source>
        <translation>未安装 python3：此扩展需要 Python（Debian 上：sudo apt install python3）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>uv is not installed: this extension needs it (pipx install uv)</source>
        <translation>未安装 uv：此扩展需要它（pipx install uv）</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>%1 was not installed from the extension %2</source>
        <translation>%1 不是从扩展 %2 安装的</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 %2 is installed; this file holds version %3, which is not newer</source>
        <translation>已安装 %1 %2；此文件的版本为 %3，并不更新</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>%1 is installed already (%2): uninstall it first</source>
        <translation>%1 已安装（%2）：请先卸载</translation>
    </message>
</context>
<context>
    <name>Engine::CommandPattern</name>
    <message>
        <location filename="../src/engine/policy/commandpattern.cpp" line="+73"/>
        <source>git %1 sets configuration that can run other programs</source>
        <translation>git %1 设置的配置可以运行其他程序</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>git %1 can discard work or rewrite history</source>
        <translation>git %1 可能丢弃工作或改写历史</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>it sets environment variables for the command it runs</source>
        <translation>它为所运行的命令设置环境变量</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 runs a command with other privileges</source>
        <translation>%1 以其他权限运行命令</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 runs another command or file named in its arguments</source>
        <translation>%1 运行其参数中指定的另一个命令或文件</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 can delete or overwrite data</source>
        <translation>%1 可能删除或覆盖数据</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 runs a program written in its arguments</source>
        <translation>%1 运行写在其参数中的程序</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 with options can run code given on its command line (-c, -e, -m)</source>
        <translation>带选项的 %1 可以运行命令行中给出的代码（-c、-e、-m）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 -R changes a whole tree</source>
        <translation>%1 -R 会改动整个目录树</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>find with -exec or -delete runs commands or deletes files</source>
        <translation>带 -exec 或 -delete 的 find 会运行命令或删除文件</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 reaches the network with arguments that decide what it sends or writes</source>
        <translation>%1 访问网络，其参数决定它发送或写入什么</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 %2 installs, removes or runs the packages named in its arguments</source>
        <translation>%1 %2 会安装、移除或运行其参数中指定的软件包</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 %2 runs or removes what its arguments name</source>
        <translation>%1 %2 会运行或移除其参数所指定的内容</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>the command contains %1, which bash expands only when it runs, so it is asked every time</source>
        <translation>该命令包含 %1，bash 只在运行时才会展开它，因此每次都会询问</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the command contains %1</source>
        <translation>该命令包含 %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the command is empty</source>
        <translation>命令为空</translation>
    </message>
</context>
<context>
    <name>Engine::ContextFit</name>
    <message>
        <location filename="../src/engine/llm/contextfit.cpp" line="+35"/>
        <source>
… [%n characters of this earlier result left out to fit the context window] …
</source>
        <translation>
… [为适应上下文窗口，此较早结果省略了 %n 个字符] …
</translation>
    </message>
    <message>
        <location line="+80"/>
        <source>[%n earlier messages of this conversation were left out to fit the context window.]</source>
        <translation>[为适应上下文窗口，本对话中较早的 %n 条消息未发送。]</translation>
    </message>
</context>
<context>
    <name>Engine::ConversationExport</name>
    <message>
        <location filename="../src/engine/storage/conversationexport.cpp" line="+27"/>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tool result</source>
        <translation>工具结果</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>%1 (denied)</source>
        <translation>%1（已拒绝）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 (error)</source>
        <translation>%1（出错）</translation>
    </message>
    <message>
        <location line="+7"/>
        <location line="+72"/>
        <source>(untitled)</source>
        <translation>（无标题）</translation>
    </message>
    <message numerus="yes">
        <location line="-70"/>
        <source>Workspace: `%1` · started %2 · %n message(s)</source>
        <translation>
            <numerusform>工作区：`%1` · 开始于 %2 · %n 条消息</numerusform>
        </translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+121"/>
        <source>Result of %1</source>
        <translation>%1 的结果</translation>
    </message>
    <message>
        <location line="-104"/>
        <location line="+92"/>
        <source>Attached: %1 (%2 bytes)</source>
        <translation>附件：%1（%2 字节）</translation>
    </message>
    <message>
        <location line="-84"/>
        <location line="+117"/>
        <source>Tool call %1</source>
        <translation>工具调用 %1</translation>
    </message>
    <message numerus="yes">
        <location line="-45"/>
        <source>Workspace: %1 · started %2 · %n message(s)</source>
        <translation>
            <numerusform>工作区：%1 · 开始于 %2 · %n 条消息</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Engine::ConversationStore</name>
    <message>
        <location filename="../src/engine/storage/conversationfile.cpp" line="+81"/>
        <source>The conversation file %1 is damaged: its first line is not a conversation header.</source>
        <translation>对话文件 %1 已损坏：第一行不是对话头。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The conversation file %1 has format version %2, which this version of Switchboard cannot read.</source>
        <translation>对话文件 %1 的格式版本为 %2，此版本的 Switchboard 无法读取。</translation>
    </message>
    <message>
        <location line="+47"/>
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
        <location filename="../src/engine/storage/conversationstore.cpp" line="+241"/>
        <source>There is no conversation file %1.</source>
        <translation>对话文件 %1 不存在。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The conversation file %1 is larger than %2 MiB.</source>
        <translation>对话文件 %1 超过 %2 MiB。</translation>
    </message>
    <message>
        <location filename="../src/engine/storage/conversationstore.cpp" line="-137"/>
        <source>&apos;%1&apos; is not a valid conversation id.</source>
        <translation>“%1”不是有效的对话 ID。</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>The disk did not confirm the write of %1: %2</source>
        <translation>磁盘未确认 %1 的写入：%2</translation>
    </message>
    <message>
        <location line="+112"/>
        <location line="+42"/>
        <source>Cannot write the conversation file %1: %2</source>
        <translation>无法写入对话文件 %1：%2</translation>
    </message>
    <message>
        <location line="-50"/>
        <source>Cannot open the conversation file %1 for writing.</source>
        <translation>无法打开对话文件 %1 进行写入。</translation>
    </message>
    <message>
        <location filename="../src/engine/storage/conversationblobs.cpp" line="+105"/>
        <source>The whole result kept with this conversation is missing or was altered; only the model&apos;s share is shown.</source>
        <translation>随此对话保存的完整结果已丢失或被改动；只显示模型读到的部分。</translation>
    </message>
    <message>
        <location filename="../src/engine/storage/conversationstore.cpp" line="+144"/>
        <source>Cannot delete the conversation file %1: %2</source>
        <translation>无法删除对话文件 %1：%2</translation>
    </message>
</context>
<context>
    <name>Engine::Elicitation</name>
    <message>
        <location filename="../src/engine/serverrequests/elicitation.cpp" line="+44"/>
        <source> [… cut]</source>
        <translation> [… 已截断]</translation>
    </message>
</context>
<context>
    <name>Engine::FileChange</name>
    <message>
        <location filename="../src/engine/tools/filechange.cpp" line="+213"/>
        <source>Too large to compare: more than %1.</source>
        <translation>太大，无法比较：超过 %1。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Binary content: not compared line by line.</source>
        <translation>二进制内容：不逐行比较。</translation>
    </message>
    <message numerus="yes">
        <location line="+9"/>
        <source>Too different to compare: %n lines changed.</source>
        <translation>
            <numerusform>差异太大，无法比较：%n 行有改动。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+13"/>
        <source>… %n more lines not shown</source>
        <translation>
            <numerusform>…… 另有 %n 行未显示</numerusform>
        </translation>
    </message>
    <message>
        <location line="+22"/>
        <source>&apos;%1&apos; is a folder.</source>
        <translation>“%1”是一个文件夹。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&apos;%1&apos; is not a regular file.</source>
        <translation>“%1”不是普通文件。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&apos;%1&apos; may hold secrets (it matches &quot;%2&quot;): its content is not shown.</source>
        <translation>“%1”可能含有机密（它匹配“%2”）：不显示其内容。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Cannot read &apos;%1&apos;: %2</source>
        <translation>无法读取“%1”：%2</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>&apos;%1&apos; does not exist.</source>
        <translation>“%1”不存在。</translation>
    </message>
    <message>
        <location line="+85"/>
        <source>The text to replace is not in &apos;%1&apos;: the server may refuse the call.</source>
        <translation>要替换的文本不在“%1”中：服务器可能会拒绝此调用。</translation>
    </message>
    <message numerus="yes">
        <location line="+14"/>
        <source>new file, %n line(s)</source>
        <translation>
            <numerusform>新文件，%n 行</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no change</source>
        <translation>无改动</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>new file, %1</source>
        <translation>新文件，%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
</context>
<context>
    <name>Engine::InstallLink</name>
    <message>
        <location filename="../src/engine/install/installlink.cpp" line="+36"/>
        <source>the install link is longer than %1 characters</source>
        <translation>安装链接超过 %1 个字符</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the install link holds a control character</source>
        <translation>安装链接含有控制字符</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&apos;%1&apos; is not an MCP Bundle (.mcpb) nor a switchboard:// link</source>
        <translation>“%1”既不是 MCP 扩展包（.mcpb），也不是 switchboard:// 链接</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1: no such file</source>
        <translation>%1：没有这个文件</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&apos;%1&apos; is not an install link (switchboard://install?…)</source>
        <translation>“%1”不是安装链接（switchboard://install?…）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the install link has a parameter &apos;%1&apos; it may not have (name, or bundle and sha256)</source>
        <translation>安装链接含有不允许的参数“%1”（只能是 name，或 bundle 与 sha256）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the install link gives &apos;%1&apos; twice</source>
        <translation>安装链接两次给出“%1”</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the install link names neither one registry entry (name=) nor one bundle (bundle=)</source>
        <translation>安装链接既没有指明一个注册表条目（name=），也没有指明一个扩展包（bundle=）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&apos;%1&apos; is not the name of a registry entry</source>
        <translation>“%1”不是注册表条目的名称</translation>
    </message>
</context>
<context>
    <name>Engine::InstalledServer</name>
    <message>
        <location filename="../src/engine/install/installedserver.cpp" line="+117"/>
        <source>no server named &apos;%1&apos; in %2</source>
        <translation>%2 中没有名为“%1”的服务器</translation>
    </message>
    <message>
        <location line="+0"/>
        <source> or </source>
        <translation> 或 </translation>
    </message>
    <message>
        <location line="+21"/>
        <source>removed %1 from %2</source>
        <translation>已从 %2 中移除 %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>removed %1</source>
        <translation>已移除 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 could not be removed</source>
        <translation>无法移除 %1</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>secret %1 deleted from the keychain</source>
        <translation>已从钥匙串删除密钥 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the secret %1 could not be deleted: %2</source>
        <translation>无法删除密钥 %1：%2</translation>
    </message>
</context>
<context>
    <name>Engine::McpTool</name>
    <message>
        <location filename="../src/engine/tools/mcptooladapter.cpp" line="+99"/>
        <source>MCP server &apos;%1&apos; is not connected (%2).</source>
        <translation>MCP 服务器“%1”未连接（%2）。</translation>
    </message>
</context>
<context>
    <name>Engine::OpenAiProvider</name>
    <message>
        <location filename="../src/engine/llm/openaiprovider.cpp" line="+241"/>
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
    <name>Engine::PrivateFiles</name>
    <message>
        <location filename="../src/engine/storage/privatefiles.cpp" line="+30"/>
        <source>Cannot create the folder %1.</source>
        <translation>无法创建文件夹 %1。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Cannot make the folder %1 private to its owner.</source>
        <translation>无法将文件夹 %1 设为仅其所有者可访问。</translation>
    </message>
    <message>
        <location line="+14"/>
        <location line="+7"/>
        <location line="+15"/>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Cannot make %1 private to its owner.</source>
        <translation>无法将 %1 设为仅其所有者可访问。</translation>
    </message>
</context>
<context>
    <name>Engine::ProviderConfig</name>
    <message>
        <location filename="../src/engine/llm/providerconfig.cpp" line="+69"/>
        <source>no model provider is configured: set OPENAI_API_KEY (and optionally OPENAI_MODEL, or OPENAI_BASE_URL for an OpenAI-compatible server such as Ollama, vLLM or llama.cpp), or ANTHROPIC_API_KEY (and optionally ANTHROPIC_MODEL), or choose a provider in Settings</source>
        <translation>未配置模型提供方：请设置 OPENAI_API_KEY（可选 OPENAI_MODEL；若使用 Ollama、vLLM 或 llama.cpp 等 OpenAI 兼容服务器，可设置 OPENAI_BASE_URL），或设置 ANTHROPIC_API_KEY（可选 ANTHROPIC_MODEL），或在“设置”中选择提供方</translation>
    </message>
</context>
<context>
    <name>Engine::Sampling</name>
    <message>
        <location filename="../src/engine/serverrequests/sampling.cpp" line="+31"/>
        <source>[%1 %2 from the server, not shown to the model]</source>
        <translation>[来自服务器的 %1 %2，未展示给模型]</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>content</source>
        <translation>内容</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>the request&apos;s params are not an object</source>
        <translation>请求的 params 不是对象</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+61"/>
        <source>the request needs 1 to %1 messages</source>
        <translation>请求需要 1 到 %1 条消息</translation>
    </message>
    <message>
        <location line="-54"/>
        <source>maxTokens must be a positive number</source>
        <translation>maxTokens 必须是正数</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>a message is not an object</source>
        <translation>某条消息不是对象</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>a message&apos;s role must be user or assistant</source>
        <translation>消息的 role 必须是 user 或 assistant</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>the request&apos;s text is %1 characters; at most %2 are taken</source>
        <translation>请求的文本有 %1 个字符；最多接受 %2 个</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>tools must be a list of at most %1 tools</source>
        <translation>tools 必须是最多 %1 个工具的列表</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>a tool needs a name and an inputSchema object</source>
        <translation>工具需要 name 和 inputSchema 对象</translation>
    </message>
</context>
<context>
    <name>Engine::Sampling::Sampler</name>
    <message>
        <location line="+72"/>
        <source>Invalid sampling request: %1</source>
        <translation>无效的采样请求：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No model is configured to answer sampling requests.</source>
        <translation>没有配置可回答采样请求的模型。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Too many sampling requests from %1 (at most %2 a minute).</source>
        <translation>来自 %1 的采样请求过多（每分钟最多 %2 个）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The user declined the sampling request.</source>
        <translation>用户拒绝了采样请求。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The client is closing.</source>
        <translation>客户端正在关闭。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>The user did not let the model&apos;s answer go back.</source>
        <translation>用户没有让模型的回答返回。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The model failed: %1</source>
        <translation>模型失败：%1</translation>
    </message>
</context>
<context>
    <name>Engine::SecretStore</name>
    <message>
        <location filename="../src/engine/secrets/secretstore.cpp" line="+42"/>
        <source>no keychain service is running (such as GNOME Keyring or KWallet)</source>
        <translation>没有正在运行的钥匙串服务（例如 GNOME Keyring 或 KWallet）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>access to the keychain was refused</source>
        <translation>访问钥匙串被拒绝</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the keychain denied access (is it locked?)</source>
        <translation>钥匙串拒绝访问（是否已锁定？）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>this system has no keychain Switchboard can use</source>
        <translation>此系统没有 Switchboard 可用的钥匙串</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the keychain could not delete the key</source>
        <translation>钥匙串无法删除该密钥</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the keychain failed (error %1)</source>
        <translation>钥匙串出错（错误 %1）</translation>
    </message>
</context>
<context>
    <name>Engine::ServerInstaller</name>
    <message>
        <location filename="../src/engine/install/serverinstaller.cpp" line="+47"/>
        <source>choose one package or one remote of %1 to install</source>
        <translation>请选择 %1 的一个软件包或一个远程服务器来安装</translation>
    </message>
    <message>
        <location line="+98"/>
        <source>a server named &apos;%1&apos; exists already</source>
        <translation>已有名为“%1”的服务器</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>npx is not installed: this server needs Node.js and npm (on Debian: sudo apt install nodejs npm)</source>
        <translation>未安装 npx：此服务器需要 Node.js 和 npm（Debian 上：sudo apt install nodejs npm）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>uvx is not installed: this server needs uv (pipx install uv, or pip install --user uv)</source>
        <translation>未安装 uvx：此服务器需要 uv（pipx install uv，或 pip install --user uv）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>docker is not installed: this server runs in a container (on Debian: sudo apt install docker.io)</source>
        <translation>未安装 docker：此服务器在容器中运行（Debian 上：sudo apt install docker.io）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 is not installed</source>
        <translation>未安装 %1</translation>
    </message>
    <message>
        <location line="+107"/>
        <source>No keychain answered, so %1 was not stored: export %2 with its value before Switchboard starts</source>
        <translation>没有钥匙串响应，因此未存储 %1：请在启动 Switchboard 之前导出 %2 并设为其值</translation>
    </message>
    <message>
        <location line="+70"/>
        <source>%1 was not installed from the registry entry %2</source>
        <translation>%1 不是从注册表条目 %2 安装的</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 %2 is installed, and the registry&apos;s latest version is %3: there is nothing to update</source>
        <translation>已安装 %1 %2，注册表的最新版本是 %3：没有可更新的内容</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 is a remote server: whoever runs it updates it; there is nothing to install here</source>
        <translation>%1 是远程服务器：由运行它的一方负责更新；这里没有需要安装的内容</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>uninstall it and install it again</source>
        <translation>请卸载后重新安装</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>version %1 of %2 no longer has the %3 package %4: %5</source>
        <translation>%2 的 %1 版本已不再提供 %3 包 %4：%5</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Switchboard cannot update a %1 package</source>
        <translation>Switchboard 无法更新 %1 包</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>the definition of %1 no longer names %2 (was it edited?): %3</source>
        <translation>%1 的定义中已不再包含 %2（是否被手动编辑过？）：%3</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>version %1 of %2 asks for %3, which %4 has no value for: %5</source>
        <translation>%2 的 %1 版本需要 %3，而 %4 中没有它的值：%5</translation>
    </message>
</context>
<context>
    <name>Engine::ServerPolicy</name>
    <message>
        <location filename="../src/engine/policy/serverpolicy.cpp" line="+29"/>
        <source>&quot;read&quot;, &quot;mutating&quot; or &quot;dangerous&quot;</source>
        <extracomment>The values &quot;risk&quot; accepts: keep the quoted words as they are.</extracomment>
        <translation>&quot;read&quot;、&quot;mutating&quot; 或 &quot;dangerous&quot;</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>a string: </source>
        <translation>字符串：</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>unknown %1 &apos;%2&apos;; expected %3</source>
        <translation>未知的 %1 值 “%2”；应为 %3</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>an object such as {&quot;tool&quot;: {&quot;risk&quot;: &quot;read&quot;}}</source>
        <translation>对象，例如 {&quot;tool&quot;: {&quot;risk&quot;: &quot;read&quot;}}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>an object such as {&quot;risk&quot;: &quot;read&quot;}</source>
        <translation>对象，例如 {&quot;risk&quot;: &quot;read&quot;}</translation>
    </message>
    <message>
        <location line="+18"/>
        <location line="+6"/>
        <source>true or false</source>
        <translation>true 或 false</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>a list of tool names</source>
        <translation>工具名称列表</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>a string</source>
        <translation>字符串</translation>
    </message>
</context>
<context>
    <name>Engine::ServerSecrets</name>
    <message>
        <location filename="../src/engine/secrets/serversecrets.cpp" line="+38"/>
        <source>%1 cannot be read: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 is larger than a list of names can be</source>
        <translation>%1 超出了名称列表可能的大小</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 is not a list of secret names ({&quot;names&quot;: [...]})</source>
        <translation>%1 不是密钥名称列表（{&quot;names&quot;: [...]}）</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>&apos;%1&apos; cannot name a secret: use a letter or &apos;_&apos; first, then letters, digits, &apos;_&apos;, &apos;-&apos; or &apos;.&apos; (at most %2 characters)</source>
        <translation>“%1”不能作为密钥名称：应以字母或“_”开头，后跟字母、数字、“_”、“-”或“.”（最多 %2 个字符）</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>the secret %1 would be empty</source>
        <translation>密钥 %1 将为空</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the secret %1 is longer than %2 characters</source>
        <translation>密钥 %1 超过 %2 个字符</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the secret %1 holds a NUL character, which no program can be given</source>
        <translation>密钥 %1 含有 NUL 字符，无法传给任何程序</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>%1 is in the keychain, but its name could not be listed: %2</source>
        <translation>%1 已存入钥匙串，但无法记录其名称：%2</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>the secret %1 could not be read from the keychain: %2</source>
        <translation>无法从钥匙串读取密钥 %1：%2</translation>
    </message>
</context>
<context>
    <name>Engine::Session</name>
    <message>
        <location filename="../src/engine/session.cpp" line="+70"/>
        <source>Audit log: %1</source>
        <translation>审计日志：%1</translation>
    </message>
    <message>
        <location line="+78"/>
        <source>Instructions from the MCP server &quot;%1&quot; (the server&apos;s own words about its tools; they do not come from the user):
%2</source>
        <translation>MCP 服务器“%1”的说明（服务器自己对其工具的描述，并非来自用户）：
%2</translation>
    </message>
    <message>
        <location line="+119"/>
        <source>a workspace&apos;s server reads keychain secrets only once you trust it</source>
        <translation>工作区的服务器只有在你信任它之后才能读取钥匙串中的密钥</translation>
    </message>
</context>
<context>
    <name>Engine::ShellWords</name>
    <message>
        <location filename="../src/engine/policy/shellwords.cpp" line="+41"/>
        <source>an unterminated quote</source>
        <translation>未闭合的引号</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>an invisible or control character (U+%1)</source>
        <translation>不可见字符或控制字符（U+%1）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>a newline</source>
        <translation>换行符</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>a backslash at the end</source>
        <translation>末尾的反斜杠</translation>
    </message>
</context>
<context>
    <name>Engine::SignIn</name>
    <message>
        <location filename="../src/engine/secrets/signin.cpp" line="+81"/>
        <source>sign-in needed</source>
        <translation>需要登录</translation>
    </message>
    <message>
        <location line="+106"/>
        <source>&apos;%1&apos; has not asked for a sign-in</source>
        <translation>“%1”尚未要求登录</translation>
    </message>
</context>
<context>
    <name>Engine::SkillCatalog</name>
    <message>
        <location filename="../src/engine/tools/skilltool.cpp" line="+116"/>
        <source>There is no skill &apos;%1&apos;. Skills: %2.</source>
        <translation>没有名为“%1”的技能。现有技能：%2。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Several servers have a skill &apos;%1&apos;: name one of %2.</source>
        <translation>多个服务器都有技能“%1”：请指明其中之一：%2。</translation>
    </message>
</context>
<context>
    <name>Engine::StreamingLlmProvider</name>
    <message>
        <location filename="../src/engine/llm/streamingllmprovider.cpp" line="+259"/>
        <source>%1 at %2</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location line="+92"/>
        <source>%1 answered with a JSON document over %2 MiB</source>
        <translation>%1 返回的 JSON 文档超过 %2 MiB</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>%1 reported an error: %2</source>
        <translation>%1 报告错误：%2</translation>
    </message>
    <message>
        <location line="-192"/>
        <location line="+205"/>
        <location line="+55"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="-332"/>
        <source>the model list is not a list of models</source>
        <translation>模型列表的内容不是模型列表</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>%1: could not list the models (%2)</source>
        <translation>%1：无法列出模型（%2）</translation>
    </message>
    <message>
        <location line="+249"/>
        <source>the response ended before the model finished</source>
        <translation>模型尚未完成，响应就已结束</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1: the stream broke: %2</source>
        <translation>%1：流中断：%2</translation>
    </message>
    <message>
        <location line="-198"/>
        <source>%1 answered HTTP %2: %3. Check the API key (%4) and the base URL.</source>
        <translation>%1 返回 HTTP %2：%3。请检查 API key（%4）和 base URL。</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>unauthorized</source>
        <translation>未授权</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the key saved in Settings</source>
        <translation>设置中保存的密钥</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 from the environment</source>
        <translation>环境变量 %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>no key was sent</source>
        <translation>未发送密钥</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 refused the API key of the profile &quot;%2&quot; (%3): HTTP %4: %5. Check the key in Settings.</source>
        <translation>%1 拒绝了配置“%2”的 API 密钥（%3）：HTTP %4：%5。请在设置中检查该密钥。</translation>
    </message>
    <message>
        <location line="+208"/>
        <source>%1 answered HTTP %2</source>
        <translation>%1 返回 HTTP %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 answered HTTP %2: %3</source>
        <translation>%1 返回 HTTP %2：%3</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>%1 answered with a JSON document that is not a completion: %2</source>
        <translation>%1 返回的 JSON 文档不是补全结果：%2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1: the response ended before the model finished</source>
        <translation>%1：模型尚未完成，响应就已结束</translation>
    </message>
    <message>
        <location line="+10"/>
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
    <name>Engine::SubagentTool</name>
    <message>
        <location filename="../src/engine/agent/subagenttool.cpp" line="+63"/>
        <source>&apos;tools&apos; must be a list of tool names.</source>
        <translation>“tools”必须是工具名称的列表。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>No such tool for a sub-agent: %1. Available: %2.</source>
        <translation>子智能体没有这个工具：%1。可用的有：%2。</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>The sub-agent may use tools that can change something: %1 (each of their calls is asked about again).</source>
        <translation>子智能体可能会使用能更改内容的工具：%1（它们的每次调用都会再次询问）。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&apos;task&apos; is required: what the sub-agent should do.</source>
        <translation>缺少“task”：子智能体要做的事。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>No model is configured for a sub-agent here.</source>
        <translation>这里没有为子智能体配置模型。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Sub-agent: %1</source>
        <translation>子智能体：%1</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>sub-agent: using %1</source>
        <translation>子智能体：正在使用 %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>sub-agent: %1 denied</source>
        <translation>子智能体：%1 已被拒绝</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>sub-agent: %1 done</source>
        <translation>子智能体：%1 已完成</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The sub-agent failed: %1</source>
        <translation>子智能体失败：%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The sub-agent gave no answer.</source>
        <translation>子智能体没有给出回答。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The sub-agent could not start.</source>
        <translation>子智能体无法启动。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The sub-agent was stopped.</source>
        <translation>子智能体已被停止。</translation>
    </message>
</context>
<context>
    <name>Engine::ToolOutput</name>
    <message numerus="yes">
        <location filename="../src/engine/tools/tool.cpp" line="+43"/>
        <source>%n bytes base64</source>
        <translation>
            <numerusform>%n 字节 base64</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+117"/>
        <source>… [cut: %n more characters; the full output is in the UI]</source>
        <translation>
            <numerusform>… [已截断：还有 %n 个字符；完整输出见界面]</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Engine::ToolRegistry</name>
    <message>
        <location filename="../src/engine/tools/toolregistry.cpp" line="+104"/>
        <source>a tool named &apos;%1&apos; already exists (from %2); the one from %3 is not registered</source>
        <translation>名为“%1”的工具已存在（来自 %2）；来自 %3 的同名工具未注册</translation>
    </message>
</context>
<context>
    <name>Engine::ToolRunner</name>
    <message>
        <location filename="../src/engine/approval/toolrunner.cpp" line="+163"/>
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
        <location line="+32"/>
        <source>Denied: &apos;%1&apos; can change something (or reads a sensitive file), and nobody is here to approve it. Only read-only tools may run for this task.</source>
        <translation>已拒绝：“%1”可能会更改内容（或读取敏感文件），而这里没有人可以批准。此任务只能运行只读工具。</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Denied: nobody can approve &apos;%1&apos; here.</source>
        <translation>已拒绝：此处无人可以批准“%1”。</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>The user denied this call to %1.</source>
        <translation>用户拒绝了对 %1 的此次调用。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The user denied this call to %1: %2</source>
        <translation>用户拒绝了对 %1 的此次调用：%2</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Could not save &quot;always allow&quot; for %1: %2</source>
        <translation>无法为 %1 保存“始终允许”：%2</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>%1 timed out after %2 s and was cancelled.</source>
        <translation>%1 在 %2 秒后超时，已取消。</translation>
    </message>
    <message>
        <location line="-20"/>
        <location line="+96"/>
        <source>The call was cancelled.</source>
        <translation>调用已取消。</translation>
    </message>
</context>
<context>
    <name>Engine::TrustStore</name>
    <message>
        <location filename="../src/engine/policy/truststore.cpp" line="+71"/>
        <source>Cannot read the trust decisions in %1.</source>
        <translation>无法读取 %1 中的信任决定。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 is not a trust file Switchboard wrote; no folder&apos;s servers are trusted until it is fixed or removed.</source>
        <translation>%1 不是 Switchboard 写入的信任文件；在修复或删除它之前，不信任任何文件夹的服务器。</translation>
    </message>
    <message>
        <location line="+185"/>
        <source>sets the environment variables %1</source>
        <translation>设置环境变量 %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>sends the headers %1</source>
        <translation>发送请求头 %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 (in %2)</source>
        <translation>%1（在 %2 中）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>reads secrets from your keychain: %1</source>
        <translation>从你的钥匙串读取密钥：%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>also asks to run %1 without asking</source>
        <translation>还请求不经询问即运行 %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>also asks that its tools count as &apos;%1&apos; (%2)</source>
        <translation>还请求将其工具视为“%1”（%2）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>they would run without asking</source>
        <translation>它们将不经询问即运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a lower risk</source>
        <translation>更低的风险</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>also asks to run %1 without asking (risk &apos;read&apos;)</source>
        <translation>还请求不经询问即运行 %1（风险“read”）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>also asks that its own read-only hints be believed (&quot;trust&quot;: true)</source>
        <translation>还请求相信它自己的只读提示（&quot;trust&quot;: true）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>also asks for your whole environment (&quot;inheritEnv&quot;: true)</source>
        <translation>还请求获取你的全部环境变量（&quot;inheritEnv&quot;: true）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>writes only in the workspace</source>
        <translation>只在工作区内写入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>writes in the workspace and in %1</source>
        <translation>在工作区和 %1 中写入</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>with network access</source>
        <translation>可以访问网络</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>without network</source>
        <translation>不能访问网络</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>runs in a sandbox that %1</source>
        <translation>在沙盒中运行，该沙盒%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>${%1} (in %2)</source>
        <translation>${%1}（用于 %2）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>reads your environment variables %1</source>
        <translation>读取你的环境变量 %1</translation>
    </message>
</context>
<context>
    <name>Engine::UseSkillTool</name>
    <message>
        <location filename="../src/engine/tools/skilltool.cpp" line="+50"/>
        <source>Skills are not available.</source>
        <translation>技能不可用。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Load the skill first (use_skill without file): its files are read only once its SKILL.md is verified.</source>
        <translation>请先加载技能（调用 use_skill 时不带 file）：只有在其 SKILL.md 通过校验后才会读取它的文件。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 is not one of the skill&apos;s files: %2</source>
        <translation>%1 不是该技能的文件之一：%2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The MCP server &apos;%1&apos; is not connected.</source>
        <translation>MCP 服务器“%1”未连接。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Reading %1 failed: %2</source>
        <translation>读取 %1 失败：%2</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The skill was not loaded: it does not match what its server listed (%1).</source>
        <translation>未加载该技能：它与服务器列出的内容不符（%1）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>[skill %1 from the MCP server &quot;%2&quot;, %3, verified]</source>
        <translation>[来自 MCP 服务器“%2”的技能 %1，%3，已校验]</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>[its other files, read with use_skill and file: %1]</source>
        <translation>[它的其他文件，可用 use_skill 加 file 读取：%1]</translation>
    </message>
</context>
<context>
    <name>Engine::ViewResources</name>
    <message>
        <location filename="../src/engine/apps/viewresources.cpp" line="+89"/>
        <source>the server &apos;%1&apos; is not connected</source>
        <translation>服务器“%1”未连接</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>resources/read of %1 failed: %2</source>
        <translation>读取 %1（resources/read）失败：%2</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>the server sent no content for %1</source>
        <translation>服务器没有发送 %1 的内容</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>the server sent %1 contents for %2, none of them with its uri</source>
        <translation>服务器为 %2 发送了 %1 项内容，但没有一项带有该 URI</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 is of type &quot;%2&quot;, not %3: it is not a view</source>
        <translation>%1 的类型是“%2”而不是 %3：它不是视图</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>the view %1 is %2 MB, more than the %3 MB a view may be</source>
        <translation>视图 %1 有 %2 MB，超过视图上限 %3 MB</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>the view %1 is not valid base64</source>
        <translation>视图 %1 不是有效的 base64</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the view %1 is empty</source>
        <translation>视图 %1 为空</translation>
    </message>
</context>
<context>
    <name>Gui::AddServerDialog</name>
    <message>
        <location filename="../src/ui/addserverdialog.cpp" line="+49"/>
        <source>Add a server</source>
        <translation>添加服务器</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Search the MCP Registry</source>
        <translation>搜索 MCP 注册表</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>&amp;More results</source>
        <translation>更多结果(&amp;M)</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Choose a server to see what it runs and what it asks for.</source>
        <translation>选择一个服务器，查看它运行什么以及需要填写什么。</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Your configuration (%1)</source>
        <translation>你的配置（%1）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>This workspace (%1)</source>
        <translation>此工作区（%1）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Install &amp;as:</source>
        <translation>安装方式(&amp;A)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add &amp;to:</source>
        <translation>添加到(&amp;T)：</translation>
    </message>
    <message>
        <location line="+19"/>
        <location line="+293"/>
        <source>&amp;Install</source>
        <translation>安装(&amp;I)</translation>
    </message>
    <message>
        <location line="-229"/>
        <source>Searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Offline: the registry could not be asked; these are its results from %1.</source>
        <translation>离线：无法访问注册表；以下是它在 %1 的结果。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>[deprecated]</source>
        <translation>[已弃用]</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>No server found.</source>
        <translation>没有找到服务器。</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n server(s).</source>
        <translation>
            <numerusform>%n 个服务器。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1, version %2</source>
        <translation>%1，版本 %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Source: %1</source>
        <translation>源代码：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Website: %1</source>
        <translation>网站：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Deprecated: %1</source>
        <translation>已弃用：%1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>remote: %1</source>
        <translation>远程：%1</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>one per line</source>
        <translation>每行一个</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Kept in the system keychain, never in a file</source>
        <translation>保存在系统钥匙串中，从不写入文件</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>(secret)</source>
        <translation>（密钥）</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>It asks for nothing.</source>
        <translation>它不需要填写任何内容。</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>Downloads: %1
SHA-256: %2
Then the bundle&apos;s own confirmation shows what it is and asks for its settings.</source>
        <translation>下载：%1
SHA-256：%2
随后扩展包自己的确认窗口会说明它是什么，并询问其设置。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Download…</source>
        <translation>下载(&amp;D)…</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Runs: %1</source>
        <translation>运行：%1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Connects to: %1</source>
        <translation>连接到：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Environment: %1=%2</source>
        <translation>环境变量：%1=%2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Header: %1: %2</source>
        <translation>请求头：%1: %2</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Downloading…</source>
        <translation>正在下载…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Downloading… %1 of %2 KiB</source>
        <translation>正在下载… %1 / %2 KiB</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Downloading… %1 KiB</source>
        <translation>正在下载… %1 KiB</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Installing…</source>
        <translation>正在安装…</translation>
    </message>
</context>
<context>
    <name>Gui::AgentsDock</name>
    <message>
        <location filename="../src/ui/agentsdock.cpp" line="+143"/>
        <location line="+28"/>
        <source>Configure a model first (Settings): inbound tasks need one.</source>
        <translation>请先配置模型（设置）：入站任务需要模型。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Serving on %1 (this machine only). Remote tasks may use read-only tools only.</source>
        <translation>正在 %1 上提供服务（仅限本机）。远程任务只能使用只读工具。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Not serving: %1</source>
        <translation>未提供服务：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Not serving.</source>
        <translation>未提供服务。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1
%2 (%3)</source>
        <translation>%1
%2（%3）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>cannot be used: %1</source>
        <translation>无法使用：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>not trusted yet</source>
        <translation>尚未信任</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>checking…</source>
        <translation>正在检查…</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>unreachable</source>
        <translation>无法访问</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>reachable</source>
        <translation>可访问</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>No agents known: name them in .a2a.json (this workspace) or a2a.json (yours).</source>
        <translation>没有已知的智能体：请在 .a2a.json（此工作区）或 a2a.json（你自己的）中指定。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Agents (%1)</source>
        <translation>智能体（%1）</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>No inbound tasks.</source>
        <translation>没有入站任务。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Inbound tasks (%1)</source>
        <translation>入站任务（%1）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Agents</source>
        <translation>智能体</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Card</source>
        <translation>名片</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+1"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Skills</source>
        <translation>技能</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Request</source>
        <translation>请求</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Answer</source>
        <translation>回答</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Refused tools</source>
        <translation>被拒绝的工具</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Check again</source>
        <translation>重新检查</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Trust</source>
        <translation>信任</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Use the selected workspace agents: their URL and headers (with your variables) will be sent to them.</source>
        <translation>使用所选的工作区智能体：它们的 URL 和请求头（包含你的变量）将被发送给它们。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Serve this workspace as an agent</source>
        <translation>将此工作区作为智能体提供服务</translation>
    </message>
</context>
<context>
    <name>Gui::AppCards</name>
    <message>
        <location filename="../src/ui/appcards.cpp" line="+279"/>
        <source>%1 has an interactive view that this build cannot show. %2 The result is below as text.</source>
        <translation>%1 有一个交互式视图，但此版本无法显示。%2 结果以文本形式显示在下方。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Loading the view of %1…</source>
        <translation>正在加载 %1 的视图…</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>The view of %1 cannot be shown: %2</source>
        <translation>无法显示 %1 的视图：%2</translation>
    </message>
    <message>
        <location line="+218"/>
        <source>refused by the sandbox: %1</source>
        <translation>被沙箱拒绝：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The view of %1 stopped: %2</source>
        <translation>%1 的视图已停止：%2</translation>
    </message>
    <message>
        <location line="+144"/>
        <source>%1 — view</source>
        <translation>%1 — 视图</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>The view is shown in its own window.</source>
        <translation>该视图显示在单独的窗口中。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>camera</source>
        <translation>摄像头</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>microphone</source>
        <translation>麦克风</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>location</source>
        <translation>位置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>camera and microphone</source>
        <translation>摄像头和麦克风</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow the view?</source>
        <translation>允许该视图吗？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The view of %1 asks to use your %2. Allow it for this view?</source>
        <translation>%1 的视图请求使用你的%2。是否允许此视图使用？</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Open a link?</source>
        <translation>打开链接吗？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The view of %1 wants to open this page in your browser:

%2

Site: %3</source>
        <translation>%1 的视图想在你的浏览器中打开此页面：

%2

站点：%3</translation>
    </message>
</context>
<context>
    <name>Gui::AppSettings</name>
    <message>
        <location filename="../src/ui/appsettings.cpp" line="+244"/>
        <source>could not write the settings file %1</source>
        <translation>无法写入设置文件 %1</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>OpenAI-compatible</source>
        <translation>OpenAI 兼容</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Anthropic</source>
        <translation>Anthropic</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Environment variables</source>
        <translation>环境变量</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>not a valid URL: %1</source>
        <translation>不是有效的 URL：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the URL must start with http:// or https://</source>
        <translation>URL 必须以 http:// 或 https:// 开头</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the URL has no host name</source>
        <translation>URL 缺少主机名</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>the base URL in Settings (%1) is not usable: %2</source>
        <translation>设置中的基础 URL（%1）不可用：%2</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>no API key for %1: enter one in Settings or set %2 (a server of your own, such as Ollama or llama.cpp, needs only a base URL)</source>
        <translation>%1 没有 API 密钥：请在设置中填写，或设置 %2（自建服务器，如 Ollama 或 llama.cpp，只需基础 URL）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>profile &quot;%1&quot;: %2</source>
        <translation>配置“%1”：%2</translation>
    </message>
</context>
<context>
    <name>Gui::AppViews</name>
    <message>
        <location filename="../src/ui/appview/webappview.cpp" line="+441"/>
        <source>The view&apos;s page could not be loaded.</source>
        <translation>无法加载视图的页面。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The view&apos;s page stopped unexpectedly.</source>
        <translation>视图的页面意外停止。</translation>
    </message>
    <message>
        <location line="+88"/>
        <source>Views run without Chromium&apos;s own sandbox: Switchboard runs as root.</source>
        <translation>视图在没有 Chromium 自身沙箱的情况下运行：Switchboard 以 root 身份运行。</translation>
    </message>
    <message>
        <location filename="../src/ui/appviewfactory.cpp" line="+61"/>
        <source>%1 is not Switchboard&apos;s view plugin</source>
        <translation>%1 不是 Switchboard 的视图插件</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Qt WebEngine could not be loaded (%1).</source>
        <translation>无法加载 Qt WebEngine（%1）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>This build of Switchboard was made without Qt WebEngine.</source>
        <translation>此版本的 Switchboard 构建时未包含 Qt WebEngine。</translation>
    </message>
</context>
<context>
    <name>Gui::ApprovalDialog</name>
    <message>
        <location filename="../src/ui/approvaldialog.cpp" line="+43"/>
        <source>Allow tool call?</source>
        <translation>允许调用工具？</translation>
    </message>
    <message>
        <location line="+87"/>
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
        <location line="+16"/>
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
        <location line="+8"/>
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
    <message>
        <location line="+8"/>
        <source>Why it asks:</source>
        <translation>询问原因：</translation>
    </message>
    <message numerus="yes">
        <location line="+24"/>
        <source>… (%n more characters not shown)</source>
        <translation>
            <numerusform>…（另有 %n 个字符未显示）</numerusform>
        </translation>
    </message>
    <message>
        <location line="-152"/>
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
        <location line="+28"/>
        <source>&amp;Changes</source>
        <translation>改动(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ar&amp;guments</source>
        <translation>参数(&amp;G)</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>the interactive view of server &quot;%1&quot; (not the model)</source>
        <translation>服务器“%1”的交互视图（不是模型）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Asked by:</source>
        <translation>请求方：</translation>
    </message>
    <message>
        <location line="+78"/>
        <source>&quot;Allow for this conversation&quot; and &quot;Always allow&quot; cover the commands whose first words are the words before the * (&quot;npm test*&quot; covers &quot;npm test --watch&quot;, never &quot;npm tests&quot;). A command with ; &amp; | &lt; &gt; ( ) is only covered when it is exactly this text, and one with $, backticks or wildcards never. Without a *, only this exact command.</source>
        <translation>“在本对话中允许”和“总是允许”涵盖开头几个词与 * 前的词相同的命令（“npm test*”涵盖“npm test --watch”，但绝不涵盖“npm tests”）。含有 ; &amp; | &lt; &gt; ( ) 的命令只有与此文本完全相同时才被涵盖，含有 $、反引号或通配符的命令永远不会被涵盖。没有 * 时，只涵盖这条完全相同的命令。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Only this exact command can be remembered: %1</source>
        <translation>只能记住这条完全相同的命令：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Wider choices co&amp;ver:</source>
        <translation>更宽的选项涵盖(&amp;V)：</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Remem&amp;bered as:</source>
        <translation>记住为(&amp;B)：</translation>
    </message>
    <message>
        <location line="+19"/>
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
        <source>Allow the commands the pattern covers without asking again until the conversation ends.</source>
        <translation>在本次对话结束前允许该模式涵盖的命令，不再询问。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Allow this tool without asking again until the conversation ends.</source>
        <translation>在本次对话结束前允许此工具，不再询问。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Al&amp;ways allow</source>
        <translation>始终允许(&amp;W)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Remember it for this workspace in your own data folder (never in the workspace&apos;s files).</source>
        <translation>在你自己的数据文件夹中为此工作区记住该选择（绝不写入工作区的文件）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Deny</source>
        <translation>拒绝(&amp;D)</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>the window closed</source>
        <translation>窗口已关闭</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Question %1 of %2</source>
        <translation>第 %1 个问题，共 %2 个</translation>
    </message>
    <message>
        <location line="+48"/>
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
    <name>Gui::AttachmentBar</name>
    <message>
        <location filename="../src/ui/attachmentbar.cpp" line="+42"/>
        <source>Attach…</source>
        <translation>附加…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Attach files from the workspace; paste or drop images and files into the message box</source>
        <translation>附加工作区中的文件；也可以把图片和文件粘贴或拖放到消息框中</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Attach files</source>
        <translation>附加文件</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Not attached: %1 — %2</source>
        <translation>未附加：%1 — %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>not a file</source>
        <translation>不是文件</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the image could not be read</source>
        <translation>无法读取该图片</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>larger than %1; the model reads text files up to that size</source>
        <translation>大于 %1；模型只读取不超过此大小的文本文件</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>not a text file (only text files and images can be attached)</source>
        <translation>不是文本文件（只能附加文本文件和图片）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Attach a file that may hold secrets?</source>
        <translation>附加可能包含机密的文件？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 matches “%2” in the list of sensitive files. Its content would be sent to the model&apos;s provider.</source>
        <translation>%1 与敏感文件列表中的“%2”匹配。其内容将被发送给模型提供方。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Attach</source>
        <translation>附加</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Not attached: %1 — the image could not be made small enough</source>
        <translation>未附加：%1 — 无法把图片缩小到可发送的大小</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Not attached: %1 — a message carries at most %2 attachments</source>
        <translation>未附加：%1 — 一条消息最多带 %2 个附件</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>%1, %2 — click to remove it from the message</source>
        <translation>%1，%2 — 点击可从消息中移除</translation>
    </message>
</context>
<context>
    <name>Gui::AuditLogDialog</name>
    <message>
        <location filename="../src/ui/auditlogdialog.cpp" line="+27"/>
        <source>Audit log</source>
        <translation>审计日志</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Filter by tool, source or decision</source>
        <translation>按工具、来源或决定筛选</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n record(s) from %1 (newest first)</source>
        <translation>
            <numerusform>来自 %1 的 %n 条记录（最新的在前）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::AuditLogModel</name>
    <message>
        <location filename="../src/ui/auditlogmodel.cpp" line="+63"/>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Time (UTC)</source>
        <translation>时间 (UTC)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Event</source>
        <translation>事件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Risk</source>
        <translation>风险</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Decision / outcome</source>
        <translation>决定 / 结果</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Duration</source>
        <translation>耗时</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
</context>
<context>
    <name>Gui::ChatView</name>
    <message>
        <location filename="../src/ui/chatviewcards.cpp" line="+97"/>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Changes</source>
        <translation>改动</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The new content is the same as the file&apos;s.</source>
        <translation>新内容与文件现有内容相同。</translation>
    </message>
    <message numerus="yes">
        <location line="+19"/>
        <source>… %n more lines</source>
        <translation>
            <numerusform>…… 另有 %n 行</numerusform>
        </translation>
    </message>
    <message>
        <location line="+243"/>
        <source>writing…</source>
        <translation>正在编写…</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>denied</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>timed out</source>
        <translation>已超时</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location line="-295"/>
        <source>Open the whole result…</source>
        <translation>打开完整结果…</translation>
    </message>
    <message>
        <location line="-82"/>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location filename="../src/ui/chatview.cpp" line="+295"/>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Fork</source>
        <translation>分支</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+28"/>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <location filename="../src/ui/chatviewmarkdown.cpp" line="+26"/>
        <source>Attached: %1</source>
        <translation>附件：%1</translation>
    </message>
    <message>
        <location line="+81"/>
        <source>Copy code</source>
        <translation>复制代码</translation>
    </message>
    <message numerus="yes">
        <location filename="../src/ui/chatviewcards.cpp" line="+32"/>
        <source>… %n earlier steps</source>
        <translation>
            <numerusform>… 之前的 %n 个步骤</numerusform>
        </translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>(empty)</source>
        <translation>（空）</translation>
    </message>
    <message>
        <location line="+291"/>
        <source>waiting…</source>
        <translation>等待中…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>waiting for your approval…</source>
        <translation>等待你的批准…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>running…</source>
        <translation>运行中…</translation>
    </message>
</context>
<context>
    <name>Gui::ConfigEditorPane</name>
    <message>
        <location filename="../src/ui/configeditorpane.cpp" line="+72"/>
        <source>Line %1, column %2: %3</source>
        <translation>第 %1 行，第 %2 列：%3</translation>
    </message>
    <message>
        <location line="+189"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Write the text to the file (%1)</source>
        <translation>将文本写入文件（%1）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save, then restart the servers whose settings changed</source>
        <translation>保存，然后重启设置有变更的服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Revert</source>
        <translation>还原</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Load the file from disk again</source>
        <translation>从磁盘重新加载文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open in external editor</source>
        <translation>在外部编辑器中打开</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open the file in $VISUAL or $EDITOR (else the desktop&apos;s application for it); what you save there is loaded here</source>
        <translation>在 $VISUAL 或 $EDITOR 中打开文件（否则使用桌面环境关联的应用程序）；在那里保存的内容会加载到这里</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Load the disk version</source>
        <translation>加载磁盘上的版本</translation>
    </message>
    <message>
        <location filename="../src/ui/configeditorpanefile.cpp" line="+49"/>
        <source>it is larger than %1 KiB, too large for a configuration file</source>
        <translation>它大于 %1 KiB，作为配置文件过大</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Could not read %1: %2.</source>
        <translation>无法读取 %1：%2。</translation>
    </message>
    <message>
        <location filename="../src/ui/configeditorpane.cpp" line="+262"/>
        <source>No problems</source>
        <translation>没有问题</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n problem(s)</source>
        <translation>
            <numerusform>%n 个问题</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+39"/>
        <source>Apply is blocked until the %n problem(s) are fixed.</source>
        <translation>
            <numerusform>修复这 %n 个问题之前无法应用。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+6"/>
        <source>restart %1</source>
        <translation>重启 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>start %1</source>
        <translation>启动 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>stop %1</source>
        <translation>停止 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Apply changes no server.</source>
        <translation>应用不会改变任何服务器。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Apply will %1.</source>
        <translation>应用将%1。</translation>
    </message>
    <message>
        <location line="+0"/>
        <location filename="../src/ui/configeditorpanefile.cpp" line="+167"/>
        <location line="+127"/>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 will fail: %2</source>
        <translation>%1 将会失败：%2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 (new file)</source>
        <translation>%1（新文件）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 (modified)</source>
        <translation>%1（已修改）</translation>
    </message>
    <message numerus="yes">
        <location filename="../src/ui/configeditorpanefile.cpp" line="-272"/>
        <source>Not applied: fix the %n problem(s) first (Save still writes the text).</source>
        <translation>
            <numerusform>未应用：请先修复这 %n 个问题（“保存”仍会写入文本）。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+26"/>
        <source>%1 already holds this text.</source>
        <translation>%1 的内容已与此文本相同。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The file on disk could not be read (%1); saving replaces it.</source>
        <translation>无法读取磁盘上的文件（%1）；保存将替换它。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The text is not valid JSON (%1), but the file on disk is.</source>
        <translation>文本不是有效的 JSON（%1），而磁盘上的文件是有效的。</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>The text has %n problem(s) (the first: %1), but the file on disk has none. Servers with problems would not start.</source>
        <translation>
            <numerusform>文本有 %n 个问题（第一个：%1），而磁盘上的文件没有问题。有问题的服务器将无法启动。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The file changed on disk after it was loaded here; saving replaces those changes.</source>
        <translation>文件在此处加载后已在磁盘上被修改；保存将覆盖这些修改。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Save configuration</source>
        <translation>保存配置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save %1 anyway?</source>
        <translation>仍要保存 %1 吗？</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Save anyway</source>
        <translation>仍然保存</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Not saved; your text is kept here.</source>
        <translation>未保存；你的文本仍保留在此处。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Could not save %1: %2. Your text is kept here.</source>
        <translation>无法保存 %1：%2。你的文本仍保留在此处。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Saved %1.</source>
        <translation>已保存 %1。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Saved %1; nothing runs these servers here.</source>
        <translation>已保存 %1；此处不会运行这些服务器。</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>restarted %1</source>
        <translation>已重启 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>started %1</source>
        <translation>已启动 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>stopped %1</source>
        <translation>已停止 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 waiting for your trust (see the banner in the Servers dock)</source>
        <translation>%1 正在等待你的信任（见服务器面板中的横幅）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Saved and applied; no server needed a restart.</source>
        <translation>已保存并应用；没有服务器需要重启。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Saved and applied: %1.</source>
        <translation>已保存并应用：%1。</translation>
    </message>
    <message numerus="yes">
        <location line="+14"/>
        <source>%n problem(s) in %1.</source>
        <translation>
            <numerusform>%1 中有 %n 个问题。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Loaded %1 from disk.</source>
        <translation>已从磁盘加载 %1。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Revert configuration</source>
        <translation>还原配置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Discard your unsaved edits and load %1 from disk?</source>
        <translation>要放弃未保存的编辑并从磁盘加载 %1 吗？</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Discard edits</source>
        <translation>放弃编辑</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Loaded %1 from disk; Undo brings your edits back.</source>
        <translation>已从磁盘加载 %1；“撤销”可恢复你的编辑。</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>%1 was deleted on disk. Save writes it again.</source>
        <translation>%1 已在磁盘上被删除。“保存”会重新写入它。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Loaded %1 again: it changed on disk.</source>
        <translation>已重新加载 %1：它在磁盘上已更改。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 changed on disk. Your unsaved edits are kept; saving them replaces the file, loading the disk version discards them.</source>
        <translation>%1 已在磁盘上更改。你未保存的编辑已保留；保存会替换该文件，加载磁盘版本则会丢弃这些编辑。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Your unsaved edits here are not in the file.</source>
        <translation>此处未保存的编辑不在该文件中。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Opened %1 with %2; what you save there is loaded here.</source>
        <translation>已用 %2 打开 %1；在那里保存的内容会加载到这里。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Opened %1 with the desktop&apos;s application for it; what you save there is loaded here.</source>
        <translation>已用桌面环境关联的应用程序打开 %1；在那里保存的内容会加载到这里。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>VISUAL and EDITOR are not set</source>
        <translation>未设置 VISUAL 和 EDITOR</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Could not open %1 in an external editor: %2, and the desktop has no application for it. Set VISUAL or EDITOR to an editor command, such as &quot;kate&quot; or &quot;code&quot;.</source>
        <translation>无法在外部编辑器中打开 %1：%2，且桌面环境没有与之关联的应用程序。请将 VISUAL 或 EDITOR 设置为编辑器命令，例如 “kate” 或 “code”。</translation>
    </message>
</context>
<context>
    <name>Gui::ConversationList</name>
    <message>
        <location filename="../src/ui/conversationlist.cpp" line="+152"/>
        <source>Search conversations</source>
        <translation>搜索对话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>All workspaces</source>
        <translation>所有工作区</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>List the conversations of every workspace, not only of this one</source>
        <translation>列出所有工作区的对话，而不仅是当前工作区的</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Today %1</source>
        <translation>今天 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Yesterday %1</source>
        <translation>昨天 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 %2</source>
        <comment>weekday, time</comment>
        <translation>%1 %2</translation>
    </message>
    <message>
        <location line="+60"/>
        <location line="+17"/>
        <source>(untitled)</source>
        <translation>（无标题）</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>%1 · asked by a remote agent</source>
        <translation>%1 · 由远程智能体发起</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 · %2</source>
        <comment>when · workspace</comment>
        <translation>%1 · %2</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%1
%n message(s), last %2
in %3</source>
        <translation>
            <numerusform>%1
%n 条消息，最后于 %2
位于 %3</numerusform>
        </translation>
    </message>
    <message>
        <location line="+10"/>
        <source>No conversation matches “%1”.</source>
        <translation>没有与“%1”匹配的对话。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No conversations in this workspace yet. Check “All workspaces” to see the others.</source>
        <translation>此工作区还没有对话。勾选“所有工作区”可查看其他对话。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No conversations yet.</source>
        <translation>还没有对话。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
</context>
<context>
    <name>Gui::DiffView</name>
    <message>
        <location filename="../src/ui/diffview.cpp" line="+51"/>
        <source>The new content is the same as the file&apos;s: nothing changes.</source>
        <translation>新内容与文件现有内容相同：没有任何改动。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Changes to %1: %2</source>
        <translation>%1 的改动：%2</translation>
    </message>
</context>
<context>
    <name>Gui::ElicitationDialog</name>
    <message>
        <location filename="../src/ui/serverrequestdialogs.cpp" line="+211"/>
        <source>Open a page for %1?</source>
        <translation>为 %1 打开网页？</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The MCP server &quot;%1&quot; asks you to open this page in your browser:</source>
        <translation>MCP 服务器“%1”请你在浏览器中打开此网页：</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>It goes to %1. Open it only if you expect to sign in or confirm something there.</source>
        <translation>它指向 %1。仅当你预期要在那里登录或确认某事时才打开。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&amp;Open in the browser</source>
        <translation>在浏览器中打开(&amp;O)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 asks you</source>
        <translation>%1 向你提问</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The MCP server &quot;%1&quot; asks:</source>
        <translation>MCP 服务器“%1”问：</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>What you accept is sent to the server.</source>
        <translation>你接受的内容会发送给服务器。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Accept</source>
        <translation>接受(&amp;A)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>D&amp;ecline</source>
        <translation>拒绝(&amp;E)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
</context>
<context>
    <name>Gui::ExternalEditor</name>
    <message>
        <location filename="../src/ui/externaleditor.cpp" line="+57"/>
        <source>$%1 (%2) runs in a terminal, and no terminal emulator was found (set TERMINAL)</source>
        <translation>$%1（%2）需要在终端中运行，但未找到终端模拟器（请设置 TERMINAL）</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>$%1 (%2) could not be started</source>
        <translation>无法启动 $%1（%2）</translation>
    </message>
</context>
<context>
    <name>Gui::FindBar</name>
    <message>
        <location filename="../src/ui/findbar.cpp" line="+110"/>
        <source>No matches</source>
        <translation>无匹配</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 of %2+</source>
        <translation>第 %1 处，共 %2+ 处</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 of %2</source>
        <translation>第 %1 处，共 %2 处</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Find in this conversation</source>
        <translation>在此对话中查找</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Previous match (Shift+Enter)</source>
        <translation>上一处（Shift+Enter）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next match (Enter, F3)</source>
        <translation>下一处（Enter、F3）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Match case</source>
        <translation>区分大小写</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Close (Esc)</source>
        <translation>关闭（Esc）</translation>
    </message>
</context>
<context>
    <name>Gui::HelpDialogs</name>
    <message>
        <location filename="../src/ui/helpdialogs.cpp" line="+19"/>
        <source>Enter</source>
        <translation>Enter</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Send the message</source>
        <translation>发送消息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shift+Enter</source>
        <translation>Shift+Enter</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>A new line in the message</source>
        <translation>在消息中换行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Esc</source>
        <translation>Esc</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Stop the reply, or stop editing the last message</source>
        <translation>停止回复，或停止编辑上一条消息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open the tool browser (typed in the message box)</source>
        <translation>打开工具浏览器（在消息框中输入）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>New conversation</source>
        <translation>新建对话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tool browser</source>
        <translation>工具浏览器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edit the configuration</source>
        <translation>编辑配置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save the configuration (in its editor)</source>
        <translation>保存配置（在配置编辑器中）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show or hide the conversations</source>
        <translation>显示或隐藏对话列表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show or hide the servers</source>
        <translation>显示或隐藏服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show or hide the agents</source>
        <translation>显示或隐藏智能体</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show or hide the protocol log</source>
        <translation>显示或隐藏协议日志</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rename the selected conversation</source>
        <translation>重命名所选对话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This list</source>
        <translation>本列表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Quit (stops the servers)</source>
        <translation>退出（停止服务器）</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>About Switchboard</source>
        <translation>关于 Switchboard</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;h3&gt;Switchboard %1&lt;/h3&gt;&lt;p&gt;A desktop AI agent and MCP client: the model&apos;s tools come from MCP servers, and every tool that can change something waits for your approval.&lt;/p&gt;&lt;p&gt;Built with Qt %2 (running on Qt %3).&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Switchboard %1&lt;/h3&gt;&lt;p&gt;桌面 AI 智能体与 MCP 客户端：模型的工具来自 MCP 服务器，凡是可能改动内容的工具都要等你批准。&lt;/p&gt;&lt;p&gt;基于 Qt %2 构建（运行于 Qt %3）。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>Gui::InstallActions</name>
    <message>
        <location filename="../src/ui/installactions.cpp" line="+50"/>
        <source>%1 is not defined in a configuration file</source>
        <translation>%1 不是在配置文件中定义的</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Servers</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location line="+28"/>
        <location line="+27"/>
        <source>Uninstall %1</source>
        <translation>卸载 %1</translation>
    </message>
    <message>
        <location line="-26"/>
        <source>Uninstall %1?</source>
        <translation>卸载 %1？</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Its entry is removed from %1.</source>
        <translation>其条目将从 %1 中移除。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Its files in %1 are deleted.</source>
        <translation>其位于 %1 的文件将被删除。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Also delete its secrets from the keychain: %1</source>
        <translation>同时从钥匙串删除其密钥：%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Uninstall</source>
        <translation>卸载(&amp;U)</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>The newer version of %1</source>
        <translation>%1 的新版本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MCP Bundles (*.mcpb *.dxt)</source>
        <translation>MCP 扩展包 (*.mcpb *.dxt)</translation>
    </message>
    <message>
        <location line="+13"/>
        <location line="+14"/>
        <location line="+27"/>
        <source>Update %1</source>
        <translation>更新 %1</translation>
    </message>
    <message>
        <location line="-40"/>
        <source>%1 was not installed from the MCP Registry or an extension; edit its definition in %2 instead.</source>
        <translation>%1 不是从 MCP Registry 或扩展安装的；请改为在 %2 中编辑其定义。</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>Update %1 from %2 to %3?</source>
        <translation>将 %1 从 %2 更新到 %3？</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>It will run: %1
Its answers and settings are kept.</source>
        <translation>将运行：%1
其回答和设置保持不变。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Update</source>
        <translation>更新(&amp;U)</translation>
    </message>
</context>
<context>
    <name>Gui::InstallBundleDialog</name>
    <message>
        <location filename="../src/ui/installbundledialog.cpp" line="+49"/>
        <source>Install %1</source>
        <translation>安装 %1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Update %1</source>
        <translation>更新 %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1: %2 → %3</source>
        <translation>%1：%2 → %3</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>by %1</source>
        <translation>作者：%1</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Signed by %1 (certified by %2).</source>
        <translation>由 %1 签名（由 %2 认证）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Signed by &quot;%1&quot; with a certificate of its own: nobody vouches for who that is.</source>
        <translation>由“%1”用自己的证书签名：没有人能证明其身份。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Signed by &quot;%1&quot;, whose certificate this system does not trust.</source>
        <translation>由“%1”签名，但本系统不信任其证书。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Not signed: nothing says who made this file. Install it only if you trust where it came from.</source>
        <translation>未签名：无法得知是谁制作了此文件。只有在你信任其来源时才安装。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Tools: %1</source>
        <translation>工具：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Prompts: %1</source>
        <translation>提示词：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Runs with %1; unpacked into %2.</source>
        <translation>使用 %1 运行；解压到 %2。</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>one per line</source>
        <translation>每行一个</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Kept in the system keychain, never in a file</source>
        <translation>保存在系统钥匙串中，从不写入文件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>as it is (type to replace)</source>
        <translation>保持不变（输入以替换）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>It asks for nothing.</source>
        <translation>它不需要填写任何内容。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Install</source>
        <translation>安装(&amp;I)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&amp;Update</source>
        <translation>更新(&amp;U)</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>Installing…</source>
        <translation>正在安装…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Updating…</source>
        <translation>正在更新…</translation>
    </message>
</context>
<context>
    <name>Gui::MainWindow</name>
    <message>
        <location filename="../src/ui/mainwindow.cpp" line="+650"/>
        <source>Ask anything — Enter sends, Shift+Enter for a new line, /mcp opens the tools</source>
        <translation>输入任何问题 — Enter 发送，Shift+Enter 换行，/mcp 打开工具</translation>
    </message>
    <message>
        <location line="+387"/>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <location line="-385"/>
        <source>Editing your last message: Enter sends it in place of the old one and what followed, Esc cancels.</source>
        <translation>正在编辑你的上一条消息：按 Enter 发送，它将取代原消息及其后的内容；按 Esc 取消。</translation>
    </message>
    <message>
        <location line="-231"/>
        <source>Context from %1 ✕</source>
        <translation>来自 %1 的上下文 ✕</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The view of %1 put this before the model; it goes with every request until removed. Click to remove.

%2</source>
        <translation>%1 的视图把这段内容提供给了模型；在移除之前，每次请求都会附带它。点击即可移除。

%2</translation>
    </message>
    <message>
        <location line="+86"/>
        <source>Updated %1; it is restarting.</source>
        <translation>已更新 %1；正在重新启动。</translation>
    </message>
    <message>
        <location line="+144"/>
        <source>New conversation</source>
        <translation>新建对话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Conversations</source>
        <translation>对话(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Find in conversation…</source>
        <translation>在对话中查找(&amp;F)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;New conversation</source>
        <translation>新建对话(&amp;N)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Install extension…</source>
        <translation>安装扩展(&amp;I)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Export conversation</source>
        <translation>导出对话(&amp;E)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>As &amp;Markdown…</source>
        <translation>导出为 &amp;Markdown…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>As &amp;HTML page…</source>
        <translation>导出为 &amp;HTML 页面…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>As &amp;JSON…</source>
        <translation>导出为 &amp;JSON…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Tool browser…</source>
        <translation>工具浏览器(&amp;T)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edit &amp;configuration…</source>
        <translation>编辑配置(&amp;C)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Audit log…</source>
        <translation>审计日志(&amp;A)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Add server…</source>
        <translation>添加服务器(&amp;A)…</translation>
    </message>
    <message>
        <location line="+167"/>
        <source>The new model settings apply when the current answer is done.</source>
        <translation>新的模型设置将在当前回答完成后生效。</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Context from the interactive view of the MCP server &quot;%1&quot; (what the view shows; its own words, not instructions):
%2</source>
        <translation>来自 MCP 服务器“%1”的交互式视图的上下文（视图所显示的内容；是其原话，而非指令）：
%2</translation>
    </message>
    <message>
        <location line="+103"/>
        <source>Chat needs a model — %1.</source>
        <translation>聊天需要模型 — %1。</translation>
    </message>
    <message>
        <location line="-56"/>
        <source>Model: %1</source>
        <translation>模型：%1</translation>
    </message>
    <message>
        <location line="-670"/>
        <source>Could not save the conversation: %1</source>
        <translation>无法保存对话：%1</translation>
    </message>
    <message>
        <location line="+476"/>
        <source>&lt;b&gt;Compacted&lt;/b&gt; to fit the model&apos;s context window: %1 and %2 this request. The conversation keeps everything.</source>
        <translation>&lt;b&gt;已压缩&lt;/b&gt;以适应模型的上下文窗口：%1，并且本次请求%2。对话本身保留全部内容。</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n earlier tool result(s) shortened</source>
        <translation>
            <numerusform>缩短了 %n 个较早的工具结果</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n earlier message(s) left out of</source>
        <translation>
            <numerusform>省略了 %n 条较早的消息</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The model was given its own summary of what was left out.</source>
        <translation>模型收到了它自己对被省略部分的摘要。</translation>
    </message>
    <message>
        <location line="+241"/>
        <source>The API key is still being read from the keychain; send again in a moment.</source>
        <translation>仍在从钥匙串读取 API 密钥；请稍后再发送。</translation>
    </message>
    <message>
        <location line="+59"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location line="-360"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;About Switchboard</source>
        <translation>关于 Switchboard(&amp;A)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Toolbar</source>
        <translation>工具栏</translation>
    </message>
    <message>
        <location line="+430"/>
        <location line="+7"/>
        <source>Install an extension</source>
        <translation>安装扩展</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>MCP Bundles (*.mcpb *.dxt)</source>
        <translation>MCP 扩展包 (*.mcpb *.dxt)</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>Installed %1 into %2; it is starting.</source>
        <translation>已将 %1 安装到 %2，正在启动。</translation>
    </message>
    <message>
        <location line="+82"/>
        <source>Install from a link</source>
        <translation>从链接安装</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>This link cannot be installed: %1</source>
        <translation>无法安装此链接：%1</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>A link asks to download an extension from %1:
%2

It is checked against the SHA-256 the link gives; then it shows what it is, and nothing is installed until you choose Install.</source>
        <translation>一个链接请求从 %1 下载扩展：
%2

下载后会用链接给出的 SHA-256 校验；随后显示它是什么，在你选择“安装”之前不会安装任何东西。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Download</source>
        <translation>下载(&amp;D)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Downloading %1…</source>
        <translation>正在下载 %1…</translation>
    </message>
    <message>
        <location line="+69"/>
        <source>Nothing to export yet: send a message or open a conversation.</source>
        <translation>还没有可导出的内容：请发送消息或打开一个对话。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Export conversation</source>
        <translation>导出对话</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Could not export to %1: %2</source>
        <translation>无法导出到 %1：%2</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Exported to %1.</source>
        <translation>已导出到 %1。</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>%1 (fork)</source>
        <translation>%1（分支）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(untitled)</source>
        <translation>（无标题）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Could not fork the conversation: %1</source>
        <translation>无法创建对话分支：%1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>A fork of “%1”: what you say next goes here; the original is unchanged.</source>
        <translation>这是“%1”的分支：接下来的内容会保存在这里，原对话保持不变。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Could not rename the conversation: %1</source>
        <translation>无法重命名对话：%1</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Could not delete the conversation: %1</source>
        <translation>无法删除对话：%1</translation>
    </message>
    <message>
        <location line="+84"/>
        <location line="+15"/>
        <source>Could not save the settings: %1</source>
        <translation>无法保存设置：%1</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Context window: %1 tokens (from the provider&apos;s model list)</source>
        <translation>上下文窗口：%1 个 token（来自提供方的模型列表）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Context window: %1 tokens (from Settings)</source>
        <translation>上下文窗口：%1 个 token（来自“设置”）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>reading the API key…</source>
        <translation>正在读取 API 密钥…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no model configured</source>
        <translation>未配置模型</translation>
    </message>
</context>
<context>
    <name>Gui::ModelPicker</name>
    <message>
        <location filename="../src/ui/modelpicker.cpp" line="+54"/>
        <source>its default model</source>
        <translation>其默认模型</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Profile: the environment variables, %1</source>
        <translation>配置：环境变量，%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Profile: %1, %2</source>
        <translation>配置：%1，%2</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>no model</source>
        <translation>没有模型</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Set a model in Settings</source>
        <translation>请在“设置”中设置模型</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The model that answers (reading the provider&apos;s list…)</source>
        <translation>回答问题的模型（正在读取提供方的模型列表…）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The model that answers. The provider&apos;s list could not be read: %1</source>
        <translation>回答问题的模型。无法读取提供方的模型列表：%1</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>context window: %1 tokens</source>
        <translation>上下文窗口：%1 个 token</translation>
    </message>
    <message numerus="yes">
        <location line="+11"/>
        <source>The model that answers (%n models listed by the provider)</source>
        <translation>
            <numerusform>回答问题的模型（提供方列出了 %n 个模型）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::NoModelNotice</name>
    <message>
        <location line="+14"/>
        <source>&lt;b&gt;Chat needs a model&lt;/b&gt; — %1. Servers, tools and manual runs work without one.</source>
        <translation>&lt;b&gt;聊天需要模型&lt;/b&gt; — %1。服务器、工具和手动运行无需模型即可使用。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Set up a model…</source>
        <translation>设置模型…</translation>
    </message>
</context>
<context>
    <name>Gui::PlainLabel</name>
    <message numerus="yes">
        <location filename="../src/ui/plainlabel.h" line="+30"/>
        <source>[… cut: %n more character(s)]</source>
        <translation>
            <numerusform>[… 已截断：还有 %n 个字符]</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::PromptBrowser</name>
    <message>
        <location filename="../src/ui/serverbrowsers.cpp" line="+616"/>
        <source>&amp;Get</source>
        <translation>获取(&amp;G)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Use in the chat</source>
        <translation>用于聊天(&amp;U)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The prompt&apos;s messages go into the message box, to send or edit</source>
        <translation>提示词的消息会放入输入框，可发送或编辑</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>Select a prompt</source>
        <translation>选择一个提示词</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No connected server offers prompts.</source>
        <translation>没有已连接的服务器提供提示词。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choose a prompt on the left to fill in its arguments and use it.</source>
        <translation>在左侧选择一个提示词，填写其参数并使用它。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>This prompt takes no arguments.</source>
        <translation>此提示词不需要参数。</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Getting the prompt…</source>
        <translation>正在获取提示词……</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The server refused: %1</source>
        <translation>服务器拒绝：%1</translation>
    </message>
    <message numerus="yes">
        <location line="+19"/>
        <source>%n message(s); only the first %1 characters can be used.</source>
        <translation>
            <numerusform>%n 条消息；只能使用前 %1 个字符。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n message(s).</source>
        <translation>
            <numerusform>%n 条消息。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::ProtocolLogDock</name>
    <message>
        <location filename="../src/ui/protocollogdock.cpp" line="+257"/>
        <source>Protocol log</source>
        <translation>协议日志</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Filter messages</source>
        <translation>筛选消息</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Traffic is recorded from the moment this log is opened: new messages appear on the left; select one to read it whole here.</source>
        <translation>从打开此日志起开始记录通信：新消息显示在左侧；选中一条可在此处查看完整内容。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop recording new traffic; what is shown stays</source>
        <translation>停止记录新的通信；已显示的内容保留</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+4"/>
        <source>Clear</source>
        <translation>清空</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Remove every entry from the log</source>
        <translation>删除日志中的所有条目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy all visible</source>
        <translation>复制所有可见条目</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>All directions</source>
        <translation>所有方向</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>All servers</source>
        <translation>所有服务器</translation>
    </message>
    <message>
        <location line="+65"/>
        <source>http</source>
        <translation>http</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>view → host</source>
        <translation>视图 → 主机</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>host → view</source>
        <translation>主机 → 视图</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>removed</source>
        <comment>server event</comment>
        <translation>已移除</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>%n tools</source>
        <translation>
            <numerusform>%n 个工具</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+94"/>
        <source>Only the start of this %n-byte message was kept.</source>
        <translation>
            <numerusform>此消息共 %n 字节，仅保留了开头部分。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::ProtocolLogModel</name>
    <message>
        <location filename="../src/ui/protocollogmodel.cpp" line="+63"/>
        <location line="+218"/>
        <source>error %1</source>
        <translation>错误 %1</translation>
    </message>
    <message>
        <location line="-216"/>
        <location line="+223"/>
        <source>result %1</source>
        <translation>结果 %1</translation>
    </message>
    <message>
        <location line="-125"/>
        <source>%1 (truncated)</source>
        <translation>%1（已截断）</translation>
    </message>
    <message numerus="yes">
        <location line="+11"/>
        <source>%n bytes; only the start is kept</source>
        <translation>
            <numerusform>%n 字节；仅保留开头部分</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n bytes</source>
        <translation>
            <numerusform>%n 字节</numerusform>
        </translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Direction</source>
        <translation>方向</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Content</source>
        <translation>内容</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>→ sent</source>
        <translation>→ 发送</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>← received</source>
        <translation>← 接收</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>stderr</source>
        <translation>stderr</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>event</source>
        <translation>事件</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>(not JSON)</source>
        <translation>（非 JSON）</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+32"/>
        <source>(not JSON-RPC)</source>
        <translation>（非 JSON-RPC）</translation>
    </message>
    <message numerus="yes">
        <location line="+10"/>
        <source>[truncated: %n bytes in all]</source>
        <translation>
            <numerusform>[已截断：共 %n 字节]</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::ResourceBrowser</name>
    <message>
        <location filename="../src/ui/serverbrowsers.cpp" line="-379"/>
        <source>R&amp;ead</source>
        <translation>读取(&amp;E)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Attach to &amp;message</source>
        <translation>附加到消息(&amp;M)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The content goes with your next message, as a file you attached</source>
        <translation>内容会随你的下一条消息发送，如同你附加的文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Watch</source>
        <translation>关注(&amp;W)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Subscribe: read it again whenever the server says it changed</source>
        <translation>订阅：服务器告知它有变化时重新读取</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>The server refused: %1</source>
        <translation>服务器拒绝：%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Watching it for changes.</source>
        <translation>正在关注它的变化。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No longer watching it.</source>
        <translation>不再关注它。</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Changed on the server; read again.</source>
        <translation>服务器上已变化；已重新读取。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Resources (reading…)</source>
        <translation>资源（读取中……）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Templates (reading…)</source>
        <translation>模板（读取中……）</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Resources (%1)</source>
        <translation>资源（%1）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Templates (%1)</source>
        <translation>模板（%1）</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Select a resource</source>
        <translation>选择一个资源</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No connected server offers resources.</source>
        <translation>没有已连接的服务器提供资源。</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Reading %1…</source>
        <translation>正在读取 %1……</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Could not read it: %1</source>
        <translation>无法读取：%1</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Read; only its first 256 KiB can be attached.</source>
        <translation>已读取；只有前 256 KiB 可以附加。</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+2"/>
        <source>Read.</source>
        <translation>已读取。</translation>
    </message>
</context>
<context>
    <name>Gui::ResultViewer</name>
    <message>
        <location filename="../src/ui/resultviewer.cpp" line="+80"/>
        <source>Lines longer than %1 characters are cut short here.</source>
        <translation>超过 %1 个字符的行在此处被截短。</translation>
    </message>
    <message numerus="yes">
        <location line="+12"/>
        <source>Showing the first %1 of %2 (%Ln lines).</source>
        <translation>
            <numerusform>显示前 %1，共 %2（%Ln 行）。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+27"/>
        <source>&amp;Previous</source>
        <translation>上一页(&amp;P)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Next</source>
        <translation>下一页(&amp;N)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;Save as…</source>
        <translation>另存为(&amp;S)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Copy all</source>
        <translation>全部复制(&amp;C)</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Page %1 of %2 (%3)</source>
        <translation>第 %1 页，共 %2 页（%3）</translation>
    </message>
    <message>
        <location line="+17"/>
        <location line="+12"/>
        <source>Save the result</source>
        <translation>保存结果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>Gui::Risk</name>
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
    <name>Gui::SamplingDialog</name>
    <message>
        <location filename="../src/ui/serverrequestdialogs.cpp" line="-235"/>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Let %1 use your model?</source>
        <translation>允许 %1 使用你的模型？</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The MCP server &quot;%1&quot; asks your model for a completion. What it sends is below: change it if you like, then send it to the model or deny. You will see the answer before it goes back.</source>
        <translation>MCP 服务器“%1”请求你的模型生成回复。它发送的内容如下：可以修改，然后发送给模型或拒绝。回答返回服务器之前你会先看到它。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>(no system prompt)</source>
        <translation>（无系统提示词）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>System prompt:</source>
        <translation>系统提示词：</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Max tokens:</source>
        <translation>最大令牌数：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Messages (%1):</source>
        <translation>消息（%1 条）：</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Your model is answering…</source>
        <translation>你的模型正在回答……</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&amp;Send to the model</source>
        <translation>发送给模型(&amp;S)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Deny</source>
        <translation>拒绝(&amp;D)</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>&amp;Return to the server</source>
        <translation>返回给服务器(&amp;R)</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Your model&apos;s answer, which goes back to the server once you return it (you may change it):</source>
        <translation>你的模型的回答，点击返回后会发给服务器（可以修改）：</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Your model did not answer: %1. The server was told so.</source>
        <translation>你的模型没有回答：%1。已告知服务器。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
</context>
<context>
    <name>Gui::SchemaForm</name>
    <message>
        <location filename="../src/ui/schemaform.cpp" line="+136"/>
        <source>This tool takes no arguments.</source>
        <translation>此工具不需要参数。</translation>
    </message>
    <message>
        <location line="+6"/>
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
    <name>Gui::ServerActions</name>
    <message>
        <location filename="../src/ui/serveractions.cpp" line="+68"/>
        <location line="+11"/>
        <source>Configuration</source>
        <translation>配置</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Unsaved configuration</source>
        <translation>未保存的配置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The configuration has edits that are not saved. Close Switchboard and lose them?</source>
        <translation>配置有未保存的编辑。要关闭 Switchboard 并丢弃这些编辑吗？</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Discard and close</source>
        <translation>放弃并关闭</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Trusted for this session only: %1</source>
        <translation>仅在本次会话中信任：%1</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>The server stays %1 for this session only: %2</source>
        <translation>该服务器仅在本次会话中保持%1：%2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>enabled</source>
        <translation>启用</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>disabled</source>
        <translation>停用</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Could not save the choice of tools in %1.</source>
        <translation>无法将工具选择保存到 %1。</translation>
    </message>
    <message numerus="yes">
        <location line="+19"/>
        <source>%n tools are offered to the model: more than %1, the most OpenAI-compatible APIs accept, and every description costs context. Uncheck servers in the Servers dock (Tools column) or tools in the tool browser, or let the model search for tools (Settings).</source>
        <translation>
            <numerusform>向模型提供了 %n 个工具：超过了多数 OpenAI 兼容 API 接受的 %1 个，而且每个描述都占用上下文。请在“服务器”停靠窗口（工具列）取消勾选服务器，或在工具浏览器中取消勾选工具，或让模型搜索工具（设置）。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::ServerDock</name>
    <message>
        <location filename="../src/ui/serverdock.cpp" line="+294"/>
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
        <location line="+2"/>
        <source>untrusted</source>
        <comment>server state</comment>
        <translation>未信任</translation>
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
    <message numerus="yes">
        <location line="+2"/>
        <source>%n untrusted</source>
        <comment>servers</comment>
        <translation>
            <numerusform>%n 个未信任</numerusform>
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
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Add server…</source>
        <translation>添加服务器(&amp;A)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Find a server in the MCP Registry and install it</source>
        <translation>在 MCP 注册表中查找并安装服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sign in</source>
        <translation>登录</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sign in to the selected server in your browser</source>
        <translation>在浏览器中登录所选服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sign out</source>
        <translation>退出登录</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Forget the selected server&apos;s tokens</source>
        <translation>清除所选服务器的令牌</translation>
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
        <source>&amp;Update…</source>
        <translation>更新(&amp;U)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Install the newer version of the selected server (from the MCP Registry, or an extension&apos;s newer file), keeping its settings</source>
        <translation>安装所选服务器的新版本（来自 MCP Registry，或扩展的新文件），并保留其设置</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>U&amp;ninstall…</source>
        <translation>卸载(&amp;N)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove the selected server from its configuration file, with an extension&apos;s files</source>
        <translation>从配置文件中移除所选服务器，并删除扩展的文件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open log</source>
        <translation>打开日志</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show the selected server&apos;s protocol traffic</source>
        <translation>显示所选服务器的协议通信</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Use its instructions</source>
        <translation>使用其说明</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Whether the server&apos;s own instructions join the model&apos;s system prompt</source>
        <translation>服务器自己的说明是否加入模型的系统提示词</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Log level</source>
        <translation>日志级别</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How much of its own log the selected server sends (its last message shows in its row)</source>
        <translation>所选服务器发送多少自身日志（最后一条显示在它那一行）</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+339"/>
        <source>Copy all</source>
        <translation>全部复制</translation>
    </message>
    <message>
        <location line="-337"/>
        <location line="+356"/>
        <source>stderr — %1</source>
        <translation>stderr — %1</translation>
    </message>
    <message>
        <location line="-294"/>
        <source>Waiting for the browser: sign in there</source>
        <translation>正在等待浏览器：请在浏览器中登录</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sign-in failed: %1</source>
        <translation>登录失败：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sign-in needed: press Sign in</source>
        <translation>需要登录：请点击“登录”</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Signed in; no keychain answered, so the tokens last for this session only</source>
        <translation>已登录；没有钥匙串响应，令牌仅在本次会话中有效</translation>
    </message>
    <message>
        <location line="+15"/>
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
        <location line="+6"/>
        <source>MCP %1</source>
        <translation>MCP %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>session %1</source>
        <translation>会话 %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The model is not offered this server&apos;s tools (check to offer them)</source>
        <translation>不向模型提供此服务器的工具（勾选以提供）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The model is offered this server&apos;s tools (uncheck to keep them from it)</source>
        <translation>向模型提供此服务器的工具（取消勾选以不提供）</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Servers — %1</source>
        <translation>服务器 — %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Servers</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>Float</source>
        <translation>浮动</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location line="+57"/>
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
    <message>
        <location line="+34"/>
        <source>log level: %1</source>
        <translation>日志级别：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>log level not set: %1</source>
        <translation>未能设置日志级别：%1</translation>
    </message>
</context>
<context>
    <name>Gui::ServerItemBrowser</name>
    <message>
        <location filename="../src/ui/serverbrowsers.cpp" line="-362"/>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Filter by name, URI or server</source>
        <translation>按名称、URI 或服务器筛选</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>The server is not connected.</source>
        <translation>服务器未连接。</translation>
    </message>
</context>
<context>
    <name>Gui::ServerSecretsPage</name>
    <message>
        <location filename="../src/ui/serversecretspage.cpp" line="+35"/>
        <source>Secrets a server reads from the system keychain: write ${secret:NAME} in its args, env or headers. Only the names are shown; the values never reach a file.</source>
        <translation>服务器从系统钥匙串读取的密钥：在其 args、env 或 headers 中写 ${secret:NAME}。这里只显示名称；值永远不会写入文件。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Used by</source>
        <translation>使用者</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Stored</source>
        <translation>存储</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Add…</source>
        <translation>添加(&amp;A)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+77"/>
        <source>&amp;Replace…</source>
        <translation>替换(&amp;R)…</translation>
    </message>
    <message>
        <location line="-75"/>
        <source>&amp;Delete</source>
        <translation>删除(&amp;D)</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>No keychain is set up for this window.</source>
        <translation>此窗口没有设置钥匙串。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>no server</source>
        <translation>没有服务器</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>not stored</source>
        <translation>未存储</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>until the app quits</source>
        <translation>直到应用退出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>in the keychain</source>
        <translation>在钥匙串中</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>No server secrets yet.</source>
        <translation>还没有服务器密钥。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>&amp;Set…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Add a server secret</source>
        <translation>添加服务器密钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set the secret %1</source>
        <translation>设置密钥 %1</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Value:</source>
        <translation>值(&amp;V)：</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>A server reads it as ${secret:%1}.</source>
        <translation>服务器以 ${secret:%1} 读取它。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Storing %1…</source>
        <translation>正在存储 %1…</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The keychain did not answer (%1): %2 is kept until the app quits. To keep it, export it as an environment variable and write ${%2} instead.</source>
        <translation>钥匙串没有响应（%1）：%2 只保留到应用退出。若要长期保存，请将其导出为环境变量，并改写为 ${%2}。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 is stored in the keychain.</source>
        <translation>%1 已存入钥匙串。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Delete the secret %1 from the keychain?</source>
        <translation>从钥匙串中删除密钥 %1？</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n server(s) read it and will not start without it: %1.</source>
        <translation>
            <numerusform>%n 个服务器读取它，没有它将无法启动：%1。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Delete a server secret</source>
        <translation>删除服务器密钥</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1 could not be deleted: %2</source>
        <translation>无法删除 %1：%2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 is deleted.</source>
        <translation>%1 已删除。</translation>
    </message>
</context>
<context>
    <name>Gui::SettingsDialog</name>
    <message>
        <location filename="../src/ui/settingsdialog.cpp" line="+106"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location line="+295"/>
        <source>Environment variables</source>
        <translation>环境变量</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>OpenAI-compatible</source>
        <translation>OpenAI 兼容</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Anthropic</source>
        <translation>Anthropic</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Uses OPENAI_API_KEY, OPENAI_BASE_URL and OPENAI_MODEL (or ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL and ANTHROPIC_MODEL) from the environment Switchboard was started in.</source>
        <translation>使用启动 Switchboard 时所在环境中的 OPENAI_API_KEY、OPENAI_BASE_URL 和 OPENAI_MODEL（或 ANTHROPIC_API_KEY、ANTHROPIC_BASE_URL 和 ANTHROPIC_MODEL）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Leave empty for the provider&apos;s service; for a server of your own (Ollama, vLLM, llama.cpp) give its address, e.g. http://127.0.0.1:11434/v1</source>
        <translation>留空则使用提供方的服务；自建服务器（Ollama、vLLM、llama.cpp）请填写其地址，例如 http://127.0.0.1:11434/v1</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>&amp;Show</source>
        <translation>显示(&amp;S)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Show the key as you type it</source>
        <translation>输入时显示密钥</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Forget</source>
        <translation>清除(&amp;F)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Remove the stored key from the keychain when you press OK</source>
        <translation>按“确定”时从钥匙串中移除已存储的密钥</translation>
    </message>
    <message>
        <location line="+33"/>
        <location line="+101"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location line="-98"/>
        <source>How long the model may stay silent before the request fails</source>
        <translation>模型无响应超过此时长后，请求即失败</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>&amp;Provider:</source>
        <translation>提供方(&amp;P)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Base &amp;URL:</source>
        <translation>基础 URL(&amp;U)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Model:</source>
        <translation>模型(&amp;M)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>API &amp;key:</source>
        <translation>API 密钥(&amp;K)：</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Request timeout:</source>
        <translation>请求超时(&amp;R)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Context &amp;window:</source>
        <translation>上下文窗口(&amp;W)：</translation>
    </message>
    <message>
        <location line="-395"/>
        <location line="+408"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>What each model&apos;s tokens cost, to show the cost of each turn and conversation in the status bar. Rows with a model and two numbers count.</source>
        <translation>每个模型的 token 价格，用于在状态栏显示每一轮和每个对话的费用。只有填写了模型和两个数字的行才会生效。</translation>
    </message>
    <message>
        <location line="-304"/>
        <location line="+316"/>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <location line="-312"/>
        <location line="+321"/>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <location line="-40"/>
        <source>&amp;Prices:</source>
        <translation>价格(&amp;P)：</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>How long a tool call may run; a server&apos;s &quot;timeout&quot; in .mcp.json wins</source>
        <translation>工具调用可运行的最长时间；.mcp.json 中服务器的 &quot;timeout&quot; 优先</translation>
    </message>
    <message>
        <location line="+6"/>
        <source> characters</source>
        <translation> 个字符</translation>
    </message>
    <message>
        <location line="-100"/>
        <source>The model sees images in tool results</source>
        <translation>模型能看到工具结果中的图像</translation>
    </message>
    <message>
        <location line="-304"/>
        <source>&amp;General</source>
        <translation>常规(&amp;G)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Server &amp;secrets</source>
        <translation>服务器密钥(&amp;S)</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>The chat uses the profile shown here when you press OK; the model picker under the chat switches between them too</source>
        <translation>按“确定”后，对话使用此处显示的配置；对话下方的模型选择器也可以在它们之间切换</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>A new profile: another provider, server, model or key</source>
        <translation>新建配置：另一个提供方、服务器、模型或密钥</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Remove this profile; its stored key leaves the keychain when you press OK</source>
        <translation>删除此配置；按“确定”后，其保存的密钥将从钥匙串中移除</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Pr&amp;ofile:</source>
        <translation>配置(&amp;O)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>N&amp;ame:</source>
        <translation>名称(&amp;A)：</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>Profile %1</source>
        <translation>配置 %1</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>Not connected: %1</source>
        <translation>未连接：%1</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Connected to %1; it lists no models.</source>
        <translation>已连接到 %1；它没有列出任何模型。</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Connected to %1; it lists %n model(s): %2</source>
        <translation>
            <numerusform>已连接到 %1；它列出了 %n 个模型：%2</numerusform>
        </translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Asking for the list of models…</source>
        <translation>正在请求模型列表…</translation>
    </message>
    <message>
        <location line="+72"/>
        <source>Test &amp;connection</source>
        <translation>测试连接(&amp;C)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Ask the provider for its models with this profile&apos;s address and key</source>
        <translation>用此配置的地址和密钥向提供方请求模型列表</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Turn off for a text-only model: each image is then named in the result&apos;s text instead</source>
        <translation>对纯文本模型请关闭：届时每张图像改为在结果文本中注明</translation>
    </message>
    <message>
        <location line="+7"/>
        <source> tokens</source>
        <translation> tokens</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The model&apos;s context window. Longer conversations are fitted into it before each request: earlier tool results are shortened, then earlier turns left out (the chat and the conversation file keep everything).</source>
        <translation>模型的上下文窗口。更长的对话会在每次请求前被压缩到其中：先缩短较早的工具结果，再省略较早的轮次（聊天界面和对话文件保留全部内容）。</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Input $/M</source>
        <translation>输入 $/百万</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Output $/M</source>
        <translation>输出 $/百万</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>US dollars per million input tokens</source>
        <translation>每百万输入 token 的美元价格</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>US dollars per million output tokens</source>
        <translation>每百万输出 token 的美元价格</translation>
    </message>
    <message>
        <location line="+60"/>
        <source>How much of a tool&apos;s result the model reads; the rest is cut with a note (the chat shows the whole result)</source>
        <translation>模型读取工具结果的多少；其余部分会被截断并附注说明（聊天中显示完整结果）</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+9"/>
        <source> MB</source>
        <translation> MB</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>Each tool&apos;s whole result up to this size is kept with the conversation, so that a reopened conversation shows it as it was; a larger one keeps the model&apos;s share only, and says so. 0 keeps none.</source>
        <translation>不超过此大小的每个工具完整结果会随对话保存，重新打开对话时按原样显示；更大的结果只保存模型读到的部分，并会注明。0 表示不保存。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>All the whole results one conversation keeps; past this, later results keep the model&apos;s share only.</source>
        <translation>一个对话保存的所有完整结果的上限；超过后，之后的结果只保存模型读到的部分。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>At most this many servers start at the same time; the others wait for their turn</source>
        <translation>最多同时启动这么多个服务器；其余的排队等待</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>When this workspace is served as an agent (Agents dock): at most this many remote tasks run at once; more are refused (HTTP 429)</source>
        <translation>将此工作区作为智能体提供服务时（智能体面板）：最多同时运行这么多远程任务；更多的会被拒绝（HTTP 429）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>never</source>
        <translation>从不</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> tools</source>
        <translation> 个工具</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>With more tools than this, the model is given the built-in and pinned tools and finds the servers&apos; tools with search_tools, instead of every definition in every request</source>
        <translation>工具多于此数时，模型只拿到内置工具和固定的工具，并用 search_tools 查找服务器的工具，而不是每次请求都带上所有定义</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>mcp__server__tool …</source>
        <translation>mcp__server__tool …</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tool names (as the model sees them) separated by spaces: always offered, even when the model searches for the others</source>
        <translation>工具名（模型看到的名称），以空格分隔：总是提供给模型，即使其他工具需要搜索</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Where bubblewrap works</source>
        <translation>在 bubblewrap 可用时</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Always (fail without bubblewrap)</source>
        <translation>始终（没有 bubblewrap 时失败）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Never</source>
        <translation>从不</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>In the sandbox, bash commands can write only in the workspace and a private /tmp; the rest of the file system is read-only</source>
        <translation>在沙箱中，bash 命令只能写入工作区和私有的 /tmp；文件系统的其余部分为只读</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Wildcards separated by spaces, matched against each part of a path in the workspace. read_file and list_dir ask before touching a match; search_files does not search inside one unless you allow it.</source>
        <translation>以空格分隔的通配符，与工作区中路径的每一部分进行匹配。read_file 和 list_dir 在访问匹配项之前会询问；除非你允许，search_files 不会在匹配的文件中搜索。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Tool timeout:</source>
        <translation>工具超时(&amp;T)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Result si&amp;ze for the model:</source>
        <translation>给模型的结果长度(&amp;Z)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>W&amp;hole results kept, each:</source>
        <translation>每个完整结果的保存上限(&amp;H)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Whole results kept, per conv&amp;ersation:</source>
        <translation>每个对话的完整结果保存上限(&amp;E)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Servers starting at o&amp;nce:</source>
        <translation>同时启动的服务器数(&amp;N)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remote tasks at once:</source>
        <translation>同时运行的远程任务：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Search tools a&amp;bove:</source>
        <translation>搜索工具的阈值(&amp;B)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Pinned tools:</source>
        <translation>固定的工具(&amp;P)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sand&amp;box for bash:</source>
        <translation>bash 沙箱(&amp;B)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sensiti&amp;ve files:</source>
        <translation>敏感文件(&amp;V)：</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>No keychain answers here (%1), so an API key typed here lasts only until Switchboard quits. To keep one, set %2 in the environment Switchboard starts in and leave the key here empty.</source>
        <translation>这里没有可用的钥匙串（%1），因此在此输入的 API 密钥只保留到 Switchboard 退出为止。若要长期保留，请在启动 Switchboard 的环境中设置 %2，并将此处的密钥留空。</translation>
    </message>
    <message>
        <location line="+186"/>
        <source>MCP Registry: %1</source>
        <translation>MCP 注册表：%1</translation>
    </message>
    <message>
        <location line="-742"/>
        <source>Tools</source>
        <translation>工具</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Applies as soon as the settings are saved.</source>
        <translation>保存设置后立即生效。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Interface</source>
        <translation>界面</translation>
    </message>
    <message>
        <location line="+525"/>
        <source>Where &quot;Add server…&quot; searches for servers: the official MCP Registry unless you name another (your company&apos;s own)</source>
        <translation>“添加服务器…”在哪里搜索服务器：除非你指定其他注册表（例如你公司自己的），否则使用官方 MCP 注册表</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>MCP Re&amp;gistry:</source>
        <translation>MCP 注册表(&amp;G)：</translation>
    </message>
    <message>
        <location line="+135"/>
        <source>Reading the keychain…</source>
        <translation>正在读取钥匙串…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stored in the keychain.</source>
        <translation>已存储在钥匙串中。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Kept for this session only (the keychain could not save it).</source>
        <translation>仅在本次会话中保留（钥匙串无法保存）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+3"/>
        <source>No key stored; %1 is used if it is set.</source>
        <translation>未存储密钥；如已设置 %1，则使用它。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The stored key is removed when you press OK.</source>
        <translation>按“确定”后将移除已存储的密钥。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The key you typed replaces the stored one when you press OK.</source>
        <translation>按“确定”后，输入的密钥将替换已存储的密钥。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The key you typed is saved when you press OK.</source>
        <translation>按“确定”后将保存输入的密钥。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Stored — type a new key to replace it</source>
        <translation>已存储 — 输入新密钥以替换</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Paste the API key</source>
        <translation>粘贴 API 密钥</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Base URL: %1</source>
        <translation>基础 URL：%1</translation>
    </message>
</context>
<context>
    <name>Gui::SkillList</name>
    <message>
        <location filename="../src/ui/serverbrowsers.cpp" line="+504"/>
        <source>Skill</source>
        <translation>技能</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Skills the servers offer. The model loads one with use_skill when a task matches it; its files are read then, and only if they match what the server listed (size, SHA-256, frontmatter).</source>
        <translation>服务器提供的技能。任务相符时，模型用 use_skill 加载技能；那时才读取其文件，并且只有在与服务器列出的内容（大小、SHA-256、frontmatter）一致时才使用。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No connected server offers skills. A server that does lists them here as soon as it is connected.</source>
        <translation>没有已连接的服务器提供技能。提供技能的服务器一连接，就会在此列出。</translation>
    </message>
    <message numerus="yes">
        <location line="+25"/>
        <source>%n bytes</source>
        <translation>
            <numerusform>%n 字节</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::ToolBrowser</name>
    <message>
        <location filename="../src/ui/toolbrowser.cpp" line="+260"/>
        <location line="+1"/>
        <source>Tools</source>
        <translation>工具</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Resources</source>
        <translation>资源</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Prompts</source>
        <translation>提示词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Skills</source>
        <translation>技能</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Search tools</source>
        <translation>搜索工具</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Risk</source>
        <translation>风险</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Input schema</source>
        <translation>输入 schema</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel run</source>
        <translation>取消运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location line="+90"/>
        <source>Built-in tools</source>
        <translation>内置工具</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MCP server: %1</source>
        <translation>MCP 服务器：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>(not offered to the model)</source>
        <translation>（不提供给模型）</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>(app only)</source>
        <translation>（仅限应用）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>App only: the server lets only its own interactive view call this tool, so the model is never offered it. You can still run it here.</source>
        <translation>仅限应用：服务器只允许它自己的交互视图调用此工具，因此从不提供给模型。你仍可在这里运行它。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Not offered to the model: the configuration leaves it out (enabledTools / disabledTools).</source>
        <translation>不提供给模型：配置中排除了它（enabledTools / disabledTools）。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>The tool &apos;%1&apos; is no longer available: its server stopped or changed its tool list.</source>
        <translation>工具“%1”已不可用：其服务器已停止或更改了工具列表。</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>No tool selected</source>
        <translation>未选择工具</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choose a tool on the left to see what it does and run it.</source>
        <translation>在左侧选择一个工具，查看其用途并运行。</translation>
    </message>
    <message>
        <location line="+11"/>
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
        <location line="+17"/>
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
        <location line="+23"/>
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
        <location line="+12"/>
        <source>Structured content:</source>
        <translation>结构化内容：</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>(The tool returned no content.)</source>
        <translation>（工具未返回任何内容。）</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Open the whole result…</source>
        <translation>打开完整结果…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Result of %1</source>
        <translation>%1 的结果</translation>
    </message>
    <message>
        <location line="+38"/>
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
    <name>Gui::TrustBanner</name>
    <message numerus="yes">
        <location filename="../src/ui/trustbanner.cpp" line="+165"/>
        <source>This folder&apos;s .mcp.json wants to start %n server(s)</source>
        <translation>
            <numerusform>此文件夹的 .mcp.json 要启动 %n 个服务器</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>They run as programs on your computer with your permissions. Trust them only if you trust this folder&apos;s author. A changed definition asks again.</source>
        <translation>它们会作为程序以你的权限在你的计算机上运行。只有在你信任此文件夹的作者时才信任它们。定义更改后会再次询问。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Trust</source>
        <translation>信任</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Trust every server listed here and start them</source>
        <translation>信任此处列出的所有服务器并启动它们</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Trust selected</source>
        <translation>信任所选</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Trust only the checked servers</source>
        <translation>仅信任勾选的服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not now</source>
        <translation>暂不</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keep them stopped; ask again when the folder is opened next time</source>
        <translation>保持停止；下次打开此文件夹时再次询问</translation>
    </message>
</context>
<context>
    <name>Gui::UiApprovalGate</name>
    <message>
        <location filename="../src/ui/uiapprovalgate.cpp" line="+26"/>
        <location line="+80"/>
        <source>the window closed</source>
        <translation>窗口已关闭</translation>
    </message>
    <message>
        <location line="-43"/>
        <location line="+19"/>
        <source>the turn was stopped</source>
        <translation>本轮已被停止</translation>
    </message>
</context>
<context>
    <name>Gui::UsageLabel</name>
    <message>
        <location filename="../src/ui/usagelabel.cpp" line="+46"/>
        <source>last turn: %1 in / %2 out tokens</source>
        <translation>上一轮：输入 %1 / 输出 %2 tokens</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>this conversation: %1 / %2</source>
        <translation>本对话：%1 / %2</translation>
    </message>
</context>
<context>
    <name>Gui::WindowHost</name>
    <message>
        <location filename="../src/ui/windowhost.cpp" line="+31"/>
        <source>sign-in needed: select the server in the Servers dock and press Sign in</source>
        <translation>需要登录：请在“服务器”面板中选中该服务器并点击“登录”</translation>
    </message>
</context>
<context>
    <name>Mcp</name>
    <message>
        <location filename="../src/mcp/client/listing.cpp" line="+85"/>
        <source>[not a content block]</source>
        <translation>[不是内容块]</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>[%1 %2, %3 bytes]</source>
        <translation>[%1 %2，%3 字节]</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unknown type</source>
        <translation>未知类型</translation>
    </message>
    <message>
        <location filename="../src/engine/serverrequests/elicitation.cpp" line="+43"/>
        <source>declined</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>declined: a link is never opened without a person to say yes</source>
        <translation>已拒绝：没有人同意时绝不会打开链接</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>declined: the required field &apos;%1&apos; has no default</source>
        <translation>已拒绝：必填字段“%1”没有默认值</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>accepted with the defaults</source>
        <translation>已使用默认值接受</translation>
    </message>
</context>
<context>
    <name>Mcp::Apps</name>
    <message>
        <location filename="../src/mcp/apps/appmeta.cpp" line="+92"/>
        <source>_meta.ui.resourceUri is not a ui:// uri; ignored</source>
        <translation>_meta.ui.resourceUri 不是 ui:// URI；已忽略</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>names its view with the deprecated _meta[&quot;ui/resourceUri&quot;]; used, but servers should send _meta.ui.resourceUri</source>
        <translation>用已弃用的 _meta[&quot;ui/resourceUri&quot;] 指定视图；已采用，但服务器应发送 _meta.ui.resourceUri</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>_meta[&quot;ui/resourceUri&quot;] (deprecated) is not a ui:// uri; ignored</source>
        <translation>_meta[&quot;ui/resourceUri&quot;]（已弃用）不是 ui:// URI；已忽略</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>_meta[&quot;ui/resourceUri&quot;] (deprecated) differs from _meta.ui.resourceUri; the latter is used</source>
        <translation>_meta[&quot;ui/resourceUri&quot;]（已弃用）与 _meta.ui.resourceUri 不同；采用后者</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>_meta.ui.visibility is not a list; the tool is treated as visible to both the model and its view</source>
        <translation>_meta.ui.visibility 不是列表；该工具按对模型和其视图都可见处理</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>_meta.ui.visibility has an unknown entry %1; ignored</source>
        <translation>_meta.ui.visibility 含未知条目 %1；已忽略</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>tool &apos;%1&apos;: %2</source>
        <translation>工具“%1”：%2</translation>
    </message>
</context>
<context>
    <name>Mcp::Apps::BridgeMessage</name>
    <message>
        <location filename="../src/mcp/apps/bridgemessage.cpp" line="+36"/>
        <source>a message of %1 bytes, more than the %2 a view may send</source>
        <translation>消息有 %1 字节，超过视图可发送的 %2 字节</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>not JSON</source>
        <translation>不是 JSON</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>not a JSON-RPC message (an object is expected)</source>
        <translation>不是 JSON-RPC 消息（应为对象）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>not a JSON-RPC 2.0 message</source>
        <translation>不是 JSON-RPC 2.0 消息</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the id is neither an integer nor a short string</source>
        <translation>id 既不是整数也不是短字符串</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the method is not a string</source>
        <translation>method 不是字符串</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the method name is longer than %1 characters</source>
        <translation>方法名长于 %1 个字符</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>the params of %1 are not an object</source>
        <translation>%1 的 params 不是对象</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>neither a request, a notification nor a response</source>
        <translation>既不是请求、通知，也不是响应</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>a response needs exactly one of result and error</source>
        <translation>响应必须且只能含 result 与 error 之一</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>the error of a response is not an object</source>
        <translation>响应的 error 不是对象</translation>
    </message>
</context>
<context>
    <name>Mcp::Apps::ContentPolicy</name>
    <message>
        <location filename="../src/mcp/apps/contentpolicy.cpp" line="+124"/>
        <source>empty</source>
        <translation>为空</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>longer than %1 characters</source>
        <translation>长于 %1 个字符</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>not an http, https, ws or wss origin</source>
        <translation>不是 http、https、ws 或 wss 源</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the path has characters a source cannot have</source>
        <translation>路径含有源表达式不能包含的字符</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>an unclosed IPv6 address</source>
        <translation>未闭合的 IPv6 地址</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>not an IPv6 address</source>
        <translation>不是 IPv6 地址</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>not a host</source>
        <translation>不是主机</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>not a host name</source>
        <translation>不是主机名</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>a wildcard over a whole top-level domain</source>
        <translation>通配了整个顶级域</translation>
    </message>
    <message>
        <location line="-17"/>
        <location line="+7"/>
        <location line="+19"/>
        <source>not a port</source>
        <translation>不是端口</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1: &quot;%2&quot; dropped (%3)</source>
        <translation>%1：已丢弃“%2”（%3）</translation>
    </message>
</context>
<context>
    <name>Mcp::Bundles</name>
    <message>
        <location filename="../src/mcp/bundles/bundle.cpp" line="+72"/>
        <source>it holds more than %1 files</source>
        <translation>它包含超过 %1 个文件</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>the entry &apos;%1&apos;: %2</source>
        <translation>条目“%1”：%2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the entry &apos;%1&apos; has an empty or &apos;.&apos; part</source>
        <translation>条目“%1”含有空的或“.”路径段</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the entry &apos;%1&apos; is a symbolic link</source>
        <translation>条目“%1”是符号链接</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the entry &apos;%1&apos; is not a file or a folder</source>
        <translation>条目“%1”不是文件或文件夹</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the entry &apos;%1&apos; declares a negative size</source>
        <translation>条目“%1”声明了负数大小</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the entry &apos;%1&apos; unpacks to more than %2 MiB</source>
        <translation>条目“%1”解压后超过 %2 MiB</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>it unpacks to more than %1 MiB</source>
        <translation>它解压后超过 %1 MiB</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the entry &apos;%1&apos; is in it twice</source>
        <translation>条目“%1”出现了两次</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>it inflates %1 times (a zip bomb?)</source>
        <translation>它膨胀了 %1 倍（压缩炸弹？）</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>its signature block is cut short</source>
        <translation>它的签名块不完整</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>its signature block&apos;s length is wrong</source>
        <translation>它的签名块长度不对</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>its signature is not a PKCS#7 signature</source>
        <translation>它的签名不是 PKCS#7 签名</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>its signature is not a detached PKCS#7 signature</source>
        <translation>它的签名不是分离式 PKCS#7 签名</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>its signature cannot be checked (out of memory)</source>
        <translation>无法检查它的签名（内存不足）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>its signature does not match its contents: it was changed after it was signed</source>
        <translation>它的签名与内容不符：签名后被修改过</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>its signature names no certificate</source>
        <translation>它的签名没有指明证书</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>%1 is not a file</source>
        <translation>%1 不是文件</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+8"/>
        <source>%1 is larger than %2 MiB</source>
        <translation>%1 大于 %2 MiB</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>%1 cannot be read: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location line="+18"/>
        <location line="+25"/>
        <location line="+47"/>
        <source>The bundle is refused: %1.</source>
        <translation>已拒绝该扩展包：%1。</translation>
    </message>
    <message>
        <location line="-65"/>
        <source>The bundle is refused: it is not a zip file.</source>
        <translation>已拒绝该扩展包：它不是 zip 文件。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The bundle is refused: its zip directory cannot be read.</source>
        <translation>已拒绝该扩展包：无法读取它的 zip 目录。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>The bundle is refused: it has no manifest.json at its top.</source>
        <translation>已拒绝该扩展包：其顶层没有 manifest.json。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The bundle is refused: its manifest.json cannot be read.</source>
        <translation>已拒绝该扩展包：无法读取它的 manifest.json。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The bundle is refused: its manifest.json is larger than 1 MiB.</source>
        <translation>已拒绝该扩展包：它的 manifest.json 大于 1 MiB。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The bundle is refused: its manifest.json is not JSON (%1).</source>
        <translation>已拒绝该扩展包：它的 manifest.json 不是 JSON（%1）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The bundle is refused: manifest.json: %1.</source>
        <translation>已拒绝该扩展包：manifest.json：%1。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The bundle is refused: its entry point %1 is not a file in it.</source>
        <translation>已拒绝该扩展包：其入口 %1 不是包中的文件。</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>%1 exists already</source>
        <translation>%1 已存在</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+15"/>
        <source>%1 cannot be created</source>
        <translation>无法创建 %1</translation>
    </message>
    <message>
        <location line="-10"/>
        <source>the bundle is not a zip file</source>
        <translation>该扩展包不是 zip 文件</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>the folder of %1 cannot be created</source>
        <translation>无法创建 %1 所在的文件夹</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 cannot be found in the zip</source>
        <translation>在 zip 中找不到 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 cannot be read from the zip</source>
        <translation>无法从 zip 中读取 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 cannot be written</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 unpacks to more than it declares</source>
        <translation>%1 解压后的大小超过其声明</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 cannot be written: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 is damaged in the zip (its checksum does not match)</source>
        <translation>%1 在 zip 中已损坏（校验和不符）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 cannot be moved into place</source>
        <translation>无法将 %1 移动到位</translation>
    </message>
    <message>
        <location filename="../src/mcp/bundles/manifest.cpp" line="+291"/>
        <source>the path is empty</source>
        <translation>路径为空</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the path is too long or holds a control character</source>
        <translation>路径过长或含有控制字符</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&apos;%1&apos; holds a backslash</source>
        <translation>“%1”含有反斜杠</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&apos;%1&apos; is an absolute path</source>
        <translation>“%1”是绝对路径</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&apos;%1&apos; leads out of the bundle (&apos;..&apos;)</source>
        <translation>“%1”指向扩展包之外（“..”）</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>manifest.json is not a JSON object</source>
        <translation>manifest.json 不是 JSON 对象</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>manifest.json nests deeper than %1 levels</source>
        <translation>manifest.json 嵌套超过 %1 层</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>is required</source>
        <translation>是必填项</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&apos;%1&apos; is not a version this reads (0.2, 0.3, 0.4)</source>
        <translation>“%1”不是可读取的版本（0.2、0.3、0.4）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&apos;%1&apos; is not a name a bundle&apos;s folder can have (letters, digits, &apos;.&apos;, &apos;_&apos;, &apos;-&apos;; at most %2)</source>
        <translation>“%1”不能用作扩展包的文件夹名（字母、数字、“.”、“_”、“-”；最多 %2 个）</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>&apos;%1&apos; is not one of node, python, binary, uv</source>
        <translation>“%1”不是 node、python、binary、uv 之一</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>must be an object</source>
        <translation>必须是对象</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>&apos;%1&apos; is not one of darwin, win32, linux</source>
        <translation>“%1”不是 darwin、win32、linux 之一</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>has more than %1 entries</source>
        <translation>超过 %1 项</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>%1 runs on %2 only, not on %3</source>
        <translation>%1 只能在 %2 上运行，不能在 %3 上运行</translation>
    </message>
    <message>
        <location line="+77"/>
        <source>%1 is required</source>
        <translation>%1 是必填项</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 holds a control character</source>
        <translation>%1 含有控制字符</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 must be a number</source>
        <translation>%1 必须是数字</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 must be between %2 and %3</source>
        <translation>%1 必须在 %2 和 %3 之间</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 must be true or false</source>
        <translation>%1 必须是 true 或 false</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>%1 names no command to start</source>
        <translation>%1 没有指明要启动的命令</translation>
    </message>
</context>
<context>
    <name>Mcp::Bundles::Reader</name>
    <message>
        <location line="-525"/>
        <source>&apos;%1&apos; is required</source>
        <translation>“%1”是必填项</translation>
    </message>
    <message>
        <location line="+15"/>
        <location line="+69"/>
        <location line="+31"/>
        <source>must be a string</source>
        <translation>必须是字符串</translation>
    </message>
    <message>
        <location line="-95"/>
        <source>is longer than %1 characters</source>
        <translation>超过 %1 个字符</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>holds a control character</source>
        <translation>含有控制字符</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>must not be empty</source>
        <translation>不能为空</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>&apos;%1&apos; is not an http(s) address</source>
        <translation>“%1”不是 http(s) 地址</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>must be a list</source>
        <translation>必须是列表</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+49"/>
        <source>has more than %1 entries</source>
        <translation>超过 %1 项</translation>
    </message>
    <message>
        <location line="-37"/>
        <location line="+69"/>
        <location line="+15"/>
        <source>must be an object</source>
        <translation>必须是对象</translation>
    </message>
    <message>
        <location line="-64"/>
        <location line="+31"/>
        <location line="+94"/>
        <source>is too long or holds a control character</source>
        <translation>过长或含有控制字符</translation>
    </message>
    <message>
        <location line="-103"/>
        <source>is not an environment variable&apos;s name</source>
        <translation>不是环境变量名</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>is not a key a ${user_config.KEY} placeholder can name</source>
        <translation>不是 ${user_config.KEY} 占位符可以引用的键</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&apos;%1&apos; is not one of string, number, boolean, directory, file</source>
        <translation>“%1”不是 string、number、boolean、directory、file 之一</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>must be true or false</source>
        <translation>必须是 true 或 false</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>must be a number</source>
        <translation>必须是数字</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>must be a string, a number, true or false</source>
        <translation>必须是字符串、数字、true 或 false</translation>
    </message>
</context>
<context>
    <name>Mcp::Client</name>
    <message>
        <location filename="../src/mcp/client/client.cpp" line="+58"/>
        <source>the server ended the session; a new one was set up</source>
        <translation>服务器结束了会话；已建立新会话</translation>
    </message>
    <message>
        <location filename="../src/mcp/client/clienthandshake.cpp" line="+124"/>
        <source>server/discover failed: %1</source>
        <translation>server/discover 失败：%1</translation>
    </message>
    <message>
        <location line="+94"/>
        <source>initialize failed: %1</source>
        <translation>initialize 失败：%1</translation>
    </message>
    <message>
        <location line="+6"/>
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
        <location filename="../src/mcp/client/clienttools.cpp" line="+87"/>
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
        <location line="+20"/>
        <source>tools/list: duplicate tool &apos;%1&apos;; kept the first</source>
        <translation>tools/list：工具“%1”重复；保留第一个</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>tools/list: tool &apos;%1&apos; left out: %2</source>
        <translation>tools/list：已略去工具“%1”：%2</translation>
    </message>
    <message>
        <location filename="../src/mcp/client/client.cpp" line="+137"/>
        <source>ignored a message that is not JSON-RPC: %1</source>
        <translation>已忽略一条非 JSON-RPC 消息：%1</translation>
    </message>
    <message>
        <location filename="../src/mcp/client/clientsubscriptions.cpp" line="+170"/>
        <source>subscriptions/listen failed: %1; list changes and resource updates will not be seen</source>
        <translation>subscriptions/listen 失败：%1；将看不到列表变化和资源更新</translation>
    </message>
    <message>
        <location filename="../src/mcp/client/client.cpp" line="+258"/>
        <source>the connection closed</source>
        <translation>连接已关闭</translation>
    </message>
</context>
<context>
    <name>Mcp::ConfigLoader</name>
    <message>
        <location filename="../src/mcp/config/configpositions.cpp" line="+294"/>
        <location filename="../src/mcp/config/configvariables.cpp" line="+228"/>
        <source>server &apos;%1&apos;: %2</source>
        <translation>服务器 “%1”：%2</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>object key</source>
        <translation>对象键</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>object separator</source>
        <translation>对象分隔符</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>array</source>
        <translation>数组</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>object</source>
        <translation>对象</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&apos;[&apos;, &apos;{&apos;, or a literal</source>
        <translation>“[”、“{”或字面量</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>true literal</source>
        <translation>true 字面量</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>false literal</source>
        <translation>false 字面量</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>null literal</source>
        <translation>null 字面量</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>string literal</source>
        <translation>字符串</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>number literal</source>
        <translation>数字</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>end of input</source>
        <translation>输入结尾</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>invalid string: ill-formed UTF-8 byte</source>
        <translation>无效字符串：UTF-8 字节格式错误</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>invalid string: missing closing quote</source>
        <translation>无效字符串：缺少结束引号</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>invalid string: &apos;\u&apos; must be followed by 4 hex digits</source>
        <translation>无效字符串：“\u”后必须跟 4 位十六进制数字</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>invalid string: surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF</source>
        <translation>无效字符串：代理项 U+D800..U+DBFF 后必须跟 U+DC00..U+DFFF</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>invalid string: surrogate U+DC00..U+DFFF must follow U+D800..U+DBFF</source>
        <translation>无效字符串：代理项 U+DC00..U+DFFF 必须跟在 U+D800..U+DBFF 之后</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>invalid string: forbidden character after backslash</source>
        <translation>无效字符串：反斜杠后是不允许的字符</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>invalid number; expected digit after &apos;-&apos;</source>
        <translation>无效数字；“-”后应为数字</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>invalid number; expected digit after &apos;.&apos;</source>
        <translation>无效数字；“.”后应为数字</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>invalid number; expected &apos;+&apos;, &apos;-&apos;, or digit after exponent</source>
        <translation>无效数字；指数后应为“+”、“-”或数字</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>invalid number; expected digit after exponent sign</source>
        <translation>无效数字；指数符号后应为数字</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>invalid literal</source>
        <translation>无效的字面量</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>invalid BOM; must be 0xEF 0xBB 0xBF if given</source>
        <translation>无效的 BOM；如有则必须是 0xEF 0xBB 0xBF</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>unexpected %1</source>
        <translation>意外的%1</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1 or %2</source>
        <translation>%1 或 %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>invalid string: control character %1 (%2) must be escaped to %3</source>
        <translation>无效字符串：控制字符 %1（%2）必须转义为 %3</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>syntax error - %1</source>
        <translation>语法错误 - %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>syntax error while parsing %1 - %2</source>
        <translation>解析%1时出现语法错误 - %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1; expected %2</source>
        <translation>%1；应为%2</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>the file is larger than %1 KiB; this is not a configuration file</source>
        <translation>文件大于 %1 KiB，不是配置文件</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>NUL byte: JSON text must be UTF-8 (was the file saved as UTF-16?)</source>
        <translation>含有 NUL 字节：JSON 文本必须为 UTF-8 编码（文件是否以 UTF-16 保存？）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>nesting deeper than %1 levels</source>
        <translation>嵌套深度超过 %1 层</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>cannot parse: %1</source>
        <translation>无法解析：%1</translation>
    </message>
    <message>
        <location filename="../src/mcp/config/configvariables.cpp" line="-165"/>
        <source>unterminated &apos;${&apos;: add the closing &apos;}&apos;</source>
        <translation>“${” 未闭合：请添加结尾的 “}”</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>a keychain secret (&apos;${%1}&apos;) can be used only in a server&apos;s args, env and headers</source>
        <translation>钥匙串密钥（“${%1}”）只能用在服务器的 args、env 和 headers 中</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&apos;${%1}&apos; does not name a keychain secret; use ${secret:NAME} (NAME: a letter or &apos;_&apos;, then letters, digits, &apos;_&apos;, &apos;-&apos; or &apos;.&apos;; at most %2 characters)</source>
        <translation>“${%1}”不是钥匙串密钥的名称；请使用 ${secret:NAME}（NAME：以字母或“_”开头，后跟字母、数字、“_”、“-”或“.”；最多 %2 个字符）</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>&apos;${%1}&apos; is not a variable reference; use ${NAME} or ${NAME:-default} (letters, digits, &apos;_&apos;)</source>
        <translation>“${%1}” 不是变量引用；请使用 ${NAME} 或 ${NAME:-default}（字母、数字、“_”）</translation>
    </message>
    <message>
        <location line="+72"/>
        <source>the keychain secret %1 (used in %2) is not set; set it in Settings → Server secrets or with: switchboard-cli secret set %1</source>
        <translation>钥匙串密钥 %1（用于 %2）尚未设置；请在“设置 → 服务器密钥”中设置，或运行：switchboard-cli secret set %1</translation>
    </message>
    <message>
        <location filename="../src/mcp/config/configchecks.cpp" line="+18"/>
        <source>&quot;stdio&quot;, &quot;http&quot;, &quot;streamable-http&quot; or &quot;sse&quot;</source>
        <extracomment>The values &quot;type&quot; accepts: keep the quoted words as they are.</extracomment>
        <translation>&quot;stdio&quot;、&quot;http&quot;、&quot;streamable-http&quot; 或 &quot;sse&quot;</translation>
    </message>
    <message>
        <location line="+343"/>
        <location line="+184"/>
        <source>an object</source>
        <extracomment>A JSON value&apos;s type, completing &quot;&apos;%1&apos; must be %2, not %3&quot;.</extracomment>
        <translation>对象</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a list</source>
        <translation>列表</translation>
    </message>
    <message>
        <location line="-428"/>
        <location line="+121"/>
        <location line="+35"/>
        <location line="+72"/>
        <location line="+202"/>
        <source>a string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a boolean</source>
        <translation>布尔值</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a number</source>
        <translation>数字</translation>
    </message>
    <message>
        <location line="-525"/>
        <source>&apos;%1&apos; contains the control character U+%2; names, commands, arguments and variable names must not contain control characters</source>
        <translation>“%1” 包含控制字符 U+%2；名称、命令、参数和变量名都不能包含控制字符</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>the server name contains the control character U+%1</source>
        <translation>服务器名称包含控制字符 U+%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>a server name may only contain letters A-Z and a-z, digits, &apos;_&apos;, &apos;.&apos; and &apos;-&apos; (not &apos;%1&apos;)</source>
        <translation>服务器名称只能包含字母 A-Z 和 a-z、数字、“_”、“.” 和 “-”（不能包含 “%1”）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>a server name may be at most %1 characters long, not %2</source>
        <translation>服务器名称最多 %1 个字符，而不是 %2 个</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the name &apos;%1&apos; is reserved for Switchboard&apos;s built-in tools; choose another name</source>
        <translation>名称 “%1” 保留给 Switchboard 的内置工具使用；请另选一个名称</translation>
    </message>
    <message>
        <location line="+526"/>
        <source>&apos;%1&apos; must be %2, not %3</source>
        <translation>“%1” 必须是%2，而不是%3</translation>
    </message>
    <message>
        <location line="-548"/>
        <source>a server name must not be empty</source>
        <translation>服务器名称不能为空</translation>
    </message>
    <message>
        <location line="+521"/>
        <source>an object with &quot;command&quot; or &quot;url&quot;</source>
        <translation>包含 &quot;command&quot; 或 &quot;url&quot; 的对象</translation>
    </message>
    <message>
        <location line="-349"/>
        <source>a string: </source>
        <translation>字符串：</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>unknown type &apos;%1&apos;; expected %2</source>
        <translation>未知类型 “%1”；应为 %2</translation>
    </message>
    <message>
        <location line="-107"/>
        <location line="+120"/>
        <source>&apos;%1&apos; must not be empty</source>
        <translation>“%1” 不能为空</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>has both &apos;command&apos; and &apos;url&apos;; a server is either a program to start (stdio) or an HTTP endpoint, not both</source>
        <translation>同时包含 “command” 和 “url”；服务器要么是要启动的程序（stdio），要么是 HTTP 端点，不能两者兼有</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>needs &apos;command&apos; (a program to start) or &apos;url&apos; (an HTTP endpoint)</source>
        <translation>需要 “command”（要启动的程序）或 “url”（HTTP 端点）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>type &apos;stdio&apos; needs &apos;command&apos;, not &apos;url&apos;</source>
        <translation>类型 “stdio” 需要 “command”，而不是 “url”</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>type &apos;%1&apos; needs &apos;url&apos;, not &apos;command&apos;</source>
        <translation>类型 “%1” 需要 “url”，而不是 “command”</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>a list of strings</source>
        <translation>字符串列表</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>a &quot;KEY=VALUE&quot; string</source>
        <translation>&quot;KEY=VALUE&quot; 形式的字符串</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&apos;%1&apos; must look like &quot;KEY=VALUE&quot;, not &quot;%2&quot;</source>
        <translation>“%1” 必须形如 &quot;KEY=VALUE&quot;，而不是 &quot;%2&quot;</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>an object or a list of &quot;KEY=VALUE&quot; strings</source>
        <translation>对象或 &quot;KEY=VALUE&quot; 字符串列表</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>an object of strings</source>
        <translation>值为字符串的对象</translation>
    </message>
    <message>
        <location line="-218"/>
        <location line="+328"/>
        <source>true or false</source>
        <translation>true 或 false</translation>
    </message>
    <message>
        <location line="-351"/>
        <source>&apos;sandbox&apos; applies only to stdio servers (a program Switchboard starts)</source>
        <translation>“sandbox” 仅适用于 stdio 服务器（由 Switchboard 启动的程序）</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>true, false or an object such as {&quot;network&quot;: false, &quot;write&quot;: [&quot;out&quot;]}</source>
        <translation>true、false 或对象，例如 {&quot;network&quot;: false, &quot;write&quot;: [&quot;out&quot;]}</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>a list of folders</source>
        <translation>文件夹列表</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>unknown key &apos;%1&apos; in &apos;sandbox&apos;; expected &quot;network&quot; or &quot;write&quot;</source>
        <translation>“sandbox” 中有未知的键 “%1”；应为 &quot;network&quot; 或 &quot;write&quot;</translation>
    </message>
    <message>
        <location line="+230"/>
        <source>&apos;oauth&apos; applies only to remote servers (&quot;url&quot;)</source>
        <translation>“oauth” 仅适用于远程服务器（&quot;url&quot;）</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>a string that is not empty</source>
        <translation>非空字符串</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>&apos;oauth.clientMetadataUrl&apos; must be an https URL</source>
        <translation>“oauth.clientMetadataUrl” 必须是 https 网址</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&apos;oauth.grant&apos; must be &quot;authorization_code&quot; or &quot;client_credentials&quot;</source>
        <translation>“oauth.grant” 必须是 &quot;authorization_code&quot; 或 &quot;client_credentials&quot;</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&apos;oauth.scopes&apos; must be a list of scope names (strings that are not empty)</source>
        <translation>“oauth.scopes” 必须是范围名称的列表（非空字符串）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>unknown key &apos;%1&apos; in &apos;oauth&apos;; expected &quot;clientId&quot;, &quot;clientSecret&quot;, &quot;scopes&quot;, &quot;clientMetadataUrl&quot;, &quot;grant&quot; or &quot;privateKeyFile&quot;</source>
        <translation>“oauth” 中有未知的键 “%1”；应为 &quot;clientId&quot;、&quot;clientSecret&quot;、&quot;scopes&quot;、&quot;clientMetadataUrl&quot;、&quot;grant&quot; 或 &quot;privateKeyFile&quot;</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&apos;oauth&apos; with &quot;grant&quot;: &quot;client_credentials&quot; needs &quot;clientId&quot; and &quot;clientSecret&quot; or &quot;privateKeyFile&quot;</source>
        <translation>带有 &quot;grant&quot;: &quot;client_credentials&quot; 的 “oauth” 需要 &quot;clientId&quot;，以及 &quot;clientSecret&quot; 或 &quot;privateKeyFile&quot;</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>a number of seconds</source>
        <translation>秒数</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&apos;%1&apos; must be a positive number of seconds</source>
        <translation>“%1” 必须是大于 0 的秒数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&apos;%1&apos; must be at most %2 seconds (one day)</source>
        <translation>“%1” 不能超过 %2 秒（一天）</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>in &apos;%1&apos;: %2</source>
        <translation>在 “%1” 中：%2</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>a variable put the control character U+%1 into %2</source>
        <translation>某个变量将控制字符 U+%1 带入了 %2</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>environment variable %1 is %2 (used in %3)</source>
        <translation>环境变量 %1 %2（在 %3 中使用）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>empty</source>
        <translation>为空</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <location filename="../src/mcp/config/configpositions.cpp" line="+11"/>
        <source>duplicate key &apos;%1&apos; (first at line %2); a key may appear only once in an object</source>
        <translation>重复的键 “%1”（首次出现在第 %2 行）；一个对象中每个键只能出现一次</translation>
    </message>
    <message>
        <location filename="../src/mcp/config/config.cpp" line="+165"/>
        <source>the top level must be an object: {&quot;mcpServers&quot;: {...}}, not %1</source>
        <translation>顶层必须是对象：{&quot;mcpServers&quot;: {...}}，而不是%1</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>&apos;secretVariables&apos; must be a list of variable names, such as [&quot;GITHUB_TOKEN&quot;]</source>
        <translation>“secretVariables”必须是变量名列表，例如 [&quot;GITHUB_TOKEN&quot;]</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&apos;mcpServers&apos; must be an object mapping server names to their settings, not %1</source>
        <translation>“mcpServers” 必须是将服务器名称映射到其设置的对象，而不是%1</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>is not a regular file (a FIFO, device or socket, or a link to one); a configuration must be a plain file</source>
        <translation>不是普通文件（而是 FIFO、设备或套接字，或指向它们的链接）；配置必须是普通文件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>is a directory, not a configuration file</source>
        <translation>是目录，而不是配置文件</translation>
    </message>
    <message>
        <location line="+18"/>
        <location line="+8"/>
        <location line="+4"/>
        <location line="+13"/>
        <location line="+18"/>
        <source>cannot read the file: %1</source>
        <translation>无法读取文件：%1</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>server &apos;%2&apos; would give its tools the same names as server &apos;%1&apos; (%3): both become mcp__%4__...; rename one of them</source>
        <translation>服务器 “%2” 的工具名称会与服务器 “%1”（%3）的相同：二者都会变成 mcp__%4__...；请重命名其中一个</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>line %1</source>
        <translation>第 %1 行</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>server &apos;%1&apos;: your own configuration (%2) already defines a server of this name; this folder&apos;s definition is ignored (rename it here to use both)</source>
        <translation>服务器 “%1”：你自己的配置（%2）已定义了同名服务器；此文件夹中的定义将被忽略（在此处重命名即可同时使用两者）</translation>
    </message>
    <message>
        <location filename="../src/mcp/config/configvariables.cpp" line="+32"/>
        <source>a workspace&apos;s file may not read ${%1} (in %2): it holds a secret of yours (a provider key, or a variable your own configuration lists in &quot;secretVariables&quot;); define it in your own configuration (%3) if it should have it</source>
        <translation>工作区的文件不能读取 ${%1}（用于 %2）：它保存着你的机密（提供商密钥，或你自己的配置在“secretVariables”中列出的变量）；如果该服务器应当获得它，请在你自己的配置（%3）中定义它</translation>
    </message>
    <message>
        <location filename="../src/mcp/config/config.cpp" line="+28"/>
        <source>file not found</source>
        <translation>找不到文件</translation>
    </message>
    <message>
        <location filename="../src/mcp/config/configimport.cpp" line="+193"/>
        <source>the top level must be an object, not %1</source>
        <translation>顶层必须是对象，而不是%1</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>no &quot;servers&quot; object (mcp.json) or &quot;mcp&quot;: {&quot;servers&quot;} (settings.json): is this a VS Code file?</source>
        <translation>没有 &quot;servers&quot; 对象（mcp.json）或 &quot;mcp&quot;: {&quot;servers&quot;}（settings.json）：这是 VS Code 的文件吗？</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no &quot;mcpServers&quot; object: is this a %1 file?</source>
        <translation>没有 &quot;mcpServers&quot; 对象：这是 %1 的文件吗？</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&apos;%1&apos; must be an object mapping server names to their settings, not %2</source>
        <translation>“%1” 必须是将服务器名称映射到其设置的对象，而不是%2</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&apos;inputs&apos; must be a list, not %1</source>
        <translation>“inputs” 必须是列表，而不是%1</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>input &apos;%1&apos;%2 is now the environment variable %3; set it before starting Switchboard</source>
        <translation>输入项 “%1”%2 现已改为环境变量 %3；请在启动 Switchboard 前设置它</translation>
    </message>
</context>
<context>
    <name>Mcp::ConfigPatcher</name>
    <message>
        <location filename="../src/mcp/config/configpatcher.cpp" line="+205"/>
        <source>line %1, column %2</source>
        <translation>第 %1 行，第 %2 列</translation>
    </message>
    <message>
        <location line="+7"/>
        <location line="+28"/>
        <source>Cannot change %1: %2</source>
        <translation>无法修改 %1：%2</translation>
    </message>
    <message>
        <location line="-24"/>
        <source>the file is larger than %1 KiB.</source>
        <translation>文件超过 %1 KiB。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>it contains a NUL byte (%1); it must be UTF-8 text.</source>
        <translation>其中包含 NUL 字节（%1）；必须是 UTF-8 文本。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>it is not valid JSON (%1: %2). Fix the file first.</source>
        <translation>不是有效的 JSON（%1：%2）。请先修复该文件。</translation>
    </message>
    <message>
        <location line="+31"/>
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
        <location line="+4"/>
        <source>internal error: server &apos;%1&apos; not found in the text.</source>
        <translation>内部错误：文本中未找到服务器“%1”。</translation>
    </message>
    <message>
        <location line="+73"/>
        <source>Cannot change %1: the edit did not produce the expected document (internal error); the file was left unchanged.</source>
        <translation>无法修改 %1：编辑结果与预期文档不符（内部错误）；文件未做更改。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>the file does not exist</source>
        <translation>文件不存在</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+191"/>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location line="-177"/>
        <source>Cannot save %1: %2</source>
        <translation>无法保存 %1：%2</translation>
    </message>
    <message>
        <location line="-144"/>
        <source>it is not a JSON object.</source>
        <translation>它不是 JSON 对象。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>its &quot;mcpServers&quot; is not an object.</source>
        <translation>它的 &quot;mcpServers&quot; 不是对象。</translation>
    </message>
    <message>
        <location line="+234"/>
        <source>Cannot add to %1: it already defines a server named &apos;%2&apos;.</source>
        <translation>无法添加到 %1：其中已定义名为“%2”的服务器。</translation>
    </message>
    <message>
        <location line="+93"/>
        <source>Cannot create the folder of %1</source>
        <translation>无法创建 %1 所在的文件夹</translation>
    </message>
</context>
<context>
    <name>Mcp::Http</name>
    <message>
        <location filename="../src/mcp/transport/httpsupport.cpp" line="+173"/>
        <source>&apos;%1&apos; is not an http or https URL</source>
        <translation>“%1”不是 http 或 https 网址</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&apos;%1&apos; is not a valid HTTP header name</source>
        <translation>“%1”不是有效的 HTTP 头名称</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the value of header &apos;%1&apos; holds a line break or NUL</source>
        <translation>HTTP 头“%1”的值含有换行符或 NUL</translation>
    </message>
    <message>
        <location line="+86"/>
        <source>%1 answered HTTP %2</source>
        <translation>%1 返回了 HTTP %2</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1 requires authentication: %2 answered HTTP %3 to &apos;%4&apos;</source>
        <translation>%1 需要身份验证：%2 对“%4”返回了 HTTP %3</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>could not reach %1 (%2): %3</source>
        <translation>无法连接 %1（%2）：%3</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>%1 sent something that is not JSON: %2</source>
        <translation>%1 发送了非 JSON 内容：%2</translation>
    </message>
</context>
<context>
    <name>Mcp::HttpTransport</name>
    <message>
        <location filename="../src/mcp/transport/httptransport.cpp" line="+132"/>
        <location filename="../src/mcp/transport/ssetransport.cpp" line="+38"/>
        <source>server &apos;%1&apos;</source>
        <translation>服务器“%1”</translation>
    </message>
    <message>
        <location line="+130"/>
        <source>ignored a session id that is not visible ASCII</source>
        <translation>已忽略含非可见 ASCII 字符的会话 ID</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>%1 sent an answer over the message size cap (%2 bytes); dropped</source>
        <translation>%1 发送的应答超过消息大小上限（%2 字节），已丢弃</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>the answer has no result</source>
        <translation>应答中没有结果</translation>
    </message>
    <message>
        <location line="+71"/>
        <source>%1 ended the stream before the response to &apos;%2&apos;</source>
        <translation>%1 在“%2”的响应到达之前结束了事件流</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 answered HTTP %2 without a response to &apos;%3&apos;</source>
        <translation>%1 返回了 HTTP %2，但没有“%3”的响应</translation>
    </message>
    <message>
        <location line="+73"/>
        <source>%1: sign-in failed: %2</source>
        <translation>%1：登录失败：%2</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>%1 speaks the older HTTP+SSE transport; messages now go to %2</source>
        <translation>%1 使用较旧的 HTTP+SSE 传输；消息此后发往 %2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 (and no HTTP+SSE stream there either: %2)</source>
        <translation>%1（那里也没有 HTTP+SSE 事件流：%2）</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>%1 no longer knows the session (HTTP 404)</source>
        <translation>%1 已不认识该会话（HTTP 404）</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>%1 ended the session and did not accept a new one: %2</source>
        <translation>%1 结束了会话且不接受新会话：%2</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>the server&apos;s stream</source>
        <translation>服务器的事件流</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>%1 keeps closing its event stream; server messages now arrive only with answers</source>
        <translation>%1 不断关闭其事件流；此后服务器消息只随应答到达</translation>
    </message>
    <message>
        <location line="+67"/>
        <source>end of the session</source>
        <translation>结束会话</translation>
    </message>
    <message>
        <location filename="../src/mcp/transport/ssetransport.cpp" line="+44"/>
        <source>%1 named an endpoint on another origin (%2); refused</source>
        <translation>%1 指定了其他源上的端点（%2），已拒绝</translation>
    </message>
</context>
<context>
    <name>Mcp::Listing</name>
    <message>
        <location filename="../src/mcp/client/listing.cpp" line="-55"/>
        <source>%1 failed: %2</source>
        <translation>%1 失败：%2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: the answer has no &quot;%2&quot; list</source>
        <translation>%1：回答中没有 &quot;%2&quot; 列表</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1: nextCursor is not a string</source>
        <translation>%1：nextCursor 不是字符串</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1: stopped after %2 pages (the server keeps sending more, or the same cursor again)</source>
        <translation>%1：在 %2 页后停止（服务器不断发送更多页，或重复发送同一个游标）</translation>
    </message>
</context>
<context>
    <name>Mcp::Manager</name>
    <message>
        <location filename="../src/mcp/manager.cpp" line="+160"/>
        <source>this folder&apos;s server is not trusted yet: it runs once you trust it</source>
        <translation>此文件夹的服务器尚未受信任：信任后才会运行</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>its definition reads the keychain secret %1, and no keychain is available here</source>
        <translation>其定义读取钥匙串密钥 %1，但这里没有可用的钥匙串</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>reading its secrets from the keychain</source>
        <translation>正在从钥匙串读取其密钥</translation>
    </message>
    <message>
        <location line="+160"/>
        <source>did not finish starting within %1 s</source>
        <translation>未能在 %1 秒内完成启动</translation>
    </message>
    <message>
        <location line="+158"/>
        <source>%1 (gave up after %2 restarts within %3 s)</source>
        <translation>%1（%3 秒内重启 %2 次后放弃）</translation>
    </message>
</context>
<context>
    <name>Mcp::OAuth::Authorizer</name>
    <message>
        <location filename="../src/mcp/auth/oauthclient.cpp" line="+42"/>
        <source>HTTP %1</source>
        <translation>HTTP %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location filename="../src/mcp/auth/oauthagents.cpp" line="+49"/>
        <source>the authorization endpoint answered HTTP %1 without sending the browser back</source>
        <translation>授权端点返回了 HTTP %1，但没有将浏览器重定向回来</translation>
    </message>
    <message>
        <location filename="../src/mcp/auth/oauthclient.cpp" line="+125"/>
        <source>the server refuses access (HTTP 403)</source>
        <translation>服务器拒绝访问（HTTP 403）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the server refuses access: %1</source>
        <translation>服务器拒绝访问：%1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>the server still asks for more access (scope &apos;%1&apos;) after it was granted</source>
        <translation>服务器在授权之后仍要求更多权限（范围“%1”）</translation>
    </message>
    <message>
        <location line="+89"/>
        <source>%1 offers this client no way to register; add the client ID it gave you to the server&apos;s entry as &quot;oauth&quot;: {&quot;clientId&quot;: &quot;...&quot;}</source>
        <translation>%1 没有为此客户端提供注册方式；请将它给你的客户端 ID 以 &quot;oauth&quot;: {&quot;clientId&quot;: &quot;...&quot;} 的形式加入该服务器的条目</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>registering with %1 failed: %2</source>
        <translation>向 %1 注册失败：%2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 refused to register this client: %2</source>
        <translation>%1 拒绝注册此客户端：%2</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>nobody is there to sign in</source>
        <translation>没有可以登录的用户</translation>
    </message>
    <message>
        <location filename="../src/mcp/auth/oauthtokens.cpp" line="+77"/>
        <source>the client&apos;s private key cannot be used: %1</source>
        <translation>无法使用客户端的私钥：%1</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>the identity provider&apos;s token endpoint %1 is not https</source>
        <translation>身份提供方的令牌端点 %1 不是 https</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>the identity provider did not grant access to %1: %2</source>
        <translation>身份提供方未授予对 %1 的访问权限：%2</translation>
    </message>
    <message>
        <location line="+132"/>
        <source>the token endpoint issued a DPoP-bound token without being sent a proof</source>
        <translation>令牌端点在未收到证明的情况下签发了绑定 DPoP 的令牌</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>Mcp::OAuth::Discovery</name>
    <message>
        <location filename="../src/mcp/auth/oauthdiscovery.cpp" line="+248"/>
        <location line="+208"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="-196"/>
        <source>the protected resource metadata is not a JSON object</source>
        <translation>受保护资源元数据不是 JSON 对象</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the protected resource metadata names no resource</source>
        <translation>受保护资源元数据未指明资源</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the protected resource metadata is for %1, not for %2</source>
        <translation>该受保护资源元数据属于 %1，而不是 %2</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>the protected resource metadata names no usable authorization server (https, or http on this machine)</source>
        <translation>受保护资源元数据未指明可用的授权服务器（须为 https，或本机上的 http）</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>the authorization server metadata is not a JSON object</source>
        <translation>授权服务器元数据不是 JSON 对象</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>its issuer is &apos;%1&apos;, not &apos;%2&apos;; not used</source>
        <translation>其 issuer 为“%1”而非“%2”；未使用</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>an endpoint is missing, or not https (nor http on this machine)</source>
        <translation>缺少某个端点，或端点不是 https（也不是本机上的 http）</translation>
    </message>
    <message>
        <location line="+69"/>
        <source>the challenge&apos;s resource_metadata %1 is not https; ignored</source>
        <translation>质询中的 resource_metadata %1 不是 https；已忽略</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>no usable authorization server metadata for %1 (%2)</source>
        <translation>%1 没有可用的授权服务器元数据（%2）</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>%1: HTTP %2</source>
        <translation>%1：HTTP %2</translation>
    </message>
    <message>
        <location filename="../src/mcp/auth/oauthflow.cpp" line="+143"/>
        <source>%1 has no authorization endpoint</source>
        <translation>%1 没有授权端点</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 does not offer PKCE with S256, which sign-in requires</source>
        <translation>%1 不支持 S256 方式的 PKCE，而登录需要它</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>the answer from %1 does not carry this sign-in&apos;s state; ignored</source>
        <translation>来自 %1 的应答不带本次登录的 state；已忽略</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>the answer names issuer &apos;%1&apos;, not %2; ignored</source>
        <translation>应答中的 issuer 为“%1”，而不是 %2；已忽略</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the answer from %1 lacks the issuer it promised to send; ignored</source>
        <translation>来自 %1 的应答缺少其声明会发送的 issuer；已忽略</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 refused: %2</source>
        <translation>%1 拒绝了：%2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 refused: %2 (%3)</source>
        <translation>%1 拒绝了：%2（%3）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the answer from %1 has no code</source>
        <translation>来自 %1 的应答没有 code</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>the token endpoint answered HTTP %1 without a JSON object</source>
        <translation>令牌端点以 HTTP %1 应答，但没有 JSON 对象</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the token endpoint answered HTTP %1</source>
        <translation>令牌端点以 HTTP %1 应答</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the token endpoint refused: %1</source>
        <translation>令牌端点拒绝了：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the token endpoint refused: %1 (%2)</source>
        <translation>令牌端点拒绝了：%1（%2）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the token endpoint&apos;s answer has no access_token</source>
        <translation>令牌端点的应答中没有 access_token</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the token endpoint issued a token of type &apos;%1&apos;, which this client cannot use</source>
        <translation>令牌端点签发了类型为“%1”的令牌，本客户端无法使用</translation>
    </message>
</context>
<context>
    <name>Mcp::OAuth::LoopbackAgent</name>
    <message>
        <location filename="../src/mcp/auth/oauthagents.cpp" line="+15"/>
        <source>no answer came from the browser within %1 minutes</source>
        <translation>%1 分钟内浏览器没有返回应答</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>another sign-in started</source>
        <translation>另一次登录已开始</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>cannot listen on this machine for the browser&apos;s answer: %1</source>
        <translation>无法在本机监听浏览器的应答：%1</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>This is not the answer to the sign-in Switchboard is waiting for; it was ignored.</source>
        <translation>这不是 Switchboard 正在等待的登录应答；已忽略。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Nothing here.</source>
        <translation>此处没有内容。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sign-in was refused. You can close this tab and return to Switchboard.</source>
        <translation>登录被拒绝。你可以关闭此标签页并返回 Switchboard。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Signed in. You can close this tab and return to Switchboard.</source>
        <translation>已登录。你可以关闭此标签页并返回 Switchboard。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1 answers that were not for this sign-in came to its listener; it stopped waiting</source>
        <translation>有 %1 个不属于此次登录的应答发到了它的监听端口；已停止等待</translation>
    </message>
</context>
<context>
    <name>Mcp::OAuth::SigningKey</name>
    <message>
        <location filename="../src/mcp/auth/oauthcrypto.cpp" line="+89"/>
        <source>the private key is not a PEM private key</source>
        <translation>该私钥不是 PEM 格式的私钥</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the private key is on the curve %1; ES256 needs P-256</source>
        <translation>该私钥位于曲线 %1 上；ES256 需要 P-256</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the RSA private key has fewer than 2048 bits</source>
        <translation>该 RSA 私钥不足 2048 位</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the private key is neither EC P-256 nor RSA</source>
        <translation>该私钥既不是 EC P-256，也不是 RSA</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the private key is for %1, not %2</source>
        <translation>该私钥用于 %1，而不是 %2</translation>
    </message>
</context>
<context>
    <name>Mcp::Registry</name>
    <message>
        <location filename="../src/mcp/registry/serverjson.cpp" line="+364"/>
        <source>&apos;%1&apos; is not an npm package name</source>
        <translation>“%1”不是 npm 包名</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&apos;%1&apos; is not a PyPI package name</source>
        <translation>“%1”不是 PyPI 包名</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&apos;%1&apos; is not a NuGet package id</source>
        <translation>“%1”不是 NuGet 包 ID</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&apos;%1&apos; is not an image reference</source>
        <translation>“%1”不是镜像引用</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&apos;%1&apos; is not an https download address</source>
        <translation>“%1”不是 https 下载地址</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&apos;%1&apos; is not one version (a range or &quot;latest&quot; is not)</source>
        <translation>“%1”不是单一版本（版本范围或 &quot;latest&quot; 都不是）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>not a server.json object</source>
        <translation>不是 server.json 对象</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&apos;%1&apos; is not a registry name (namespace/name: letters, digits, &apos;.&apos;, &apos;-&apos;, &apos;_&apos;)</source>
        <translation>“%1”不是注册表名称（命名空间/名称：字母、数字、“.”、“-”、“_”）</translation>
    </message>
    <message>
        <location line="+7"/>
        <location line="+12"/>
        <source>not an http(s) URL</source>
        <translation>不是 http(s) URL</translation>
    </message>
    <message>
        <location line="-8"/>
        <location line="+16"/>
        <source>must be an object</source>
        <translation>必须是对象</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>not an entry with a &quot;server&quot;</source>
        <translation>不是带有 &quot;server&quot; 的条目</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>the registry&apos;s answer is not a JSON object</source>
        <translation>注册表的应答不是 JSON 对象</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the registry&apos;s answer has no &quot;servers&quot; list</source>
        <translation>注册表的应答中没有 &quot;servers&quot; 列表</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the registry&apos;s answer lists %1 servers in one page (at most %2)</source>
        <translation>注册表的应答在一页中列出了 %1 个服务器（最多 %2 个）</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>the registry&apos;s answer has a cursor that is not one</source>
        <translation>注册表的应答中的游标无效</translation>
    </message>
    <message>
        <location filename="../src/mcp/registry/installplan.cpp" line="+218"/>
        <source>%1 serves MCP over HTTP from a process of its own; Switchboard installs packages that speak over stdio</source>
        <translation>%1 通过自己的进程以 HTTP 提供 MCP；Switchboard 只安装通过 stdio 通信的包</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 names no version: Switchboard installs exact versions only</source>
        <translation>%1 没有指明版本：Switchboard 只安装确切的版本</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Switchboard cannot run packages from the %1 registry here (npm, PyPI and OCI images it can)</source>
        <translation>Switchboard 在此无法运行来自 %1 注册表的包（可以运行 npm、PyPI 包和 OCI 镜像）</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>&apos;%1&apos; is not an address a server can be reached at</source>
        <translation>“%1”不是可以访问服务器的地址</translation>
    </message>
</context>
<context>
    <name>Mcp::Registry::Reader</name>
    <message>
        <location filename="../src/mcp/registry/serverjson.cpp" line="-445"/>
        <location line="+246"/>
        <source>missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <location line="-242"/>
        <location line="+64"/>
        <source>must be a string</source>
        <translation>必须是字符串</translation>
    </message>
    <message>
        <location line="-59"/>
        <location line="+5"/>
        <location line="+56"/>
        <source>longer than %1 characters</source>
        <translation>超过 %1 个字符</translation>
    </message>
    <message>
        <location line="-52"/>
        <location line="+54"/>
        <source>holds a control character</source>
        <translation>含有控制字符</translation>
    </message>
    <message>
        <location line="-50"/>
        <source>empty</source>
        <translation>为空</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>must be true or false</source>
        <translation>必须是 true 或 false</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>must be a list</source>
        <translation>必须是列表</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+57"/>
        <source>has more than %1 entries</source>
        <translation>超过 %1 项</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>unknown format &apos;%1&apos;</source>
        <translation>未知格式“%1”</translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+17"/>
        <location line="+16"/>
        <location line="+59"/>
        <location line="+29"/>
        <source>must be an object</source>
        <translation>必须是对象</translation>
    </message>
    <message>
        <location line="-108"/>
        <source>not a variable name (letters, digits, &apos;_&apos;)</source>
        <translation>不是变量名（字母、数字、“_”）</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>&apos;%1&apos; is not a header name</source>
        <translation>“%1”不是请求头名称</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&apos;%1&apos; is not an environment variable name</source>
        <translation>“%1”不是环境变量名</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>&apos;%1&apos; is not an option name</source>
        <translation>“%1”不是选项名</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>a positional argument needs a valueHint or a value</source>
        <translation>位置参数需要 valueHint 或 value</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>must be &quot;positional&quot; or &quot;named&quot;, not &apos;%1&apos;</source>
        <translation>必须是 &quot;positional&quot; 或 &quot;named&quot;，而不是“%1”</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>must be &quot;streamable-http&quot; or &quot;sse&quot;, not &apos;%1&apos;</source>
        <translation>必须是 &quot;streamable-http&quot; 或 &quot;sse&quot;，而不是“%1”</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>must be &quot;stdio&quot;, &quot;streamable-http&quot; or &quot;sse&quot;, not &apos;%1&apos;</source>
        <translation>必须是 &quot;stdio&quot;、&quot;streamable-http&quot; 或 &quot;sse&quot;，而不是“%1”</translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+15"/>
        <source>not an http(s) URL</source>
        <translation>不是 http(s) URL</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>not a SHA-256 in lower-case hexadecimal</source>
        <translation>不是小写十六进制的 SHA-256</translation>
    </message>
</context>
<context>
    <name>Mcp::Registry::RegistryClient</name>
    <message>
        <location filename="../src/mcp/registry/registryclient.cpp" line="+46"/>
        <source>the registry at %1 sent more than %2 MiB</source>
        <translation>位于 %1 的注册表发送了超过 %2 MiB 的数据</translation>
    </message>
    <message>
        <location line="+117"/>
        <source>the registry at %1 did not answer within %2 s</source>
        <translation>位于 %1 的注册表在 %2 秒内没有应答</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the registry at %1 has no such server</source>
        <translation>位于 %1 的注册表中没有此服务器</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the registry at %1 answered HTTP %2</source>
        <translation>位于 %1 的注册表返回了 HTTP %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the registry at %1 cannot be reached: %2</source>
        <translation>无法访问位于 %1 的注册表：%2</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>the registry at %1 answered with something that is not JSON</source>
        <translation>位于 %1 的注册表返回的内容不是 JSON</translation>
    </message>
    <message>
        <location line="+19"/>
        <location line="+71"/>
        <source>%1 (from %2)</source>
        <translation>%1（来自 %2）</translation>
    </message>
    <message>
        <location line="-34"/>
        <source>the registry at %1 sent a cursor it had sent before; stopped after %2 pages</source>
        <translation>位于 %1 的注册表发送了一个之前发送过的游标；已在 %2 页后停止</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>stopped after %1 pages of the registry at %2; search for something narrower</source>
        <translation>已在位于 %2 的注册表的 %1 页后停止；请缩小搜索范围</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>the registry at %1 answered for %2 when asked for %3</source>
        <translation>位于 %1 的注册表在被询问 %3 时返回了 %2</translation>
    </message>
</context>
<context>
    <name>Mcp::Registry::Resolver</name>
    <message>
        <location filename="../src/mcp/registry/installplan.cpp" line="-238"/>
        <source>%1 is required</source>
        <translation>%1 为必填项</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>%1 must be one of %2</source>
        <translation>%1 必须是以下之一：%2</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 must be a number</source>
        <translation>%1 必须是数字</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 must be true or false</source>
        <translation>%1 必须是 true 或 false</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 holds a control character</source>
        <translation>%1 含有控制字符</translation>
    </message>
</context>
<context>
    <name>Mcp::Sandbox</name>
    <message>
        <location filename="../src/mcp/process/sandbox.cpp" line="+185"/>
        <source>the sandbox needs bubblewrap, but &apos;%1&apos; was not found; install the bubblewrap package, or turn the sandbox off</source>
        <translation>沙箱需要 bubblewrap，但找不到“%1”；请安装 bubblewrap 软件包，或关闭沙箱</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>the sandbox needs the workspace folder, but &apos;%1&apos; does not exist</source>
        <translation>沙箱需要工作区文件夹，但“%1”不存在</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>sandbox.write: &apos;%1&apos; does not exist (resolved against %2)</source>
        <translation>sandbox.write：“%1”不存在（相对于 %2 解析）</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>bubblewrap (bwrap) did not finish a test run within %1 s</source>
        <translation>bubblewrap (bwrap) 未能在 %1 秒内完成测试运行</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>bubblewrap (bwrap) failed a test run with exit code %1</source>
        <translation>bubblewrap (bwrap) 测试运行失败，退出码为 %1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>bubblewrap (bwrap) could not be started: %1</source>
        <translation>无法启动 bubblewrap (bwrap)：%1</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>bubblewrap (bwrap) could not set up the sandbox: %1; user namespaces may be disabled here, or turn the sandbox off</source>
        <translation>bubblewrap (bwrap) 无法建立沙箱：%1；此处可能禁用了用户命名空间，或者请关闭沙箱</translation>
    </message>
</context>
<context>
    <name>Mcp::Scan</name>
    <message>
        <location filename="../src/mcp/transport/parameterheaders.cpp" line="+73"/>
        <source>x-mcp-header is only allowed on a property reached through &quot;properties&quot;</source>
        <translation>x-mcp-header 只能用在仅经由 “properties” 到达的属性上</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the x-mcp-header of &apos;%1&apos; is empty or not a string</source>
        <translation>“%1”的 x-mcp-header 为空或不是字符串</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the x-mcp-header of &apos;%1&apos; is not a valid header name</source>
        <translation>“%1”的 x-mcp-header 不是有效的头部名称</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the x-mcp-header of &apos;%1&apos; is on a type other than string, integer or boolean</source>
        <translation>“%1”的 x-mcp-header 用在了 string、integer、boolean 以外的类型上</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>the header name &apos;%1&apos; is declared twice</source>
        <translation>头部名称“%1”被声明了两次</translation>
    </message>
</context>
<context>
    <name>Mcp::Skills</name>
    <message>
        <location filename="../src/mcp/client/skills.cpp" line="+106"/>
        <source>the result has no list of skills</source>
        <translation>结果中没有技能列表</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>its uri is not a skill:// URI</source>
        <translation>它的 uri 不是 skill:// URI</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>its frontmatter has no name</source>
        <translation>它的 frontmatter 没有 name</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>it lists more than 512 files</source>
        <translation>它列出了超过 512 个文件</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>a file&apos;s uri, digest or size is missing or malformed</source>
        <translation>某个文件的 uri、digest 或 size 缺失或格式不对</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>its files add up to more than 16 MiB</source>
        <translation>它的文件合计超过 16 MiB</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>its files do not include its SKILL.md</source>
        <translation>它的文件中不包括其 SKILL.md</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>it lists no files</source>
        <translation>它没有列出文件</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>it has no frontmatter</source>
        <translation>它没有 frontmatter</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>frontmatter line %1: %2</source>
        <translation>frontmatter 第 %1 行：%2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>indented with a tab</source>
        <translation>用制表符缩进</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>indented without a key above it</source>
        <translation>缩进行上方没有键</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>a list item inside a mapping</source>
        <translation>映射中出现列表项</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+16"/>
        <location line="+18"/>
        <source>a value this reader does not take</source>
        <translation>本读取器不接受的值</translation>
    </message>
    <message>
        <location line="-28"/>
        <location line="+16"/>
        <source>not a key: value line</source>
        <translation>不是“键: 值”行</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>a key inside a list</source>
        <translation>列表中出现键</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>nesting deeper than one level</source>
        <translation>嵌套超过一层</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>a key given twice</source>
        <translation>同一个键出现两次</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>the read result has no contents</source>
        <translation>读取结果没有 contents</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>its blob is not base64</source>
        <translation>它的 blob 不是 base64</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the read result holds nothing for %1</source>
        <translation>读取结果中没有 %1 的内容</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the server lists no digests for this skill, so it cannot be verified</source>
        <translation>服务器没有列出该技能的摘要，因此无法校验</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 is not one of the skill&apos;s listed files</source>
        <translation>%1 不是该技能列出的文件之一</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 is %2 bytes, the listing says %3</source>
        <translation>%1 为 %2 字节，列表中写的是 %3</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 does not match the listed digest</source>
        <translation>%1 与列出的摘要不符</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1&apos;s frontmatter differs from the listing in: %2</source>
        <translation>%1 的 frontmatter 与列表不同之处：%2</translation>
    </message>
</context>
<context>
    <name>Mcp::SseParser</name>
    <message>
        <location filename="../src/mcp/wire/sseparser.cpp" line="+191"/>
        <source>event stream: an event exceeded %1 bytes and was dropped</source>
        <translation>事件流：某个事件超过 %1 字节，已丢弃</translation>
    </message>
</context>
<context>
    <name>Mcp::SseTransport</name>
    <message>
        <location filename="../src/mcp/transport/ssetransport.cpp" line="-19"/>
        <location line="+50"/>
        <source>event stream</source>
        <translation>事件流</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 ended its event stream without naming an endpoint</source>
        <translation>%1 未指定端点就结束了事件流</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 ended its event stream</source>
        <translation>%1 结束了事件流</translation>
    </message>
</context>
<context>
    <name>Mcp::StdioTransport</name>
    <message>
        <location filename="../src/mcp/transport/stdiotransport.cpp" line="+153"/>
        <source>command &apos;%1&apos; was not found on PATH</source>
        <translation>在 PATH 中找不到命令“%1”</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>working directory &apos;%1&apos; does not exist</source>
        <translation>工作目录“%1”不存在</translation>
    </message>
    <message>
        <location line="+30"/>
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
        <location line="+9"/>
        <source>; last stderr line: %1</source>
        <translation>；stderr 最后一行：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>; stderr: %1</source>
        <translation>；stderr：%1</translation>
    </message>
    <message>
        <location line="+55"/>
        <location line="+32"/>
        <source>writing to the server failed: %1</source>
        <translation>写入服务器失败：%1</translation>
    </message>
    <message>
        <location line="+66"/>
        <source>server closed its standard output</source>
        <translation>服务器关闭了其标准输出</translation>
    </message>
    <message>
        <location line="-337"/>
        <source>skipped a line that is not JSON on stdout: %1</source>
        <translation>已跳过 stdout 上一行非 JSON 内容：%1</translation>
    </message>
    <message>
        <location line="+387"/>
        <source>dropped a %1-byte message over the %2-byte cap</source>
        <translation>已丢弃一条 %1 字节的消息（超过 %2 字节上限）</translation>
    </message>
</context>
<context>
    <name>TerminalElicitation</name>
    <message>
        <location filename="../src/cli/terminalelicitation.cpp" line="+70"/>
        <source>one of the choices, or its number</source>
        <translation>选项之一，或其编号</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>y or n</source>
        <translation>y 或 n</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>a whole number</source>
        <translation>整数</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>a number</source>
        <translation>数字</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>required</source>
        <translation>必填</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>default %1</source>
        <translation>默认 %1</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>an answer (it is required)</source>
        <translation>一个回答（此项必填）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>  (needs %1)
</source>
        <translation>  （需要%1）
</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>
%1 asks you to open a page: %2
  %3
  (it goes to %4)
[o] I will open it  [d] decline  [c] cancel &gt; </source>
        <translation>
%1 请你打开一个网页：%2
  %3
  （它指向 %4）
[o] 我会打开它  [d] 拒绝  [c] 取消 &gt; </translation>
    </message>
    <message>
        <location line="+32"/>
        <source>
%1 asks: %2
[a] answer  [d] decline  [c] cancel &gt; </source>
        <translation>
%1 问：%2
[a] 回答  [d] 拒绝  [c] 取消 &gt; </translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../src/ui/main.cpp" line="+215"/>
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
        <source>The interface language: en or zh_CN (default: the one chosen in Settings, else the system&apos;s).</source>
        <translation>界面语言：en 或 zh_CN（默认：设置中选择的语言，否则使用系统语言）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Save the main window as PNG once every server has settled, then exit.</source>
        <translation>待所有服务器状态稳定后，将主窗口保存为 PNG，然后退出。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Print the time to the window&apos;s first paint, then exit (for benchmarks).</source>
        <translation>打印窗口首次绘制所用的时间，然后退出（用于基准测试）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Print when every server has settled and how many tools the window lists, then open the tool browser, print when it is shown, and exit (for benchmarks).</source>
        <translation>在所有服务器就绪时打印耗时和窗口列出的工具数，然后打开工具浏览器，打印其显示耗时后退出（用于基准测试）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Open the saved conversation ID.</source>
        <translation>打开已保存的对话 ID。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Open the install dialog for LINK: an .mcpb file, or switchboard://install?name=ENTRY (the MCP Registry) or ?bundle=URL&amp;sha256=HEX. Nothing is installed without your Install.</source>
        <translation>为 LINK 打开安装对话框：一个 .mcpb 文件，或 switchboard://install?name=ENTRY（MCP Registry），或 ?bundle=URL&amp;sha256=HEX。未经你点击“安装”，不会安装任何东西。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>As --install (what a browser or file manager hands over).</source>
        <translation>同 --install（浏览器或文件管理器传来的内容）。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The link was handed to the Switchboard already running.</source>
        <translation>链接已交给正在运行的 Switchboard。</translation>
    </message>
    <message>
        <location line="+87"/>
        <source>Choose a workspace folder</source>
        <translation>选择工作区文件夹</translation>
    </message>
</context>
</TS>
