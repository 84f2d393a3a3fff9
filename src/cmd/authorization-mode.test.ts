// --authorization-mode on the command line: kube's validation messages, exit code 1.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { main } from './capstan.js';
import { parseFlags } from './flag-set.js';
import { capstanFlags } from './flags.js';
import { recordingIO } from './testing/recording-io.js';
import { authorizationModesOf, defaultServerRunOptions } from '../server/options/server-run-options.js';

describe('--authorization-mode', () => {
  it('defaults to AlwaysAllow and takes an ordered, comma-separated list', () => {
    const o = defaultServerRunOptions();
    assert.deepEqual(authorizationModesOf(o), ['AlwaysAllow']);
    parseFlags(['--authorization-mode=RBAC,AlwaysDeny'], capstanFlags, o);
    assert.deepEqual(authorizationModesOf(o), ['RBAC', 'AlwaysDeny']);
  });

  it('exits 1 on an unknown or repeated mode', async () => {
    const t = recordingIO();
    assert.equal(
      await main(['--authorization-mode=RBAC,Magic,RBAC', '--data-dir=/tmp/capstan-unused'], t),
      1,
    );
    assert.deepEqual(t.err, [
      'Error: authorization-mode "Magic" is not a valid mode\n',
      'Error: authorization-mode ["RBAC" "Magic" "RBAC"] has mode specified more than once\n',
    ]);
  });
});
