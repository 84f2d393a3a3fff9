// The admission chain's order and its two ways of finishing: at once when every plugin did (no
// promise at all), or after the plugins that had to wait, each in turn.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newForbidden } from '../machinery/errors/index.js';
import { testContext } from '../registry/generic/testing/widgets.js';
import { AdmissionChain, type NamedHandler } from './chain.js';
import {
  handlesOnly,
  type AdmissionResult,
  type MutationInterface,
  type ValidationInterface,
  withLookup,
} from './interfaces.js';
import { attributesOf } from './testing/attributes.js';

const forbidden = (name: string): Error => newForbidden({ group: '', resource: 'pods' }, 'x', name);

/** A plugin that records its turn, and waits a turn of the microtask queue first when `waits`. */
function plugin(
  name: string,
  log: string[],
  opts: { waits?: boolean; refuses?: boolean } = {},
): NamedHandler {
  const step = (phase: string): AdmissionResult => {
    const run = (): void => {
      log.push(`${phase} ${name}`);
      if (opts.refuses === true) throw forbidden(name);
    };
    if (opts.waits !== true) {
      run();
      return undefined;
    }
    return Promise.resolve().then(run);
  };
  const both: MutationInterface & ValidationInterface = {
    handles: handlesOnly('CREATE'),
    admit: () => step('admit'),
    validate: () => step('validate'),
  };
  return { name, plugin: both };
}

describe('AdmissionChain', () => {
  const ctx = testContext();
  const a = attributesOf();

  it('runs plugins that finish at once without a promise, in order', () => {
    const log: string[] = [];
    const chain = new AdmissionChain([plugin('a', log), plugin('b', log), plugin('c', log)]);
    assert.equal(chain.admit(ctx, a), undefined);
    assert.equal(chain.validate(ctx, a), undefined);
    assert.deepEqual(log, ['admit a', 'admit b', 'admit c', 'validate a', 'validate b', 'validate c']);
  });

  it('goes on after a plugin that waits, and keeps the order', async () => {
    const log: string[] = [];
    const chain = new AdmissionChain([
      plugin('a', log),
      plugin('b', log, { waits: true }),
      plugin('c', log),
      plugin('d', log, { waits: true }),
      plugin('e', log),
    ]);
    const pending = chain.admit(ctx, a);
    assert.ok(pending instanceof Promise);
    // Only what ran before the first wait has run so far.
    assert.deepEqual(log, ['admit a']);
    await pending;
    assert.deepEqual(log, ['admit a', 'admit b', 'admit c', 'admit d', 'admit e']);
    log.length = 0;
    await chain.validate(ctx, a);
    assert.deepEqual(log, ['validate a', 'validate b', 'validate c', 'validate d', 'validate e']);
  });

  it('stops at the first refusal, thrown at once or after a wait', async () => {
    const log: string[] = [];
    const atOnce = new AdmissionChain([
      plugin('a', log),
      plugin('b', log, { refuses: true }),
      plugin('c', log),
    ]);
    assert.throws(() => atOnce.admit(ctx, a), /b/);
    assert.deepEqual(log, ['admit a', 'admit b']);
    log.length = 0;
    const later = new AdmissionChain([
      plugin('a', log, { waits: true }),
      plugin('b', log, { waits: true, refuses: true }),
      plugin('c', log),
    ]);
    await assert.rejects(async () => later.validate(ctx, a), /b/);
    assert.deepEqual(log, ['validate a', 'validate b']);
  });

  it('skips plugins that do not handle the operation', () => {
    const log: string[] = [];
    const onDelete: MutationInterface = {
      handles: handlesOnly('DELETE'),
      admit: () => {
        log.push('admit deletes');
        return undefined;
      },
    };
    const deletes: NamedHandler = { name: 'deletes', plugin: onDelete };
    const chain = new AdmissionChain([deletes, plugin('a', log)]);
    assert.equal(chain.admit(ctx, a), undefined);
    assert.deepEqual(log, ['admit a']);
  });
});

describe('withLookup', () => {
  it('uses a value found at once without a promise, and waits only for a lookup or a use that must', async () => {
    const seen: string[] = [];
    const read = (): Promise<string> => Promise.resolve('read');
    assert.equal(
      withLookup('now', read, (v) => seen.push(v)),
      undefined,
    );
    assert.deepEqual(seen, ['now']);
    const later = withLookup(undefined, read, (v) => seen.push(v));
    assert.ok(later instanceof Promise);
    assert.deepEqual(seen, ['now']);
    await later;
    assert.deepEqual(seen, ['now', 'read']);
    const waits = withLookup('now', read, () => Promise.resolve().then(() => seen.push('used')));
    assert.ok(waits instanceof Promise);
    await waits;
    assert.deepEqual(seen, ['now', 'read', 'used']);
  });
});
