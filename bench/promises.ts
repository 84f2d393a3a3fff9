// bench/promises: how many promises (and ticks, immediates) the server makes per request, by kind
// of request. Each is a turn of the microtask queue or of the event loop and an allocation; a
// GET by name went from 28 to 16 promises in stop 38 (docs/performance.md). Counted with
// async_hooks over PROMISES_REQUESTS requests each (default 300), sent one at a time by a plain
// node:http client; the same requests to a bare node:http server in this process are counted first
// and taken off (the client's own, and what node's HTTP server makes for any request). The count does not
// depend on the machine's speed: two runs of the same code print the same figures, so a change's
// effect shows without same-period comparisons. Capstan runs bundled, as bench/api.
import { createHook } from 'node:async_hooks';
import http from 'node:http';
import type { CapstanServer } from '../src/index.js';
import { createTemplate, nameMarker } from './api-objects.js';
import { bundledStartCapstan } from './bundle.js';
import { printGrid } from './support.js';

interface Counts {
  promises: number;
  ticks: number;
  immediates: number;
}

interface Call {
  readonly method: string;
  readonly path: string;
  readonly contentType?: string;
  readonly body?: string;
}

const requests = Number(process.env['PROMISES_REQUESTS'] ?? 300);

/** One request over a keep-alive agent: callbacks, so the client makes one promise per call. */
function send(agent: http.Agent, base: string, token: string, c: Call): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (c.contentType !== undefined) headers['content-type'] = c.contentType;
    const req = http.request(`${base}${c.path}`, { method: c.method, headers, agent }, (res) => {
      res.resume();
      res.on('end', () => {
        resolve(res.statusCode ?? 0);
      });
    });
    req.on('error', reject);
    req.end(c.body);
  });
}

async function counted(run: () => Promise<void>): Promise<Counts> {
  const counts: Counts = { promises: 0, ticks: 0, immediates: 0 };
  const hook = createHook({
    init(_id, type) {
      if (type === 'PROMISE') counts.promises++;
      else if (type === 'TickObject') counts.ticks++;
      else if (type === 'Immediate') counts.immediates++;
    },
  });
  hook.enable();
  try {
    await run();
  } finally {
    hook.disable();
  }
  return counts;
}

/** The calls of each case, by request number (names differ where a create needs a new one). */
function cases(): { name: string; call: (i: number) => Call; status: number }[] {
  const cm = (i: number): string =>
    JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}` }, data: { a: 'b' } });
  const pod = (i: number): string => createTemplate('pods', 'default').replaceAll(nameMarker, `p${i}`);
  const cms = '/api/v1/namespaces/default/configmaps';
  return [
    { name: 'a path no route serves', call: () => ({ method: 'GET', path: '/nothing-here' }), status: 404 },
    {
      name: 'ConfigMap create',
      call: (i) => ({ method: 'POST', path: cms, contentType: 'application/json', body: cm(i) }),
      status: 201,
    },
    { name: 'ConfigMap get', call: (i) => ({ method: 'GET', path: `${cms}/c${i}` }), status: 200 },
    {
      name: 'ConfigMap merge patch',
      call: (i) => ({
        method: 'PATCH',
        path: `${cms}/c${i}`,
        contentType: 'application/merge-patch+json',
        body: JSON.stringify({ data: { x: String(i) } }),
      }),
      status: 200,
    },
    {
      name: 'Pod create',
      call: (i) => ({
        method: 'POST',
        path: '/api/v1/namespaces/default/pods',
        contentType: 'application/json',
        body: pod(i),
      }),
      status: 201,
    },
  ];
}

export async function run(): Promise<void> {
  const startCapstan = await bundledStartCapstan();
  const server: CapstanServer = await startCapstan({ scheme: 'http', storage: 'memory', requestLog: false });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const token = server.kubeConfig.users[0]?.user.token ?? '';
  try {
    // The baseline: the same client against a server that only answers, in this process too.
    const bare = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const address = bare.address();
    const bareBase = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
    const client = await counted(async () => {
      for (let i = 0; i < requests; i++) await send(agent, bareBase, token, { method: 'GET', path: '/' });
    });
    await new Promise<void>((resolve) => {
      bare.close(() => {
        resolve();
      });
    });
    const rows: string[][] = [];
    for (const c of cases()) {
      // Warm-up with names of their own (creates need new ones), then the counted requests.
      for (let i = 0; i < 50; i++) await send(agent, server.url, token, c.call(100_000 + i));
      let wrong = 0;
      const n = await counted(async () => {
        for (let i = 0; i < requests; i++)
          if ((await send(agent, server.url, token, c.call(i))) !== c.status) wrong++;
      });
      if (wrong > 0)
        throw new Error(`${c.name}: ${wrong} of ${requests} requests did not answer ${c.status}`);
      // Rounded, and -0 made 0: the baseline's ticks can exceed a case's by a fraction.
      const per = (x: number, y: number): string =>
        (Math.round(((x - y) / requests) * 10) / 10 + 0).toFixed(1);
      rows.push([
        c.name,
        per(n.promises, client.promises),
        per(n.ticks, client.ticks),
        per(n.immediates, client.immediates),
      ]);
    }
    printGrid(
      `what Capstan makes per request beyond a bare node:http server (async_hooks, ${requests} requests each)`,
      ['request', 'promises', 'nextTick objects', 'immediates'],
      rows,
    );
  } finally {
    agent.destroy();
    await server.stop();
  }
}
