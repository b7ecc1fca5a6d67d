<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>Cli::Application</name>
    <message numerus="yes">
        <location filename="../src/cli/cliinstall.cpp" line="+392"/>
        <source>%1 connected: %n tool(s)</source>
        <translation>
            <numerusform>%1 connected: %n tool</numerusform>
            <numerusform>%1 connected: %n tools</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../src/cli/cliconversations.cpp" line="+74"/>
        <source>%n message(s)</source>
        <translation>
            <numerusform>%n message</numerusform>
            <numerusform>%n messages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>    #%1: %2 (%n match(es))</source>
        <translation>
            <numerusform>    #%1: %2 (%n match)</numerusform>
            <numerusform>    #%1: %2 (%n matches)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+50"/>
        <source>export: %1 starts %n conversation ID(s); give more of it</source>
        <translation>
            <numerusform>export: %1 starts %n conversation ID; give more of it</numerusform>
            <numerusform>export: %1 starts %n conversation IDs; give more of it</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Engine::Agent</name>
    <message numerus="yes">
        <location filename="../src/engine/agent/agent.cpp" line="+261"/>
        <source>The earlier part of this conversation (%n messages) was left out to fit the context window. A summary of it:</source>
        <translation>
            <numerusform>The earlier part of this conversation (%n message) was left out to fit the context window. A summary of it:</numerusform>
            <numerusform>The earlier part of this conversation (%n messages) was left out to fit the context window. A summary of it:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Engine::Attachment</name>
    <message numerus="yes">
        <location filename="../src/engine/llm/llm.cpp" line="+57"/>
        <source>[%1 %2, %n bytes]</source>
        <translation>
            <numerusform>[%1 %2, %n byte]</numerusform>
            <numerusform>[%1 %2, %n bytes]</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Engine::BuiltinTools</name>
    <message numerus="yes">
        <location filename="../src/engine/tools/builtintool.cpp" line="+43"/>
        <source> … [line cut: %n more characters]</source>
        <translation>
            <numerusform> … [line cut: %n more character]</numerusform>
            <numerusform> … [line cut: %n more characters]</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../src/engine/tools/readfiletool.cpp" line="+72"/>
        <source>offset %1 is past the end of &apos;%2&apos; (%n lines)</source>
        <translation>
            <numerusform>offset %1 is past the end of &apos;%2&apos; (%n line)</numerusform>
            <numerusform>offset %1 is past the end of &apos;%2&apos; (%n lines)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../src/engine/tools/listdirtool.cpp" line="+91"/>
        <source>%1  (%n bytes)</source>
        <translation>
            <numerusform>%1  (%n byte)</numerusform>
            <numerusform>%1  (%n bytes)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+8"/>
        <source>%1 (%n entries)</source>
        <translation>
            <numerusform>%1 (%n entry)</numerusform>
            <numerusform>%1 (%n entries)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>[… %n more entries not shown]</source>
        <translation>
            <numerusform>[… %n more entry not shown]</numerusform>
            <numerusform>[… %n more entries not shown]</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../src/engine/tools/searchjob.h" line="+157"/>
        <source>[stopped at %n results; narrow the pattern or the query to see the rest]</source>
        <translation>
            <numerusform>[stopped at %n result; narrow the pattern or the query to see the rest]</numerusform>
            <numerusform>[stopped at %n results; narrow the pattern or the query to see the rest]</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>[stopped after visiting %n files; narrow the pattern]</source>
        <translation>
            <numerusform>[stopped after visiting %n file; narrow the pattern]</numerusform>
            <numerusform>[stopped after visiting %n files; narrow the pattern]</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>[%n binary files skipped]</source>
        <translation>
            <numerusform>[%n binary file skipped]</numerusform>
            <numerusform>[%n binary files skipped]</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>[%n files over %1 skipped]</source>
        <translation>
            <numerusform>[%n file over %1 skipped]</numerusform>
            <numerusform>[%n files over %1 skipped]</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>[%n files that may hold secrets (.env, keys, ...) were not searched; search again with include_sensitive: true to ask the user]</source>
        <translation>
            <numerusform>[%n file that may hold secrets (.env, keys, ...) was not searched; search again with include_sensitive: true to ask the user]</numerusform>
            <numerusform>[%n files that may hold secrets (.env, keys, ...) were not searched; search again with include_sensitive: true to ask the user]</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>No lines match &apos;%1&apos; in the %n files matching &apos;%2&apos;.</source>
        <translation>
            <numerusform>No lines match &apos;%1&apos; in the %n file matching &apos;%2&apos;.</numerusform>
            <numerusform>No lines match &apos;%1&apos; in the %n files matching &apos;%2&apos;.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../src/engine/tools/writefiletool.cpp" line="+69"/>
        <source>%n bytes</source>
        <translation>
            <numerusform>%n byte</numerusform>
            <numerusform>%n bytes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Replaced %1 (%2, %n lines).</source>
        <translation>
            <numerusform>Replaced %1 (%2, %n line).</numerusform>
            <numerusform>Replaced %1 (%2, %n lines).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Created %1 (%2, %n lines).</source>
        <translation>
            <numerusform>Created %1 (%2, %n line).</numerusform>
            <numerusform>Created %1 (%2, %n lines).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../src/engine/tools/editfiletool.cpp" line="+128"/>
        <source>&apos;old_string&apos; occurs %n times in &apos;%1&apos;; include more surrounding lines to make it unique, or set replace_all to true</source>
        <translation>
            <numerusform>&apos;old_string&apos; occurs %n time in &apos;%1&apos;; include more surrounding lines to make it unique, or set replace_all to true</numerusform>
            <numerusform>&apos;old_string&apos; occurs %n times in &apos;%1&apos;; include more surrounding lines to make it unique, or set replace_all to true</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+39"/>
        <source>Edited %1: replaced %n occurrence(s), the first at line %2.</source>
        <translation>
            <numerusform>Edited %1: replaced %n occurrence, the first at line %2.</numerusform>
            <numerusform>Edited %1: replaced %n occurrences, the first at line %2.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../src/engine/tools/bashrun.cpp" line="+18"/>
        <source>
… [cut: %n characters in the middle; the full output is in the UI] …
</source>
        <translation>
            <numerusform>
… [cut: %n character in the middle; the full output is in the UI] …
</numerusform>
            <numerusform>
… [cut: %n characters in the middle; the full output is in the UI] …
</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Engine::ConversationExport</name>
    <message numerus="yes">
        <location filename="../src/engine/storage/conversationexport.cpp" line="+96"/>
        <source>Workspace: `%1` · started %2 · %n message(s)</source>
        <translation>
            <numerusform>Workspace: `%1` · started %2 · %n message</numerusform>
            <numerusform>Workspace: `%1` · started %2 · %n messages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+105"/>
        <source>Workspace: %1 · started %2 · %n message(s)</source>
        <translation>
            <numerusform>Workspace: %1 · started %2 · %n message</numerusform>
            <numerusform>Workspace: %1 · started %2 · %n messages</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Engine::FileChange</name>
    <message numerus="yes">
        <location filename="../src/engine/tools/filechange.cpp" line="+243"/>
        <source>Too different to compare: %n lines changed.</source>
        <translation>
            <numerusform>Too different to compare: %n line changed.</numerusform>
            <numerusform>Too different to compare: %n lines changed.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+13"/>
        <source>… %n more lines not shown</source>
        <translation>
            <numerusform>… %n more line not shown</numerusform>
            <numerusform>… %n more lines not shown</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+150"/>
        <source>new file, %n line(s)</source>
        <translation>
            <numerusform>new file, %n line</numerusform>
            <numerusform>new file, %n lines</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Engine::ToolOutput</name>
    <message numerus="yes">
        <location filename="../src/engine/tools/tool.cpp" line="+43"/>
        <source>%n bytes base64</source>
        <translation>
            <numerusform>%n byte base64</numerusform>
            <numerusform>%n bytes base64</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+117"/>
        <source>… [cut: %n more characters; the full output is in the UI]</source>
        <translation>
            <numerusform>… [cut: %n more character; the full output is in the UI]</numerusform>
            <numerusform>… [cut: %n more characters; the full output is in the UI]</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::AddServerDialog</name>
    <message numerus="yes">
        <location filename="../src/ui/addserverdialog.cpp" line="+275"/>
        <source>%n server(s).</source>
        <translation>
            <numerusform>%n server.</numerusform>
            <numerusform>%n servers.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::ApprovalDialog</name>
    <message numerus="yes">
        <location filename="../src/ui/approvaldialog.cpp" line="+209"/>
        <source>… (%n more characters not shown)</source>
        <translation>
            <numerusform>… (%n more character not shown)</numerusform>
            <numerusform>… (%n more characters not shown)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::AuditLogDialog</name>
    <message numerus="yes">
        <location filename="../src/ui/auditlogdialog.cpp" line="+105"/>
        <source>%n record(s) from %1 (newest first)</source>
        <translation>
            <numerusform>%n record from %1 (newest first)</numerusform>
            <numerusform>%n records from %1 (newest first)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::ChatView</name>
    <message numerus="yes">
        <location filename="../src/ui/chatviewcards.cpp" line="+63"/>
        <source>… %n earlier steps</source>
        <translation>
            <numerusform>… %n earlier step</numerusform>
            <numerusform>… %n earlier steps</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+85"/>
        <source>… %n more lines</source>
        <translation>
            <numerusform>… %n more line</numerusform>
            <numerusform>… %n more lines</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::ConfigEditorPane</name>
    <message numerus="yes">
        <location filename="../src/ui/configeditorpane.cpp" line="+536"/>
        <source>%n problem(s)</source>
        <translation>
            <numerusform>%n problem</numerusform>
            <numerusform>%n problems</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+39"/>
        <source>Apply is blocked until the %n problem(s) are fixed.</source>
        <translation>
            <numerusform>Apply is blocked until the problem is fixed.</numerusform>
            <numerusform>Apply is blocked until the %n problems are fixed.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../src/ui/configeditorpanefile.cpp" line="+85"/>
        <source>Not applied: fix the %n problem(s) first (Save still writes the text).</source>
        <translation>
            <numerusform>Not applied: fix the problem first (Save still writes the text).</numerusform>
            <numerusform>Not applied: fix the %n problems first (Save still writes the text).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+42"/>
        <source>The text has %n problem(s) (the first: %1), but the file on disk has none. Servers with problems would not start.</source>
        <translation>
            <numerusform>The text has a problem (%1), but the file on disk has none. A server with a problem would not start.</numerusform>
            <numerusform>The text has %n problems (the first: %1), but the file on disk has none. Servers with problems would not start.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+117"/>
        <source>%n problem(s) in %1.</source>
        <translation>
            <numerusform>%n problem in %1.</numerusform>
            <numerusform>%n problems in %1.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::ConversationList</name>
    <message numerus="yes">
        <location filename="../src/ui/conversationlist.cpp" line="+280"/>
        <source>%1
%n message(s), last %2
in %3</source>
        <translation>
            <numerusform>%1
%n message, last %2
in %3</numerusform>
            <numerusform>%1
%n messages, last %2
in %3</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::MainWindow</name>
    <message numerus="yes">
        <location filename="../src/ui/mainwindow.cpp" line="+732"/>
        <source>%n earlier tool result(s) shortened</source>
        <translation>
            <numerusform>%n earlier tool result shortened</numerusform>
            <numerusform>%n earlier tool results shortened</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n earlier message(s) left out of</source>
        <translation>
            <numerusform>%n earlier message left out of</numerusform>
            <numerusform>%n earlier messages left out of</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::ModelPicker</name>
    <message numerus="yes">
        <location filename="../src/ui/modelpicker.cpp" line="+151"/>
        <source>The model that answers (%n models listed by the provider)</source>
        <translation>
            <numerusform>The model that answers (%n model listed by the provider)</numerusform>
            <numerusform>The model that answers (%n models listed by the provider)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::PlainLabel</name>
    <message numerus="yes">
        <location filename="../src/ui/plainlabel.h" line="+30"/>
        <source>[… cut: %n more character(s)]</source>
        <translation>
            <numerusform>[… cut: %n more character]</numerusform>
            <numerusform>[… cut: %n more characters]</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::PromptBrowser</name>
    <message numerus="yes">
        <location filename="../src/ui/serverbrowsers.cpp" line="+745"/>
        <source>%n message(s); only the first %1 characters can be used.</source>
        <translation>
            <numerusform>%n message; only the first %1 characters can be used.</numerusform>
            <numerusform>%n messages; only the first %1 characters can be used.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n message(s).</source>
        <translation>
            <numerusform>%n message.</numerusform>
            <numerusform>%n messages.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::ProtocolLogDock</name>
    <message numerus="yes">
        <location filename="../src/ui/protocollogdock.cpp" line="+444"/>
        <source>%n tools</source>
        <translation>
            <numerusform>%n tool</numerusform>
            <numerusform>%n tools</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+94"/>
        <source>Only the start of this %n-byte message was kept.</source>
        <translation>
            <numerusform>Only the start of this %n-byte message was kept.</numerusform>
            <numerusform>Only the start of this %n-byte message was kept.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::ProtocolLogModel</name>
    <message numerus="yes">
        <location filename="../src/ui/protocollogmodel.cpp" line="+174"/>
        <source>%n bytes; only the start is kept</source>
        <translation>
            <numerusform>%n byte; only the start is kept</numerusform>
            <numerusform>%n bytes; only the start is kept</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n bytes</source>
        <translation>
            <numerusform>%n byte</numerusform>
            <numerusform>%n bytes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+126"/>
        <source>[truncated: %n bytes in all]</source>
        <translation>
            <numerusform>[truncated: %n byte in all]</numerusform>
            <numerusform>[truncated: %n bytes in all]</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::ResultViewer</name>
    <message numerus="yes">
        <location filename="../src/ui/resultviewer.cpp" line="+92"/>
        <source>Showing the first %1 of %2 (%Ln lines).</source>
        <translation>
            <numerusform>Showing the first %1 of %2 (%Ln line).</numerusform>
            <numerusform>Showing the first %1 of %2 (%Ln lines).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::ServerActions</name>
    <message numerus="yes">
        <location filename="../src/ui/serveractions.cpp" line="+217"/>
        <source>%n tools are offered to the model: more than %1, the most OpenAI-compatible APIs accept, and every description costs context. Uncheck servers in the Servers dock (Tools column) or tools in the tool browser, or let the model search for tools (Settings).</source>
        <translation>
            <numerusform>%n tool is offered to the model: more than %1, the most OpenAI-compatible APIs accept, and every description costs context. Uncheck servers in the Servers dock (Tools column) or tools in the tool browser, or let the model search for tools (Settings).</numerusform>
            <numerusform>%n tools are offered to the model: more than %1, the most OpenAI-compatible APIs accept, and every description costs context. Uncheck servers in the Servers dock (Tools column) or tools in the tool browser, or let the model search for tools (Settings).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::ServerDock</name>
    <message numerus="yes">
        <location filename="../src/ui/serverdock.cpp" line="+320"/>
        <source>%n connected</source>
        <comment>servers</comment>
        <translation>
            <numerusform>%n connected</numerusform>
            <numerusform>%n connected</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n starting</source>
        <comment>servers</comment>
        <translation>
            <numerusform>%n starting</numerusform>
            <numerusform>%n starting</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n failed</source>
        <comment>servers</comment>
        <translation>
            <numerusform>%n failed</numerusform>
            <numerusform>%n failed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n disabled</source>
        <comment>servers</comment>
        <translation>
            <numerusform>%n disabled</numerusform>
            <numerusform>%n disabled</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n untrusted</source>
        <comment>servers</comment>
        <translation>
            <numerusform>%n untrusted</numerusform>
            <numerusform>%n untrusted</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+127"/>
        <source>restarted %n time(s) after a crash</source>
        <translation>
            <numerusform>restarted once after a crash</numerusform>
            <numerusform>restarted %n times after a crash</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::ServerSecretsPage</name>
    <message numerus="yes">
        <location filename="../src/ui/serversecretspage.cpp" line="+224"/>
        <source>%n server(s) read it and will not start without it: %1.</source>
        <translation>
            <numerusform>%n server reads it and will not start without it: %1.</numerusform>
            <numerusform>%n servers read it and will not start without it: %1.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::SettingsDialog</name>
    <message numerus="yes">
        <location filename="../src/ui/settingsdialog.cpp" line="+378"/>
        <source>Connected to %1; it lists %n model(s): %2</source>
        <translation>
            <numerusform>Connected to %1; it lists %n model: %2</numerusform>
            <numerusform>Connected to %1; it lists %n models: %2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::SkillList</name>
    <message numerus="yes">
        <location filename="../src/ui/serverbrowsers.cpp" line="+62"/>
        <source>%n bytes</source>
        <translation>
            <numerusform>%n byte</numerusform>
            <numerusform>%n bytes</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::TrustBanner</name>
    <message numerus="yes">
        <location filename="../src/ui/trustbanner.cpp" line="+165"/>
        <source>This folder&apos;s .mcp.json wants to start %n server(s)</source>
        <translation>
            <numerusform>This folder&apos;s .mcp.json wants to start %n server</numerusform>
            <numerusform>This folder&apos;s .mcp.json wants to start %n servers</numerusform>
        </translation>
    </message>
</context>
</TS>
