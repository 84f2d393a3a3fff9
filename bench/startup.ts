// bench/startup: how long Capstan takes from process start to /readyz OK (median of 10) as
// `npm start` runs it (bin/capstan on SQLite: the bundle through its V8 code cache), as
// `node dist/cmd/capstan.cjs` (the same bundle compiled from source), and through npm
// itself, next to a bare node:http server's start to its first 200; its RSS and CPU time at that
// moment; and startCapstan() in this process next to a bare server's listen(). The variants take
// turns round by round, so a drifting machine load shifts them alike. bin/capstan starts node
// without NODE_EXTRA_CA_CERTS (it hands the file to the server instead), so the bare server and
// `node dist/cmd/capstan.cjs` run without it too; when the environment sets it, one more row shows
// what it costs a bare server.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCapstan, type StartCapstanOptions } from '../src/index.js';
import { probe, type ProbeResult, type ProbeSpec } from './process-probe.js';
import { fmt, median, printTable, type Row } from './support.js';

const runs = 10;
const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = join(root, 'dist', 'cmd', 'capstan.cjs');
const bin = join(root, 'bin', 'capstan');
const bareScript =
  "require('node:http').createServer((q, s) => s.end('ok')).listen(Number(process.argv[1]), '127.0.0.1')";

const variants = ['bare', 'bareWithExtraCA', 'binRestart', 'binFirst', 'nodeDist', 'npmStart'] as const;
type Variant = (typeof variants)[number];

const extraCA = process.env['NODE_EXTRA_CA_CERTS'] ?? '';
const asBinCapstanStartsNode: NodeJS.ProcessEnv = { ...process.env };
delete asBinCapstanStartsNode['NODE_EXTRA_CA_CERTS'];

/** A --token-auth-file token for the /readyz polls: as kube, it answers 401 to anonymous requests here. */
const probeToken = 'startup-probe-token';

function specs(dataDir: string, freshDir: () => string, tokenFile: string): Record<Variant, () => ProbeSpec> {
  const readyz = (port: number): string => `https://127.0.0.1:${port}/readyz`;
  const headers = { authorization: `Bearer ${probeToken}` };
  const flags = (dir: string): string[] => [
    '--storage-backend=sqlite',
    `--data-dir=${dir}`,
    '--secure-port={port}',
    `--token-auth-file=${tokenFile}`,
  ];
  const bare = (env: NodeJS.ProcessEnv): ProbeSpec => ({
    command: process.execPath,
    args: ['-e', bareScript, '{port}'],
    cwd: root,
    url: (p) => `http://127.0.0.1:${p}/`,
    env,
  });
  return {
    bare: () => bare(asBinCapstanStartsNode),
    bareWithExtraCA: () => bare(process.env),
    binRestart: () => ({
      command: bin,
      args: flags(dataDir),
      cwd: root,
      url: readyz,
      headers,
      watch: bundle,
    }),
    binFirst: () => ({
      command: bin,
      args: flags(freshDir()),
      cwd: root,
      url: readyz,
      headers,
      watch: bundle,
    }),
    nodeDist: () => ({
      command: process.execPath,
      args: [bundle, ...flags(dataDir)],
      cwd: root,
      url: readyz,
      headers,
      env: asBinCapstanStartsNode,
    }),
    npmStart: () => ({
      command: 'npm',
      args: ['start', '--silent', '--', ...flags(dataDir)],
      cwd: root,
      url: readyz,
      headers,
      watch: bundle,
    }),
  };
}

const names: Readonly<Record<Exclude<Variant, 'bare' | 'bareWithExtraCA'>, string>> = {
  binRestart: '`bin/capstan --storage-backend=sqlite` (npm start without npm), existing data dir',
  binFirst: '`bin/capstan --storage-backend=sqlite`, empty data dir (CA, token, schema)',
  nodeDist: '`node dist/cmd/capstan.cjs --storage-backend=sqlite` (no code cache), existing data dir',
  npmStart: '`npm start -- --storage-backend=sqlite`, existing data dir (npm adds ~0.3 s)',
};

async function processStarts(): Promise<Record<Variant, ProbeResult[]>> {
  const scratch = mkdtempSync(join(tmpdir(), 'capstan-startup-'));
  let fresh = 0;
  const tokenFile = join(scratch, 'tokens.csv');
  writeFileSync(tokenFile, `${probeToken},startup-probe,startup-probe,system:masters\n`);
  const spec = specs(join(scratch, 'data'), () => join(scratch, `fresh-${fresh++}`), tokenFile);
  const results: Record<Variant, ProbeResult[]> = {
    bare: [],
    bareWithExtraCA: [],
    binRestart: [],
    binFirst: [],
    nodeDist: [],
    npmStart: [],
  };
  try {
    await probe(spec.binRestart(), false); // creates the data dir the restarts reuse and the code cache
    for (let r = 0; r < runs; r++) {
      for (const v of variants) {
        if (v === 'bareWithExtraCA' && extraCA === '') continue;
        results[v].push(await comparable(() => probe(spec[v](), v !== 'npmStart')));
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return results;
}

let rebundled = 0;

/** Repeats a run in which bin/capstan rebundled because someone edited a source meanwhile. */
async function comparable(run: () => Promise<ProbeResult>): Promise<ProbeResult> {
  for (let attempt = 1; ; attempt++) {
    const result = await run();
    if (!result.changed || attempt === 3) return result;
    rebundled++;
  }
}

async function bareListen(): Promise<number> {
  const start = performance.now();
  const server = http.createServer((_q, s) => s.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const ms = performance.now() - start;
  await new Promise((resolve) => server.close(resolve));
  return ms;
}

async function timeStart(opts: StartCapstanOptions): Promise<number> {
  const start = performance.now();
  const server = await startCapstan(opts);
  const ms = performance.now() - start;
  await server.stop();
  return ms;
}

const inProcess: readonly (readonly [string, StartCapstanOptions])[] = [
  ["startCapstan({ storage: 'memory', scheme: 'http' })", { storage: 'memory', scheme: 'http' }],
  ["startCapstan({ storage: 'sqlite', scheme: 'http' })", { storage: 'sqlite', scheme: 'http' }],
  ['startCapstan() (memory, HTTPS: CA and serving certificate generated)', {}],
];

async function inProcessStarts(): Promise<{ bare: number[]; capstan: number[][]; first: number[] }> {
  const bare: number[] = [];
  const capstan: number[][] = inProcess.map(() => []);
  for (let r = 0; r < runs; r++) {
    bare.push(await bareListen());
    for (const [i, [, opts]] of inProcess.entries()) capstan[i]?.push(await timeStart(opts));
  }
  return { bare, capstan, first: capstan.map((c) => c[0] ?? NaN) };
}

const col = (rs: readonly ProbeResult[], f: (r: ProbeResult) => number | undefined): number =>
  median(rs.map((r) => f(r) ?? NaN));

function report(
  p: Record<Variant, ProbeResult[]>,
  inproc: Awaited<ReturnType<typeof inProcessStarts>>,
): void {
  const bareMs = col(p.bare, (r) => r.ms);
  const rows: Row[] = (Object.keys(names) as (keyof typeof names)[]).map((v) => ({
    what: names[v],
    capstan: col(p[v], (r) => r.ms),
    baseline: bareMs,
    unit: ' ms',
  }));
  if (extraCA !== '')
    rows.push({
      what: `bare node:http with this environment's NODE_EXTRA_CA_CERTS=${extraCA} (Node parses it at start)`,
      capstan: col(p.bareWithExtraCA, (r) => r.ms),
      baseline: bareMs,
      unit: ' ms',
    });
  printTable(`Process start to /readyz OK, median of ${runs}`, 'bare node:http, first 200', rows);
  printTable(`Process cost at ready, median of ${runs}`, 'bare node:http', [
    {
      what: 'CPU time (user + system), bin/capstan, existing data dir',
      capstan: col(p.binRestart, (r) => r.cpuMs),
      baseline: col(p.bare, (r) => r.cpuMs),
      unit: ' ms',
    },
    {
      what: 'CPU time, bin/capstan, empty data dir',
      capstan: col(p.binFirst, (r) => r.cpuMs),
      baseline: col(p.bare, (r) => r.cpuMs),
      unit: ' ms',
    },
    {
      what: 'RSS, bin/capstan, existing data dir',
      capstan: col(p.binRestart, (r) => r.rssMB),
      baseline: col(p.bare, (r) => r.rssMB),
      unit: ' MB',
    },
  ]);
  const bareIn = median(inproc.bare);
  printTable(
    `In-process start, median of ${runs} (modules already loaded)`,
    'bare node:http listen()',
    inProcess.map(([what], i) => ({
      what,
      capstan: median(inproc.capstan[i] ?? []),
      baseline: bareIn,
      unit: ' ms',
    })),
  );
  console.log(
    `\nFirst calls in this process (cold code): ${inproc.first.map((ms) => `${fmt(ms)} ms`).join(', ')}.`,
  );
}

export async function run(): Promise<void> {
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--bundle'], { stdio: 'inherit' });
  const built = statSync(bundle).mtimeMs;
  const loadAtStart = loadavg()[0] ?? 0;
  const processes = await processStarts();
  const inproc = await inProcessStarts();
  console.log(
    `\nload average ${loadAtStart.toFixed(2)} at start, ${(loadavg()[0] ?? 0).toFixed(2)} at end (2 cores)`,
  );
  if (statSync(bundle).mtimeMs !== built) {
    console.log(
      `Sources changed during the run: ${rebundled} runs in which bin/capstan rebundled were repeated.`,
    );
  }
  report(processes, inproc);
}
