import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseCsv } from './csv.js';
import { tempDirs } from '../testing/temp-dirs.js';
import { loadTokenFile } from './token-auth.js';

describe('token auth file', () => {
  const tokenDir = tempDirs('capstan-tokens-');

  it('reads CSV as Go does: quoted groups, blank lines skipped', () => {
    assert.deepEqual(parseCsv('t1,alice,1,"dev,ops"\n\nt2,bob,2\r\n"t""3",carol,3'), [
      ['t1', 'alice', '1', 'dev,ops'],
      ['t2', 'bob', '2'],
      ['t"3', 'carol', '3'],
    ]);
  });

  it('maps tokens to users with their groups', async () => {
    const dir = await tokenDir();
    const path = join(dir, 'tokens.csv');
    await writeFile(path, 'secret,alice,u1,"system:masters,dev"\nother,bob,u2\n');
    const tokens = await loadTokenFile(path);
    assert.deepEqual(tokens.get('secret'), { name: 'alice', uid: 'u1', groups: ['system:masters', 'dev'] });
    assert.deepEqual(tokens.get('other'), { name: 'bob', uid: 'u2', groups: [] });
  });

  it('refuses a record with fewer than three columns, in kube words', async () => {
    const dir = await tokenDir();
    const path = join(dir, 'tokens.csv');
    await writeFile(path, 'secret,alice\n');
    await assert.rejects(loadTokenFile(path), {
      message: `token file '${path}' must have at least 3 columns (token, user name, user uid), found 2`,
    });
  });
});
