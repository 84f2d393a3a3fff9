// The watch benchmark's client, forked by bench/watch.ts so parsing does not run on the server's
// event loop. It opens one chunked watch response per path, reads newline-delimited watch events,
// and measures each event's delivery latency from the `bench/sent` annotation (epoch ms) set by the
// writer. Protocol over IPC: parent sends {paths, url}; child answers "ready" once every response
// has started, then {latencies, delivered} when told "stop".
import http from 'node:http';

interface Start {
  readonly url: string;
  readonly paths: readonly string[];
}

const now = (): number => performance.timeOrigin + performance.now();
const latencies: number[] = [];
let delivered = 0;
let measuring = false;

function onLine(line: string): void {
  if (line === '') return;
  const event = JSON.parse(line) as {
    type: string;
    object: { metadata?: { annotations?: Record<string, string> } };
  };
  if (event.type === 'BOOKMARK' || event.type === 'ERROR') return;
  const sent = Number(event.object.metadata?.annotations?.['bench/sent']);
  if (!measuring || !Number.isFinite(sent)) return;
  delivered++;
  latencies.push(now() - sent);
}

function open(agent: http.Agent, url: URL): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent }, (res) => {
      let rest = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) onLine(line);
      });
      resolve(res);
    });
    req.on('error', reject);
  });
}

async function start(msg: Start): Promise<http.IncomingMessage[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const out: http.IncomingMessage[] = [];
  // Open in batches so the server's accept queue is not flooded.
  for (let i = 0; i < msg.paths.length; i += 100) {
    const batch = msg.paths.slice(i, i + 100).map((p) => open(agent, new URL(p, msg.url)));
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

let responses: http.IncomingMessage[] = [];
process.on('message', (msg: Start | 'measure' | 'stop') => {
  if (msg === 'measure') {
    measuring = true;
    return;
  }
  if (msg === 'stop') {
    measuring = false;
    for (const res of responses) res.destroy();
    process.send?.({ latencies, delivered }, () => process.exit(0));
    return;
  }
  void start(msg).then((opened) => {
    responses = opened;
    process.send?.('ready');
  });
});
