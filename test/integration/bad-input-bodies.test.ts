// Generated bad bodies against one in-process server (issue 23): no answer of 500 or more, none
// missing, and no invalid object stored. Seed and count: BAD_INPUT_SEED, BAD_INPUT_RUNS.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import fc from 'fast-check';
import { bodyRequest, type Aim } from './support/bad-input/bodies.js';
import { invalidStored, prepare, report, runSettings, sendAll } from './support/bad-input/run.js';
import { startBadInputServer, type BadInputServer } from './support/bad-input/server.js';

let server: BadInputServer;
let aims: Aim[];
before(async () => {
  server = await startBadInputServer();
  aims = await prepare(server);
});
after(async () => {
  await server.stop();
});

it('answers every generated request below 500 and stores nothing invalid', async () => {
  const settings = runSettings('bad-input-bodies', 3400);
  const requests = fc.constantFrom(...aims).chain((aim) => bodyRequest(aim));
  const { failures, statuses } = await sendAll(server, requests, settings);
  console.log('statuses', JSON.stringify(Object.fromEntries(statuses)));
  const stored = await invalidStored(server);
  assert.equal(failures.length, 0, `seed ${settings.seed}:\n${report(failures)}`);
  assert.deepEqual(stored, []);
});
