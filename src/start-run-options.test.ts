import { it } from 'node:test';
import assert from 'node:assert/strict';
import { consoleEnabled } from './server/console/console-options.js';
import { startRunOptions } from './start-run-options.js';

it('serves the console as the CLI does: on for the embedded store, off for etcd3, console decides', () => {
  const on = (opts: Parameters<typeof startRunOptions>[0]): boolean =>
    consoleEnabled(startRunOptions(opts, '/tmp/unused'));
  assert.equal(on({}), true);
  assert.equal(on({ storage: 'sqlite' }), true);
  assert.equal(on({ console: false }), false);
  assert.equal(on({ storage: 'etcd3', etcdServers: ['http://127.0.0.1:2379'] }), false);
  assert.equal(on({ storage: 'etcd3', console: true }), true);
});
