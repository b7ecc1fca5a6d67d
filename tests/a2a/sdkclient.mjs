// A model-free A2A client on the official @a2a-js/sdk (1.3.0), for the interop tests of
// `switchboard-cli a2a serve`:
//   node sdkclient.mjs BASE_URL send|stream|get|cancel [TEXT|TASK_ID] [--v03] [--nowait]
//                      [--token T] [--expect=STATE]
// Prints "<STATE> <text>" (STATE: TASK_STATE_..., or MESSAGE for a bare message) and, on
// stderr, "# task ID", "# event KIND" and "# wire VERSION". Exits 0 when the state is the
// expected one (COMPLETED for send/stream, CANCELED for cancel, anything for get), 1 otherwise
// or on any error ("ERROR <class>: <message>" on stderr).
import { Message, TaskState } from '@a2a-js/sdk';
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : undefined;
};
const token = option('--token');
const flags = args.filter((a) => a.startsWith('--'));
const [baseUrl, op, arg = 'hello'] = args.filter((a) => !a.startsWith('--'));
const v03 = flags.includes('--v03');
const nowait = flags.includes('--nowait');
const expected = flags.find((a) => a.startsWith('--expect='))?.slice(9)
  ?? { send: 'TASK_STATE_COMPLETED', stream: 'TASK_STATE_COMPLETED', cancel: 'TASK_STATE_CANCELED' }[op];

// Every request (the card's too) carries the bearer token when one is given.
const fetchImpl = (url, init = {}) => {
  const headers = new Headers(init.headers ?? {});
  if (token) headers.set('Authorization', `Bearer ${token}`);
  return fetch(url, { ...init, headers });
};
const legacyCompat = { enabled: v03 };
const texts = (parts = []) => parts.filter((p) => p.content?.$case === 'text').map((p) => p.content.value).join('');
const stateName = (s) => TaskState[s] ?? String(s);
const taskText = (t) => t.artifacts?.map((a) => texts(a.parts)).join('') || texts(t.status?.message?.parts);

async function main() {
  const resolver = new DefaultAgentCardResolver({ legacyCompat, fetchImpl });
  const card = await resolver.resolve(baseUrl);
  if (v03) card.supportedInterfaces = card.supportedInterfaces.filter((i) => i.protocolVersion.startsWith('0.'));
  const factory = new ClientFactory({
    transports: [new JsonRpcTransportFactory({ legacyCompat, fetchImpl })], cardResolver: resolver,
  });
  const client = await factory.createFromAgentCard(card);
  console.error(`# wire ${client.protocolVersion}`);
  const request = () => ({ tenant: '', metadata: undefined,
    configuration: nowait ? { returnImmediately: true } : undefined,
    message: Message.fromJSON({ messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: arg }] }) });
  let state;
  let text = '';
  if (op === 'send') {
    const r = await client.sendMessage(request());
    if ('messageId' in r) { state = 'MESSAGE'; text = texts(r.parts); }
    else { state = stateName(r.status.state); text = taskText(r); console.error(`# task ${r.id}`); }
  } else if (op === 'stream') {
    for await (const ev of client.sendMessageStream(request())) {
      const { $case, value } = ev.payload;
      console.error(`# event ${$case}`);
      if ($case === 'message') { state = 'MESSAGE'; text = texts(value.parts); }
      else if ($case === 'task') { state = stateName(value.status.state); console.error(`# task ${value.id}`); }
      else if ($case === 'statusUpdate') { state = stateName(value.status.state); text ||= texts(value.status.message?.parts); }
      else if ($case === 'artifactUpdate') text = value.append ? text + texts(value.artifact.parts) : texts(value.artifact.parts);
    }
  } else if (op === 'get' || op === 'cancel') {
    const t = op === 'get' ? await client.getTask({ tenant: '', id: arg, historyLength: undefined })
                           : await client.cancelTask({ tenant: '', id: arg, metadata: undefined });
    state = stateName(t.status.state);
    text = taskText(t);
  } else {
    throw new Error(`unknown operation ${op}`);
  }
  console.log(`${state} ${text}`);
  return !expected || state === expected;
}

main().then((ok) => process.exit(ok ? 0 : 1),
  (e) => { console.error(`ERROR ${e?.constructor?.name}: ${e?.message}`); process.exit(1); });
