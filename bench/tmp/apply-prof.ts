import { startCapstan } from '../../src/index.js';
import fs from 'node:fs';
import { Agent, request } from 'node:http';
const op = process.argv[2] ?? 'apply';
const s = await startCapstan({ storage: 'memory', scheme: 'http' });
const token = s.kubeConfig.users[0]?.user.token ?? '';
const tmpl = fs.readFileSync('/tmp/prof/pod-put-n.json', 'utf8');
const agent = new Agent({ keepAlive: true, maxSockets: 8 });
const url = new URL(s.url);
const call = (method: string, path: string, body: string, ctype = 'application/json'): Promise<number> =>
  new Promise((resolve, reject) => {
    const req = request({ agent, host: url.hostname, port: url.port, method, path, headers: { authorization: `Bearer ${token}`, 'content-type': ctype } }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode ?? 0)); });
    req.on('error', reject); req.end(body);
  });
const base = '/api/v1/namespaces/default/pods';
for (let i = 0; i < 32; i++) await call('POST', base, tmpl.replace('__N__', `q${i}`).replace('__S__', '0'));
const applyBody = (i: number, k: number) => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `q${i}`, labels: { seq: String(k) } } });
const one = (i: number, k: number) => {
  const name = `q${i}`;
  if (op === 'apply') return call('PATCH', `${base}/${name}?fieldManager=bench&force=true`, applyBody(i, k), 'application/apply-patch+yaml');
  if (op === 'fullapply') return call('PATCH', `${base}/${name}?fieldManager=bench&force=true`, tmpl.replace('__N__', name).replace('__S__', String(k)), 'application/apply-patch+yaml');
  if (op === 'patch') return call('PATCH', `${base}/${name}`, JSON.stringify({ metadata: { labels: { seq: String(k) } } }), 'application/merge-patch+json');
  if (op === 'put') return call('PUT', `${base}/${name}`, tmpl.replace('__N__', name).replace('__S__', String(k)));
  return call('POST', base, tmpl.replace('__N__', `c${k}-${i}`).replace('__S__', '0'));
};
const run = async (rounds: number) => {
  const c0 = process.cpuUsage(); let n = 0; let bad = 0;
  for (let k = 1; k <= rounds; k++) { const codes = await Promise.all(Array.from({ length: 8 }, (_, j) => one((k * 8 + j) % 32, k))); n += codes.length; bad += codes.filter((c) => c >= 300).length; }
  const c = process.cpuUsage(c0); return { us: (c.user + c.system) / n, bad };
};
await run(30);
const r = await run(Number(process.argv[3] ?? 150));
console.log(`${op}: ${r.us.toFixed(0)} µs CPU per request (in-process client included), bad ${r.bad}`);
await s.stop();
