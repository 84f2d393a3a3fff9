// watch with predicates and bookmarks, after testWatch, RunOptionalTestProgressNotify and the
// watch-list cases in k8s.io/apiserver/pkg/storage/testing/watcher_tests.go; transform() in
// pkg/storage/etcd3/watcher.go decides ADDED/MODIFIED/DELETED from the old and new objects.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { SelectionPredicate } from '../interfaces.js';
import { storeTest, type SuiteContext, type TestEnv } from './harness.js';
import { pick, relabel, rvOf, seed } from './helpers.js';
import { testPredicate } from './predicate.js';
import { pod, withNode, withRv, type TestObject } from './test-object.js';
import { assertEvent, type EventReader, type TestEvent } from './watch-reader.js';

const selected = testPredicate({ labels: { sel: 'yes' } });
const initialEventsEnd = 'k8s.io/initial-events-end';

/** Creates foo with the given labels, then watches the prefix from there with `predicate`. */
async function watchFoo(
  env: TestEnv,
  labels: Record<string, string>,
  predicate: SelectionPredicate<TestObject> = selected,
): Promise<{ foo: TestObject; reader: EventReader }> {
  const foo = await env.store.create(env.key('foo'), pod(env.ns, 'foo', { labels }));
  const reader = await env.watch(env.prefix, {
    recursive: true,
    resourceVersion: String(rvOf(foo)),
    predicate,
  });
  return { foo, reader };
}

/** Writes a selected sentinel and expects it to be the next event: nothing came before it. */
async function expectNothingBeforeSentinel(env: TestEnv, reader: EventReader): Promise<void> {
  const sentinel = await env.store.create(
    env.key('zz-sentinel'),
    pod(env.ns, 'zz-sentinel', { labels: { sel: 'yes' } }),
  );
  assertEvent(
    await reader.nextChange('the sentinel'),
    'ADDED',
    sentinel,
    'the event after filtered-out writes',
  );
}

/** A BOOKMARK carries an object with nothing but metadata.resourceVersion (and the marker annotation). */
function assertBookmark(event: TestEvent, bounds: readonly [number, number], initialEnd: boolean): number {
  assert.equal(event.type, 'BOOKMARK');
  const { apiVersion: _v, kind: _k, metadata, ...rest } = event.object;
  assert.deepEqual(rest, {}, 'a bookmark object has no fields but metadata');
  const rv = rvOf(event.object);
  const expected = initialEnd
    ? { resourceVersion: String(rv), annotations: { [initialEventsEnd]: 'true' } }
    : { resourceVersion: String(rv) };
  assert.deepEqual(metadata, expected);
  assert.ok(
    rv >= bounds[0] && rv <= bounds[1],
    `bookmark rv ${rv} should be in [${bounds[0]}, ${bounds[1]}]`,
  );
  return rv;
}

export function registerWatchFilterTests(ctx: SuiteContext): void {
  describe('watch with a predicate', () => {
    storeTest(ctx, 'an update into the selection is ADDED', async (env) => {
      const { reader } = await watchFoo(env, { sel: 'no' });
      const moved = await relabel(env, env.key('foo'), { sel: 'yes' });
      assertEvent(await reader.nextChange(), 'ADDED', moved);
    });

    storeTest(
      ctx,
      'an update out of the selection is DELETED with the old object at the new revision',
      async (env) => {
        const { foo, reader } = await watchFoo(env, { sel: 'yes' });
        const moved = await relabel(env, env.key('foo'), { sel: 'no' });
        assertEvent(await reader.nextChange(), 'DELETED', withRv(foo, rvOf(moved)));
      },
    );

    storeTest(ctx, 'an update within the selection is MODIFIED', async (env) => {
      const { reader } = await watchFoo(env, { sel: 'yes' });
      const changed = await relabel(env, env.key('foo'), { sel: 'yes', more: 'x' });
      assertEvent(await reader.nextChange(), 'MODIFIED', changed);
    });

    storeTest(ctx, 'an update outside the selection sends nothing', async (env) => {
      const { reader } = await watchFoo(env, { sel: 'no' });
      await relabel(env, env.key('foo'), { sel: 'still-no' });
      await expectNothingBeforeSentinel(env, reader);
    });

    storeTest(ctx, 'creates and deletes outside the selection send nothing', async (env) => {
      const { reader } = await watchFoo(env, { sel: 'no' });
      await env.store.create(env.key('other'), pod(env.ns, 'other'));
      await env.store.delete(env.key('foo'));
      await expectNothingBeforeSentinel(env, reader);
      const gone = await env.store.delete(env.key('zz-sentinel'));
      assertEvent(await reader.nextChange('the sentinel delete'), 'DELETED', gone);
    });

    storeTest(
      ctx,
      'a spec.nodeName field predicate follows the object onto a node and off it',
      async (env) => {
        const onBar = testPredicate({ fields: { 'spec.nodeName': 'bar' } });
        const { foo, reader } = await watchFoo(env, {}, onBar);
        const assigned = await env.store.guaranteedUpdate(env.key('foo'), {
          tryUpdate: () => withNode(foo, 'bar'),
        });
        assertEvent(await reader.nextChange('scheduled onto bar'), 'ADDED', assigned);
        const moved = await env.store.guaranteedUpdate(env.key('foo'), {
          tryUpdate: () => withNode(foo, 'baz'),
        });
        assertEvent(await reader.nextChange('moved off bar'), 'DELETED', withRv(assigned, rvOf(moved)));
      },
    );

    storeTest(ctx, 'a negated field predicate turns a matching update into DELETED', async (env) => {
      const notBar = testPredicate({ notFields: { 'spec.nodeName': 'bar' } });
      const { foo, reader } = await watchFoo(env, {}, notBar);
      const assigned = await env.store.guaranteedUpdate(env.key('foo'), {
        tryUpdate: () => withNode(foo, 'bar'),
      });
      assertEvent(await reader.nextChange(), 'DELETED', withRv(foo, rvOf(assigned)));
    });

    storeTest(ctx, 'initial events from "0" are filtered too', async (env) => {
      const seeded = await seed(env, ['a', 'b', 'c'], (n) => ({ labels: { sel: n === 'b' ? 'yes' : 'no' } }));
      const reader = await env.watch(env.prefix, {
        recursive: true,
        resourceVersion: '0',
        predicate: selected,
      });
      assertEvent(await reader.nextChange('initial b'), 'ADDED', pick(seeded, 'b'));
      await expectNothingBeforeSentinel(env, reader);
    });
  });

  describe('watch bookmarks', () => {
    storeTest(
      ctx,
      'progressNotify sends BOOKMARKs holding only a resourceVersion that never goes back',
      async (env) => {
        const start = await env.store.currentResourceVersion();
        const reader = await env.watch(env.prefix, {
          recursive: true,
          resourceVersion: String(start),
          progressNotify: true,
        });
        const a = await env.store.create(env.key('a'), pod(env.ns, 'a'));
        assertEvent(await reader.nextChange('the create'), 'ADDED', a);
        const event = await reader.next('a BOOKMARK', env.opts.bookmarkTimeoutMs);
        assertBookmark(event, [rvOf(a), await env.store.currentResourceVersion()], false);
      },
      ['progressNotify'],
    );

    storeTest(
      ctx,
      'sendInitialEvents ends the initial ADDED events with a marked BOOKMARK',
      async (env) => {
        const seeded = await seed(env, ['b', 'a']);
        const opts = { recursive: true, sendInitialEvents: true, progressNotify: true };
        const reader = await env.watch(env.prefix, opts);
        const initial = [await reader.next('initial event 1'), await reader.next('initial event 2')];
        initial.sort((x, y) => rvOf(x.object) - rvOf(y.object));
        assertEvent(initial[0]!, 'ADDED', pick(seeded, 'b'));
        assertEvent(initial[1]!, 'ADDED', pick(seeded, 'a'));
        const end = await reader.next('the initial-events-end BOOKMARK');
        const bounds = [rvOf(pick(seeded, 'a')), await env.store.currentResourceVersion()] as const;
        const endRv = assertBookmark(end, bounds, true);
        const c = await env.store.create(env.key('c'), pod(env.ns, 'c'));
        assertEvent(await reader.nextChange('the create after the initial events'), 'ADDED', c);
        assert.ok(rvOf(c) > endRv);
      },
      ['sendInitialEvents', 'progressNotify'],
    );

    storeTest(
      ctx,
      'sendInitialEvents sends only the selected objects before the BOOKMARK',
      async (env) => {
        const seeded = await seed(env, ['a', 'b'], (n) => ({ labels: { sel: n === 'a' ? 'yes' : 'no' } }));
        const opts = { recursive: true, sendInitialEvents: true, progressNotify: true, predicate: selected };
        const reader = await env.watch(env.prefix, opts);
        assertEvent(await reader.next('initial a'), 'ADDED', pick(seeded, 'a'));
        const bounds = [rvOf(pick(seeded, 'b')), await env.store.currentResourceVersion()] as const;
        assertBookmark(await reader.next('the initial-events-end BOOKMARK'), bounds, true);
      },
      ['sendInitialEvents', 'progressNotify'],
    );
  });
}
