// ServerRunOptions.checkSharing reaches the recent writes every watch cache of the server shares:
// what they hand to updates is frozen past metadata when it is on, and left alone when it is off.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { completeServerRunOptions } from './complete.js';
import { defaultServerRunOptions } from './server-run-options.js';

describe('checkSharing', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-check-sharing-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const handedOut = async (checkSharing: boolean): Promise<KubeObject> => {
    const o = defaultServerRunOptions();
    o.storage.backend = 'memory';
    o.storage.dataDir = dir;
    o.securePort = -1;
    o.insecurePort = 1;
    o.checkSharing = checkSharing;
    const completed = await completeServerRunOptions(o);
    return completed.recentWrites.handedOut({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c' },
      data: { k: 'v' },
    });
  };

  it('is off by default and freezes handed-out objects past metadata when on', async () => {
    assert.equal(defaultServerRunOptions().checkSharing, false);
    const off = await handedOut(false);
    assert.ok(!Object.isFrozen(off['data']));
    const on = await handedOut(true);
    assert.ok(Object.isFrozen(on['data']) && !Object.isFrozen(on.metadata));
  });
});
