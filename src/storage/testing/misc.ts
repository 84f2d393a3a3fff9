// count, currentResourceVersion, readinessCheck and the versioner, after RunTestCount and
// RunTestGetCurrentResourceVersion in k8s.io/apiserver/pkg/storage/testing/store_tests.go.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { storeTest, type SuiteContext } from './harness.js';
import { relabel, rvOf, seed } from './helpers.js';
import { pod } from './test-object.js';

export function registerCountTests(ctx: SuiteContext): void {
  describe('count', () => {
    storeTest(ctx, 'counts every object under a prefix and nothing beside it', async (env) => {
      await seed(env, ['a', 'b', 'c', 'a/x']);
      await env.store.create(`${env.prefix}b/y`, pod(`${env.ns}b`, 'y'));
      await env.store.create(env.prefix, pod(env.ns, env.ns));
      assert.equal(await env.store.count(env.prefix), 4);
      assert.equal(await env.store.count(`${env.prefix}/`), 4);
      assert.equal(await env.store.count(`${env.prefix}b`), 1);
    });

    storeTest(ctx, 'goes down after deletes and up after creates', async (env) => {
      await seed(env, ['a', 'b', 'c']);
      await env.store.delete(env.key('b'));
      assert.equal(await env.store.count(env.prefix), 2);
      await env.store.delete(env.key('a'));
      await env.store.create(env.key('d'), pod(env.ns, 'd'));
      await env.store.create(env.key('e'), pod(env.ns, 'e'));
      assert.equal(await env.store.count(env.prefix), 3);
    });

    storeTest(ctx, 'is zero for a prefix with nothing under it', async (env) => {
      assert.equal(await env.store.count(env.prefix), 0);
    });
  });
}

export function registerStoreStateTests(ctx: SuiteContext): void {
  describe('store state', () => {
    storeTest(ctx, 'currentResourceVersion is at least every returned resourceVersion', async (env) => {
      const a = await env.store.create(env.key('a'), pod(env.ns, 'a'));
      assert.ok((await env.store.currentResourceVersion()) >= rvOf(a));
      const a2 = await relabel(env, env.key('a'), { v: '2' });
      assert.ok((await env.store.currentResourceVersion()) >= rvOf(a2));
      const gone = await env.store.delete(env.key('a'));
      const current = await env.store.currentResourceVersion();
      assert.ok(current >= rvOf(gone), `current ${current} should be at least ${rvOf(gone)}`);
      const list = await env.store.getList(env.prefix, { recursive: true });
      assert.ok((await env.store.currentResourceVersion()) >= rvOf(list));
    });

    storeTest(ctx, 'currentResourceVersion does not move without writes', async (env) => {
      await seed(env, ['a']);
      const first = await env.store.currentResourceVersion();
      await env.store.get(env.key('a'));
      await env.store.getList(env.prefix, { recursive: true });
      await env.store.count(env.prefix);
      assert.equal(await env.store.currentResourceVersion(), first);
    });

    storeTest(ctx, 'keys that could leave the path prefix are refused by every verb', async (env) => {
      const obj = pod(env.ns, 'x');
      for (const key of [
        '',
        '/',
        '..',
        `${env.prefix}/../x`,
        `${env.prefix}/./x`,
        `../${env.ns}/x`,
        `${env.prefix}/..`,
      ]) {
        const what = `key ${JSON.stringify(key)}`;
        await assert.rejects(env.store.create(key, obj), `create with ${what}`);
        await assert.rejects(env.store.get(key), `get with ${what}`);
        await assert.rejects(env.store.getList(key, { recursive: true }), `getList with ${what}`);
        await assert.rejects(env.store.delete(key), `delete with ${what}`);
        await assert.rejects(
          env.store.guaranteedUpdate(key, { tryUpdate: () => obj, ignoreNotFound: true }),
          `update with ${what}`,
        );
      }
    });

    storeTest(ctx, 'readinessCheck resolves', async (env) => {
      await env.store.readinessCheck();
    });

    storeTest(ctx, 'the versioner parses resourceVersions as kube does', (env) => {
      const { versioner } = env.store;
      assert.equal(versioner.parseResourceVersion(''), 0);
      assert.equal(versioner.parseResourceVersion('0'), 0);
      assert.equal(versioner.parseResourceVersion('42'), 42);
      for (const bad of ['abc', '-1', '1.5', ' 1']) {
        assert.throws(() => versioner.parseResourceVersion(bad), `${JSON.stringify(bad)} should be refused`);
      }
    });

    storeTest(ctx, 'the versioner reads and writes object resourceVersions', (env) => {
      const { versioner } = env.store;
      const obj = pod(env.ns, 'a');
      versioner.updateObject(obj, 17);
      assert.equal(obj.metadata.resourceVersion, '17');
      assert.equal(versioner.objectResourceVersion(obj), 17);
      versioner.prepareObjectForStorage(obj);
      assert.equal(obj.metadata.resourceVersion ?? '', '');
    });
  });
}
