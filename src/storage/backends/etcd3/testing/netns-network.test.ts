// The netns network itself: members reach each other and the test process reaches them through the
// hub; isolate() cuts one member off both ways (and only that one), heal() brings it back, networks
// of one process (or of parallel test files) do not meet, close() leaves no namespace and no link.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { after, before, it, type TestContext } from 'node:test';
import { setImmediate } from 'node:timers/promises';
import { listNamespaces, NetnsNetwork, netnsUnavailable } from './netns-network.js';

const PORT = 7000;
const unavailable = netnsUnavailable();
let net: NetnsNetwork | undefined;
const listeners: ChildProcess[] = [];

/** A TCP server inside the member's namespace, on its address, that says "hi" and hangs up. */
async function listen(ns: string, address: string): Promise<void> {
  const code = `require('net').createServer((s) => s.on('error', () => {}).end('hi')).listen(${PORT}, '${address}', () => console.log('up'))`;
  const child = spawn('ip', ['netns', 'exec', ns, process.execPath, '-e', code], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  listeners.push(child);
  await once(child.stdout, 'data');
}

/**
 * How long a connection may take: one that must fail is given 1 s, one that must succeed 5 s (a
 * loaded machine can be slow to start the processes; after a heal, a member that asked for the
 * cut-off one's address during the cut waits for its next ARP retransmission, 1 s apart).
 */
const MUST_FAIL_S = 1;
const MUST_PASS_S = 5;

/** True when a TCP connection from the root namespace to address:PORT is answered in time. */
function reachFromRoot(address: string, seconds: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host: address, port: PORT, timeout: seconds * 1000 });
    const done = (ok: boolean): void => {
      s.destroy();
      resolve(ok);
    };
    s.once('data', () => {
      done(true);
    });
    s.once('timeout', () => {
      done(false);
    });
    s.once('error', () => {
      done(false);
    });
  });
}

/** Why the last connections from inside a namespace failed (for the assertion messages). */
const failures: string[] = [];

/** The same from inside a member's namespace (bash's /dev/tcp under coreutils' timeout). */
async function reachFrom(ns: string, address: string, seconds: number): Promise<boolean> {
  const script = `exec 3<>/dev/tcp/${address}/${PORT}; head -c2 <&3`;
  // --norc and no socket on stdin: bash reads ~/.bashrc when its stdin is a socket (as under rshd).
  const bash = ['bash', '--norc', '--noprofile', '-c', script];
  const child = spawn('ip', ['netns', 'exec', ns, 'timeout', String(seconds), ...bash], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const [code] = (await once(child, 'close')) as [number | null]; // 'close': stdout read to its end
  const ok = code === 0 && out === 'hi';
  if (!ok) failures.push(`${ns} to ${address}: exit ${code}, ${JSON.stringify(out)}, ${err.trim()}`);
  return ok;
}

function ipOut(args: readonly string[]): string {
  return spawnSync('ip', args, { encoding: 'utf8' }).stdout;
}

function network(t: TestContext): NetnsNetwork | undefined {
  if (unavailable !== undefined) {
    t.skip(`no network namespaces here: ${unavailable}`);
    return undefined;
  }
  return net;
}

before(async () => {
  if (unavailable !== undefined) return;
  net = NetnsNetwork.create(['a', 'b', 'c']);
  await Promise.all(net.hosts.map((h) => listen(h.namespace, h.address)));
});

after(async () => {
  for (const c of listeners) c.kill('SIGKILL');
  await net?.close();
});

it('members reach each other through the hub and the test process reaches every member', async (t) => {
  const n = network(t);
  if (n === undefined) return;
  const [a, b, c] = n.hosts as [NetnsNetwork['hosts'][0], NetnsNetwork['hosts'][0], NetnsNetwork['hosts'][0]];
  assert.match(a.address, /^10\.213\.\d+\.1$/);
  const results = await Promise.all([
    reachFrom(a.namespace, b.address, MUST_PASS_S),
    reachFrom(b.namespace, c.address, MUST_PASS_S),
    reachFrom(c.namespace, a.address, MUST_PASS_S),
    ...n.hosts.map((h) => reachFromRoot(h.address, MUST_PASS_S)),
  ]);
  assert.deepEqual(results, [true, true, true, true, true, true], failures.join('\n'));
});

it('isolate cuts one member off both ways, from members and from the test process; heal restores it', async (t) => {
  const n = network(t);
  if (n === undefined) return;
  const [a, b, c] = n.hosts as [NetnsNetwork['hosts'][0], NetnsNetwork['hosts'][0], NetnsNetwork['hosts'][0]];
  n.isolate('b', 'ignored');
  const cut = await Promise.all([
    reachFrom(a.namespace, b.address, MUST_FAIL_S),
    reachFrom(b.namespace, a.address, MUST_FAIL_S),
    reachFromRoot(b.address, MUST_FAIL_S),
    reachFrom(a.namespace, c.address, MUST_PASS_S),
    reachFromRoot(c.address, MUST_PASS_S),
  ]);
  assert.deepEqual(cut, [false, false, false, true, true], 'b is cut off, a and c still talk');
  n.heal();
  failures.length = 0;
  const healed = await Promise.all([
    reachFrom(a.namespace, b.address, MUST_PASS_S),
    reachFrom(b.namespace, a.address, MUST_PASS_S),
    reachFromRoot(b.address, MUST_PASS_S),
  ]);
  assert.deepEqual(healed, [true, true, true], failures.join('\n'));
});

it('a second network gets its own /24 and removes namespaces that dead runs left behind', async (t) => {
  const n = network(t);
  if (n === undefined) return;
  const dead = spawn('true');
  await once(dead, 'exit');
  const stale = `capstan-${dead.pid}-n0-m0`;
  // A process in a namespace of its own before the namespace gets its name (a parallel run's sweep
  // must find it inside), as a member of a killed run would be.
  const holder = spawn('unshare', ['-n', 'sleep', '30'], { stdio: 'ignore' });
  listeners.push(holder);
  await once(holder, 'spawn');
  while (readFileSync(`/proc/${holder.pid}/comm`, 'utf8') !== 'sleep\n') await setImmediate();
  assert.equal(spawnSync('ip', ['netns', 'attach', stale, String(holder.pid)]).status, 0);
  const other = NetnsNetwork.create(['x']);
  const [code, signal] = (await once(holder, 'exit')) as [number | null, string | null];
  assert.deepEqual([code, signal], [null, 'SIGKILL'], 'what ran in the stale namespace was killed');
  try {
    assert.notEqual(other.subnet, n.subnet);
    assert.ok(!listNamespaces().includes(stale), `${stale} is still there`);
    const [x] = other.hosts;
    assert.deepEqual(
      await Promise.all([
        reachFromRoot(n.hosts[0]!.address, MUST_PASS_S),
        reachFrom(x!.namespace, n.hosts[0]!.address, MUST_FAIL_S),
      ]),
      [true, false],
    );
  } finally {
    await other.close();
  }
  assert.equal(
    await reachFromRoot(n.hosts[0]!.address, MUST_PASS_S),
    true,
    'closing the second network left the first alone',
  );
});

it('close removes every namespace and link it made, and a second close is harmless', async (t) => {
  const n = network(t);
  if (n === undefined) return;
  // By index: a parallel run may claim the same /24, and so the uplink's name, once it is free.
  const uplinkIndex = /^(\d+):/.exec(ipOut(['-o', 'link', 'show', 'dev', n.uplink]))?.[1];
  assert.ok(uplinkIndex !== undefined, 'the uplink is there before close');
  const exits = listeners
    .filter((c) => c.exitCode === null && c.signalCode === null)
    .map((c) => once(c, 'exit'));
  assert.equal(exits.length, 3, 'the three listeners run');
  await n.close();
  await n.close();
  await Promise.all(exits); // close() killed what ran in its namespaces
  const mine = listNamespaces().filter((ns) => ns.startsWith(`capstan-${process.pid}-`));
  assert.deepEqual(mine, []);
  const links = ipOut(['-o', 'link']);
  assert.doesNotMatch(links, new RegExp(`^${uplinkIndex}:`, 'm'));
  assert.doesNotMatch(
    links,
    new RegExp(`capstan-${process.pid}-`),
    'no link points into a namespace of ours',
  );
  assert.throws(() => {
    NetnsNetwork.create([]);
  }, /1 to 250 members/);
});
