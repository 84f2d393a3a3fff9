// The compact_rev_key protocol: of several API servers, one compacts per interval.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Etcd3Backend } from './etcd-backend.js';
import { compactStep, startCompactor, type CompactState, type CompactStep } from './compactor.js';
import { describeWithEtcd } from './testing/describe-with-etcd.js';

describeWithEtcd('compactor', (fx) => {
  const open = (): Etcd3Backend => new Etcd3Backend({ endpoints: fx.etcd().endpoints });

  it('only the server whose txn wins compacts, to the revision it saw an interval ago', async () => {
    const a = open();
    const b = open();
    try {
      await a.create(`/compactor-test/${Math.random()}`, Buffer.from('x'));
      // Start from whatever an earlier test left in compact_rev_key.
      let sa: CompactState = await compactStep(a.etcdClient, { version: -1, revision: 0 });
      let sb: CompactState = await compactStep(b.etcdClient, { version: -1, revision: 0 });
      const round = async (): Promise<[CompactStep, CompactStep]> => {
        await a.create(`/compactor-test/${Math.random()}`, Buffer.from('x'));
        const stepA = await compactStep(a.etcdClient, sa);
        const stepB = await compactStep(b.etcdClient, sb);
        sa = stepA;
        sb = stepB;
        return [stepA, stepB];
      };
      // Both adopted the key's clock and the current revision; a's txn comes first and wins.
      const seen = sa.revision;
      const [a1, b1] = await round();
      assert.equal(a1.compacted, seen, 'a compacts to the revision it saw an interval ago');
      assert.equal(b1.compacted, 0, 'b lost the txn and did not compact');
      assert.equal(b1.compactRevision, seen, 'b learns the compacted revision from compact_rev_key');
      assert.equal(await b.compactRevision(), seen);
      for (let i = 0; i < 3; i++) {
        const steps = await round();
        assert.equal(steps.filter((s) => s.compacted > 0).length, 1, 'exactly one compaction per interval');
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('two running compactors compact about once per interval between them; stop ends them', async () => {
    const a = open();
    const b = open();
    const compactions: number[] = [];
    const errors: Error[] = [];
    const onStep = (s: CompactStep): void => {
      if (s.compacted > 0) compactions.push(s.compacted);
    };
    const onError = (e: Error): void => {
      errors.push(e);
    };
    const stopA = startCompactor({ backend: a, intervalMs: 150, onStep, onError });
    const stopB = startCompactor({ client: b.etcdClient, intervalMs: 150, onStep, onError });
    try {
      for (let i = 0; i < 8; i++) {
        await a.create(`/compactor-loop/${i}-${Math.random()}`, Buffer.from('x'));
        await sleep(60);
      }
      await Promise.all([stopA(), stopB()]);
      const settled = compactions.length;
      await sleep(300);
      assert.equal(compactions.length, settled, 'no compaction after stop');
      assert.deepEqual(errors, []);
      // ~480 ms at 150 ms intervals: about 3 rounds, the first only bootstraps; two servers that
      // both compacted each round would make twice as many.
      assert.ok(compactions.length >= 1 && compactions.length <= 3, `compactions: ${compactions.join(',')}`);
      assert.equal(new Set(compactions).size, compactions.length, 'no revision compacted twice');
    } finally {
      await Promise.all([stopA(), stopB(), a.close(), b.close()]);
    }
  });

  it('an interval of 0 disables the compactor', async () => {
    const stop = startCompactor({ backend: open(), intervalMs: 0 });
    await stop();
  });
});
