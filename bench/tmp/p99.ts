import { createTemplate, kindSpecs, type Kind } from '/work/main/bench/api-objects.js';
import { capstanTarget, createNamespace } from '/work/main/bench/api-setup.js';
import { LoadGenerator } from '/work/main/bench/load-generator.js';
const kind = (process.argv[2] ?? 'Pod') as Kind;
const conns = Number(process.argv[3] ?? 64);
const ms = Number(process.argv[4] ?? 4000);
const gen = new LoadGenerator();
const t = await capstanTarget();
await createNamespace(t, 'c');
for (let r = 0; r < 3; r++) {
  const cell = `c${r}`;
  const m = await gen.run({ cell, url: t.url, token: t.token, operation: 'create', collection: kindSpecs[kind].collection('c'),
    objects: { prefix: `r${r}-`, count: 0 }, template: createTemplate(kind, 'c'), connections: conns, requests: Number.MAX_SAFE_INTEGER, durationMs: ms }, t);
  const p = (await gen.percentiles())[cell];
  console.log(`${kind} create ${conns}c: ${(m.completed / m.seconds).toFixed(0)}/s cpu ${(m.serverCpuUs / m.completed).toFixed(0)}us p50 ${p?.p50.toFixed(1)} p99 ${p?.p99.toFixed(1)} ms fail ${m.failures}`);
}
await gen.close(); await t.close();
