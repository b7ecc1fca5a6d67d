// A model-free A2A agent on the official @a2a-js/sdk (1.3.0, pinned in package.json) with
// express, for Switchboard's interop tests. Usage:
//   node sdkserver.mjs PORT [--compat | --v03-only] [--token T]
// PORT 0: the system picks a free one (the card's URLs and the line below name it).
// (default) speaks 1.0 only; --compat: 1.0 and 0.3 (the SDK's legacy mode); --v03-only: acts
// as an agent that speaks only 0.3 (the SDK has no such mode: the A2A-Version header and the
// card's 1.0 interfaces are removed, so 1.0 methods get -32601 as from a real 0.3 agent).
// --stale-card (with --v03-only): the card still claims 1.0, as a card an agent forgot to
// update would; the client has to find out from the -32601 its 1.0 methods get.
// --token T: every request must carry "Authorization: Bearer T" (else 401).
// It prints "listening on PORT (node VERSION)" when ready, then one line per request: "request METHOD PATH
// [a2a-version] [json-rpc method]". The text of the user's message selects what it does:
//   "slow…"   runs 30 s in 100 ms steps, and honours CancelTask
//   "input…"  asks for more input (INPUT_REQUIRED); an answer with the same task id completes it
//   "msg…"    answers with a message, no task
//   "fail…"   ends FAILED with a message
//   anything else: WORKING, then an artifact "echo: <text>", then COMPLETED
import express from 'express';
import { AgentCard, TaskState, Role } from '@a2a-js/sdk';
import { DefaultRequestHandler, InMemoryTaskStore, AgentEvent } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';

const args = process.argv.slice(2);
const port = Number(args[0]);
const v03only = args.includes('--v03-only');
const compat = v03only || args.includes('--compat');
const staleCard = args.includes('--stale-card');
const tokenAt = args.indexOf('--token');
const token = tokenAt >= 0 ? args[tokenAt + 1] : '';
// Set to the port really listened on (PORT may be 0) before the first request is taken.
let url = `http://127.0.0.1:${port}/`;

const interfaces = [];
if (!v03only) interfaces.push({ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' });
if (compat) interfaces.push({ url, protocolBinding: 'JSONRPC', protocolVersion: '0.3' });

const card = AgentCard.fromJSON({
  name: 'SDK echo agent',
  description: 'A model-free agent for interop tests',
  version: '1.0.0',
  supportedInterfaces: interfaces,
  capabilities: { streaming: true, pushNotifications: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'echo', name: 'Echo', description: 'Echoes the input', tags: ['test'] }],
});

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const textPart = (value) => ({ content: { $case: 'text', value }, mediaType: 'text/plain', filename: '', metadata: undefined });
const agentMessage = (taskId, contextId, text) => ({
  messageId: crypto.randomUUID(), taskId, contextId, role: Role.ROLE_AGENT,
  parts: [textPart(text)], metadata: undefined, extensions: [], referenceTaskIds: [] });
const statusEvent = (taskId, contextId, state, text) => AgentEvent.statusUpdate({
  taskId, contextId, metadata: undefined,
  status: { state, message: text && agentMessage(taskId, contextId, text), timestamp: new Date().toISOString() } });

class EchoExecutor {
  running = new Map(); // task id -> { contextId, canceled }

  async execute(context, bus) {
    const { taskId, contextId } = context;
    const input = context.userMessage.parts
      .map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
    if (input.startsWith('msg')) {
      bus.publish(AgentEvent.message(agentMessage('', contextId, `echo: ${input}`)));
      return;
    }
    const state = { contextId, canceled: false };
    this.running.set(taskId, state);
    // The first event must be the task, on a follow-up turn too (announced as working there).
    const now = new Date().toISOString();
    bus.publish(AgentEvent.task(context.task
      ? { ...context.task, status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: now } }
      : { id: taskId, contextId, artifacts: [], metadata: undefined, history: [context.userMessage],
          status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now } }));
    if (!context.task) bus.publish(statusEvent(taskId, contextId, TaskState.TASK_STATE_WORKING, 'working on it'));
    if (input.startsWith('input') && !context.task) {
      this.running.delete(taskId);
      bus.publish(statusEvent(taskId, contextId, TaskState.TASK_STATE_INPUT_REQUIRED, 'which colour?'));
      return;
    }
    const slow = input.startsWith('slow');
    for (let step = 0; step < (slow ? 300 : 1); step++) {
      await sleep(slow ? 100 : 50);
      if (state.canceled) return; // cancelTask published CANCELED
    }
    this.running.delete(taskId);
    if (input.startsWith('fail')) {
      bus.publish(statusEvent(taskId, contextId, TaskState.TASK_STATE_FAILED, 'it went wrong'));
      return;
    }
    const answer = context.task ? `echo: ${input} (continued)` : `echo: ${input}`;
    bus.publish(AgentEvent.artifactUpdate({ taskId, contextId, append: false, lastChunk: true, metadata: undefined,
      artifact: { artifactId: 'echo', name: 'echo', description: '', parts: [textPart(answer)], metadata: undefined, extensions: [] } }));
    bus.publish(statusEvent(taskId, contextId, TaskState.TASK_STATE_COMPLETED));
  }

  // CancelTask waits on the task's events until a final one: publish it here.
  async cancelTask(taskId, bus) {
    const state = this.running.get(taskId);
    if (!state) return;
    state.canceled = true;
    this.running.delete(taskId);
    console.log(`canceled ${taskId}`);
    bus.publish(statusEvent(taskId, state.contextId, TaskState.TASK_STATE_CANCELED, 'canceled'));
  }
}

const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new EchoExecutor());
const app = express();
app.use(express.json({ limit: '4mb' }));
app.use((req, res, next) => {
  const method = req.body && typeof req.body === 'object' ? req.body.method ?? '' : '';
  console.log(`request ${req.method} ${req.path} ${req.headers['a2a-version'] ?? '-'} ${method}`);
  if (token && req.headers.authorization !== `Bearer ${token}`) {
    res.status(401).json({ error: 'unauthorized' });
    return;
  }
  next();
});
if (v03only) {
  app.use((req, _res, next) => { delete req.headers['a2a-version']; next(); });
  app.use('/.well-known/agent-card.json', (_req, res, next) => {
    const send = res.send.bind(res);
    res.send = (body) => {
      if (typeof body !== 'string') return send(body);
      const json = JSON.parse(body);
      if (staleCard) {
        json.supportedInterfaces = [{ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }];
        delete json.url;
        delete json.protocolVersion;
      } else {
        delete json.supportedInterfaces;
      }
      return send(JSON.stringify(json));
    };
    next();
  });
}
app.use('/.well-known/agent-card.json',
  agentCardHandler({ agentCardProvider: handler, legacyCompat: { enabled: compat } }));
app.use('/', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication,
  legacyCompat: { enabled: compat } }));
const server = app.listen(port, '127.0.0.1', () => {
  const actual = server.address().port;
  url = `http://127.0.0.1:${actual}/`;
  for (const face of card.supportedInterfaces) face.url = url;
  console.log(`listening on ${actual} (node ${process.version})`);
});
