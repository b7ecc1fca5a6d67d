#!/usr/bin/env node
// B side of the `startup_everything` scenario: "server-everything's own start time".
// No MCP library: spawn the server, send initialize, notifications/initialized and
// tools/list as NDJSON, and exit as soon as the tools/list reply has arrived (the server
// is sent SIGTERM, not waited for). What this costs is Node's own start (~0.1 s) plus
// server-everything starting and answering: the least any client can take.
//
//   node everything-list.mjs [SERVER_JS [ARGS...]]
//   default: <repo>/node_modules/@modelcontextprotocol/server-everything/dist/index.js stdio
// Prints `tools=N seconds=S` (S: from spawn to the tools/list reply).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
let args = process.argv.slice(2);
if (args.length === 0)
  args = [join(here, '..', '..', 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js'), 'stdio'];

const t0 = performance.now();
const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
child.on('error', (e) => { console.error(`spawn failed: ${e.message}`); process.exit(1); });
child.on('exit', (code, sig) => { console.error(`server exited early (${code ?? sig})`); process.exit(1); });

const send = (m) => child.stdin.write(JSON.stringify(m) + '\n');
send({ jsonrpc: '2.0', id: 0, method: 'initialize',
       params: { protocolVersion: '2025-06-18', capabilities: {},
                 clientInfo: { name: 'bench-everything-list', version: '1.0.0' } } });

let buf = '';
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk) => {
  buf += chunk;
  let nl;
  while ((nl = buf.indexOf('\n')) >= 0) {
    const line = buf.slice(0, nl);
    buf = buf.slice(nl + 1);
    if (!line.trim()) continue;
    const msg = JSON.parse(line);
    if (msg.id === 0 && msg.result) {
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    } else if (msg.id === 1 && msg.result) {
      const s = (performance.now() - t0) / 1000;
      console.log(`tools=${msg.result.tools.length} seconds=${s.toFixed(4)}`);
      child.removeAllListeners('exit');
      child.kill('SIGTERM');
      process.exit(0);
    } else if (msg.error) {
      console.error(`error reply: ${line.slice(0, 200)}`);
      process.exit(1);
    } // anything else (server requests, notifications) is ignored
  }
});
