// The package as a user's project gets it: `npm pack` of a fresh build, installed with `npm install`
// into an empty project (dependencies from the npm cache or the registry), and there: `npx capstan`
// (its version, and a server reaching /readyz), a TypeScript file importing startCapstan that
// type-checks with tsc, and a node:test file that starts two servers and uses each with
// @kubernetes/client-node.
//
// One shortcut, for time: the install skips install scripts and better-sqlite3's addon is copied
// from this checkout's node_modules (the same version, built for this Node), where a user's install
// compiles it from source when no prebuilt binary can be downloaded (~1.5 min of CPU here).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startCapstanProcess } from './support/capstan-process.js';
import { launcherNodeFlags, nodeFlags } from './support/node-flags.js';

const run = promisify(execFile);
// The checkout itself, also when this file runs from the test runner's compiled copy of the tree
// (whose package.json is a link to the checkout's): npm packs real files only.
const root = dirname(realpathSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'package.json')));
const addon = join('node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

const typedUse = `
import { startCapstan, type StartCapstanOptions } from 'capstan';
const options: StartCapstanOptions = { storage: 'memory' };
const server = await startCapstan(options);
const url: string = server.url;
console.log(url);
await server.stop();
`;

const nodeTest = `
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { startCapstan } from 'capstan';

const servers = [];
before(async () => {
  servers.push(await startCapstan(), await startCapstan({ storage: 'sqlite' }));
});
after(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

const core = (server) => {
  const kc = new k8s.KubeConfig();
  kc.loadFromString(JSON.stringify(server.kubeConfig));
  return kc.makeApiClient(k8s.CoreV1Api);
};

it('creates a ConfigMap in each of two servers, which share nothing', async () => {
  for (const [i, server] of servers.entries()) {
    await core(server).createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'made-' + i }, data: { i: String(i) } },
    });
  }
  for (const [i, server] of servers.entries()) {
    const list = await core(server).listNamespacedConfigMap({ namespace: 'default' });
    const names = list.items.map((c) => c.metadata.name).filter((n) => n !== 'kube-root-ca.crt');
    assert.deepEqual(names, ['made-' + i]);
  }
});
`;

async function unpackedBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

describe('the packed package installed in an empty project', () => {
  let work = '';
  let project = '';
  let tarball = '';

  before(async () => {
    work = await mkdtemp(join(tmpdir(), 'capstan-package-'));
    project = join(work, 'project');
    await run('npm', ['run', 'build', '--silent'], { cwd: root });
    const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
      cwd: root,
    });
    const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    assert.ok(info !== undefined);
    tarball = join(work, info.filename);
    const paths = info.files.map((f) => f.path);
    assert.deepEqual(
      paths.filter((p) => /\.test\.|(^|\/)(test|bench|src|scripts)\//.test(p)),
      [],
      'no tests, benchmarks or sources in the tarball',
    );
    await mkdir(project);
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', version: '1.0.0', type: 'module', private: true }),
    );
    const started = Date.now();
    await run(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        tarball,
        '@kubernetes/client-node@1',
      ],
      { cwd: project, timeout: 240_000 },
    );
    await mkdir(dirname(join(project, addon)), { recursive: true });
    await copyFile(join(root, addon), join(project, addon));
    const size = await unpackedBytes(join(project, 'node_modules', 'capstan'));
    console.log(
      `package: ${(size / 1024 / 1024).toFixed(1)} MiB unpacked; npm install took ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  });

  after(async () => {
    if (work !== '') await rm(work, { recursive: true, force: true });
  });

  it('answers npx capstan --version', async () => {
    const { stdout } = await run('npm', ['exec', '--offline', '--', 'capstan', '--version'], {
      cwd: project,
    });
    assert.match(stdout, /^Kubernetes v1\.33\.\d+\+capstan\.\d+\.\d+\.\d+/);
  });

  it('serves through npx capstan --data-dir d --secure-port 0 --kubeconfig-out k until /readyz answers', async () => {
    // Resolves only once /readyz answered 200 at the port the server picked, named in `k`.
    const server = await startCapstanProcess({
      via: { npx: project },
      dataDir: join(project, 'd'),
      kubeconfigPath: join(project, 'k'),
    });
    let flags: string[];
    try {
      // The installed command runs the server under the flags bin/node-flags gives this machine.
      flags = launcherNodeFlags(server.pid ?? -1);
    } finally {
      await server.stop();
    }
    assert.deepEqual(flags, nodeFlags());
    assert.match(await readFile(join(project, 'k'), 'utf8'), new RegExp(`server: "${server.url}"`));
    assert.notEqual(new URL(server.url).port, '0');
    assert.doesNotMatch(server.log(), /error/i);
  });

  it('type-checks a TypeScript file that imports startCapstan', async () => {
    await writeFile(join(project, 'use.ts'), typedUse);
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          // The user's own @types/node, here this checkout's.
          typeRoots: [join(root, 'node_modules', '@types')],
          types: ['node'],
        },
        files: ['use.ts'],
      }),
    );
    await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project }).catch((err: unknown) => {
      const e = err as { stdout?: string };
      assert.fail(`tsc refused the user's file:\n${e.stdout ?? String(err)}`);
    });
  });

  it('runs a node:test file with two servers and @kubernetes/client-node', async () => {
    await writeFile(join(project, 'two-servers.test.mjs'), nodeTest);
    // Without NODE_TEST_CONTEXT, which would make the inner runner report to this one.
    const { NODE_TEST_CONTEXT: _inner, ...env } = process.env;
    const { stdout } = await run(process.execPath, ['--test', 'two-servers.test.mjs'], {
      cwd: project,
      env,
      timeout: 60_000,
    });
    assert.match(stdout, /# pass 1/);
    assert.match(stdout, /# fail 0/);
  });
});
