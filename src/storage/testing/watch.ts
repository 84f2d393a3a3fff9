// watch: starting points, keys, ordering, compaction and ending, after RunTestWatch* in
// k8s.io/apiserver/pkg/storage/testing/watcher_tests.go and pkg/storage/etcd3/watcher.go.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { storeTest, type SuiteContext, type TestEnv } from './harness.js';
import { pick, relabel, rvOf, seed, watchTooOld } from './helpers.js';
import { pod, type TestObject } from './test-object.js';
import { assertEvent, type TestEvent } from './watch-reader.js';

function byName(events: readonly TestEvent[]): TestEvent[] {
  const name = (e: TestEvent): string => (e.type === 'ERROR' ? '' : (e.object.metadata.name ?? ''));
  return [...events].sort((x, y) => name(x).localeCompare(name(y)));
}

/** Seeds a and b, watches the prefix from `rv`, expects ADDED for both, then a MODIFIED. */
async function initialThenChanges(env: TestEnv, rv: string | undefined): Promise<void> {
  const seeded = await seed(env, ['b', 'a']);
  const reader = await env.watch(env.prefix, {
    recursive: true,
    ...(rv === undefined ? {} : { resourceVersion: rv }),
  });
  const initial = byName(await reader.changes(2, 'initial ADDED events'));
  assertEvent(initial[0]!, 'ADDED', pick(seeded, 'a'), 'initial a');
  assertEvent(initial[1]!, 'ADDED', pick(seeded, 'b'), 'initial b');
  const a2 = await relabel(env, env.key('a'), { v: '2' });
  assertEvent(await reader.nextChange('the update'), 'MODIFIED', a2);
}

export function registerWatchTests(ctx: SuiteContext): void {
  describe('watch', () => {
    storeTest(ctx, 'from "0" sends ADDED for existing objects, then changes', async (env) => {
      await initialThenChanges(env, '0');
    });

    storeTest(ctx, 'from an unset resourceVersion behaves like "0"', async (env) => {
      await initialThenChanges(env, undefined);
    });

    storeTest(ctx, 'from an older resourceVersion replays every change after it', async (env) => {
      const a1 = await env.store.create(env.key('a'), pod(env.ns, 'a'));
      const a2 = await relabel(env, env.key('a'), { v: '2' });
      const b = await env.store.create(env.key('b'), pod(env.ns, 'b'));
      const reader = await env.watch(env.prefix, { recursive: true, resourceVersion: String(rvOf(a1)) });
      assertEvent(await reader.nextChange('replayed update'), 'MODIFIED', a2);
      assertEvent(await reader.nextChange('replayed create'), 'ADDED', b);
      const gone = await env.store.delete(env.key('b'));
      assertEvent(await reader.nextChange('live delete'), 'DELETED', gone);
    });

    storeTest(ctx, 'from the current resourceVersion sends only new changes', async (env) => {
      const seeded = await seed(env, ['a']);
      const reader = await env.watch(env.prefix, {
        recursive: true,
        resourceVersion: String(rvOf(pick(seeded, 'a'))),
      });
      const b = await env.store.create(env.key('b'), pod(env.ns, 'b'));
      assertEvent(await reader.nextChange('the create'), 'ADDED', b);
    });

    storeTest(ctx, 'a single-key watch sees only that key', async (env) => {
      const a = await env.store.create(env.key('a'), pod(env.ns, 'a'));
      const reader = await env.watch(env.key('a'), { resourceVersion: String(rvOf(a)) });
      await env.store.create(env.key('ab'), pod(env.ns, 'ab'));
      await env.store.create(`${env.key('a')}/child`, pod(env.ns, 'child'));
      const a2 = await relabel(env, env.key('a'), { v: '2' });
      assertEvent(await reader.nextChange('the update of a'), 'MODIFIED', a2);
    });

    storeTest(ctx, 'a single-key watch from "0" starts with that object only', async (env) => {
      const seeded = await seed(env, ['a', 'ab']);
      const reader = await env.watch(env.key('a'), { resourceVersion: '0' });
      assertEvent(await reader.nextChange('initial a'), 'ADDED', pick(seeded, 'a'));
      const gone = await env.store.delete(env.key('a'));
      assertEvent(await reader.nextChange('the delete of a'), 'DELETED', gone);
    });

    storeTest(
      ctx,
      'a recursive watch does not see a sibling prefix or the prefix key itself',
      async (env) => {
        const start = await env.store.currentResourceVersion();
        const reader = await env.watch(env.prefix, { recursive: true, resourceVersion: String(start) });
        await env.store.create(`${env.prefix}b/x`, pod(`${env.ns}b`, 'x'));
        if (ctx.opts.rawKeys) await env.store.create(env.prefix, pod(env.ns, env.ns));
        const inside = await env.store.create(env.key('y'), pod(env.ns, 'y'));
        assertEvent(await reader.nextChange('the create inside the prefix'), 'ADDED', inside);
      },
    );

    storeTest(ctx, 'DELETED carries the last state with the deletion resourceVersion', async (env) => {
      const a = await env.store.create(env.key('a'), pod(env.ns, 'a', { labels: { last: 'state' } }));
      const reader = await env.watch(env.key('a'), { resourceVersion: String(rvOf(a)) });
      const deleted = await env.store.delete(env.key('a'));
      const event = await reader.nextChange('the delete');
      assertEvent(event, 'DELETED', deleted);
      assert.ok(rvOf(event.object) > rvOf(a));
    });

    storeTest(ctx, 'events come in resourceVersion order with none missing', async (env) => {
      const start = await env.store.currentResourceVersion();
      const reader = await env.watch(env.prefix, { recursive: true, resourceVersion: String(start) });
      const expected: [TestEvent['type'], TestObject][] = [];
      for (let i = 0; i < 8; i += 1) {
        const name = `p${i % 3}`;
        const existing = await env.store.get(env.key(name), { ignoreNotFound: true });
        if (existing === null)
          expected.push(['ADDED', await env.store.create(env.key(name), pod(env.ns, name))]);
        else if (i % 2 === 0) expected.push(['DELETED', await env.store.delete(env.key(name))]);
        else expected.push(['MODIFIED', await relabel(env, env.key(name), { i: String(i) })]);
      }
      const got = await reader.changes(expected.length);
      got.forEach((event, i) => {
        const [type, object] = expected[i]!;
        assertEvent(event, type, object, `event ${i}`);
      });
    });

    storeTest(ctx, 'every watcher of a key gets the same events', async (env) => {
      const start = String(await env.store.currentResourceVersion());
      const first = await env.watch(env.prefix, { recursive: true, resourceVersion: start });
      const second = await env.watch(env.prefix, { recursive: true, resourceVersion: start });
      const a = await env.store.create(env.key('a'), pod(env.ns, 'a'));
      const gone = await env.store.delete(env.key('a'));
      for (const reader of [first, second]) {
        assertEvent(await reader.nextChange('the create'), 'ADDED', a);
        assertEvent(await reader.nextChange('the delete'), 'DELETED', gone);
      }
    });

    registerCompactionTests(ctx);
    registerEndingTests(ctx);
  });
}

function registerCompactionTests(ctx: SuiteContext): void {
  storeTest(
    ctx,
    'from a compacted resourceVersion sends one 410 Expired ERROR and ends',
    async (env) => {
      const a1 = await env.store.create(env.key('a'), pod(env.ns, 'a'));
      await relabel(env, env.key('a'), { v: '2' });
      await relabel(env, env.key('a'), { v: '3' });
      await env.harness.compact(await env.store.currentResourceVersion());
      const reader = await env.watch(env.key('a'), { resourceVersion: String(rvOf(a1)) });
      const event = await reader.next('the ERROR event');
      assert.equal(event.type, 'ERROR');
      assert.deepEqual(event.object, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: watchTooOld,
        reason: 'Expired',
        code: 410,
      });
      await reader.expectEnd();
      await reader.watch.done;
    },
    ['compaction', 'compactedWatchExpires'],
  );

  storeTest(
    ctx,
    'from "0" after compaction still starts with the current state',
    async (env) => {
      await env.store.create(env.key('a'), pod(env.ns, 'a'));
      const a2 = await relabel(env, env.key('a'), { v: '2' });
      // A read at a2's revision: a watch cache has seen it (and its storage watch is past it) before
      // the compaction, as it would have in a server that has run for a while.
      await env.store.get(env.key('a'), { resourceVersion: String(rvOf(a2)) });
      await env.harness.compact(rvOf(a2));
      const reader = await env.watch(env.key('a'), { resourceVersion: '0' });
      assertEvent(await reader.nextChange('initial a'), 'ADDED', a2);
    },
    ['compaction'],
  );
}

function registerEndingTests(ctx: SuiteContext): void {
  storeTest(ctx, 'stop() ends the iteration and resolves done', async (env) => {
    const reader = await env.watch(env.prefix, {
      recursive: true,
      resourceVersion: String(await env.store.currentResourceVersion()),
    });
    const a = await env.store.create(env.key('a'), pod(env.ns, 'a'));
    assertEvent(await reader.nextChange('the create'), 'ADDED', a);
    const waiting = reader.step(env.opts.eventTimeoutMs);
    reader.stop();
    const result = await waiting;
    assert.ok(typeof result === 'object' && result.done === true, 'a pending read should end after stop()');
    await reader.watch.done;
    await env.store.create(env.key('b'), pod(env.ns, 'b'));
  });

  storeTest(ctx, 'aborting the signal ends the iteration', async (env) => {
    const controller = new AbortController();
    const rv = String(await env.store.currentResourceVersion());
    const reader = await env.watch(env.prefix, {
      recursive: true,
      resourceVersion: rv,
      signal: controller.signal,
    });
    const a = await env.store.create(env.key('a'), pod(env.ns, 'a'));
    assertEvent(await reader.nextChange('the create'), 'ADDED', a);
    controller.abort();
    await reader.expectEnd('the watch to end after abort');
    await reader.watch.done;
  });

  storeTest(ctx, 'an already aborted signal yields a watch that ends without events', async (env) => {
    await seed(env, ['a']);
    const opts = { recursive: true, resourceVersion: '0', signal: AbortSignal.abort() };
    const reader = await env.watch(env.prefix, opts).catch(() => null);
    if (reader === null) return;
    await reader.expectEnd('the watch with an aborted signal to end');
  });

  storeTest(ctx, 'a malformed resourceVersion is refused', async (env) => {
    await assert.rejects(env.store.watch(env.prefix, { recursive: true, resourceVersion: 'abc' }));
  });
}
