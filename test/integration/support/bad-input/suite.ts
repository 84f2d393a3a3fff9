// One bad-input test file: a server of its own, the fixtures, `runs` generated requests of one
// family aimed at some kinds, then the stored objects checked.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import fc from 'fast-check';
import type { Aim } from './bodies.js';
import { invalidStored, prepare, report, runSettings, sendAll } from './run.js';
import { startBadInputServer, type BadInputServer, type BadRequest } from './server.js';

export interface SuiteOptions {
  readonly name: string;
  readonly kinds: readonly string[];
  readonly requests: (aim: Aim) => fc.Arbitrary<BadRequest>;
  /** Sized so that each file stays under 20 s on one idle core. */
  readonly defaultRuns: number;
}

export function badInputSuite(opts: SuiteOptions): void {
  let server: BadInputServer;
  let aims: Aim[];
  before(async () => {
    server = await startBadInputServer();
    aims = (await prepare(server)).filter((a) => opts.kinds.includes(a.target.kind));
  });
  after(async () => {
    await server.stop();
  });

  it(`answers every generated request (${opts.kinds.join(', ')}) below 500 and stores nothing invalid`, async () => {
    const settings = runSettings(opts.name, opts.defaultRuns);
    const requests = fc.constantFrom(...aims).chain(opts.requests);
    const { failures, statuses } = await sendAll(server, requests, settings);
    console.log(`${opts.name}: statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    const stored = await invalidStored(server);
    assert.equal(failures.length, 0, `seed ${settings.seed}:\n${report(failures)}`);
    assert.deepEqual(stored, []);
  });
}
