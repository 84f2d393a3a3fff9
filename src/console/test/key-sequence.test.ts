import { it } from 'node:test';
import assert from 'node:assert/strict';
import { keyStep, moveSelection } from '../key-sequence.js';

const bindings = ['j', 'k', 'Enter', '/', 'g r', 'g e'];

/** The bindings a run of keys fires, in order. */
function press(keys: readonly string[]): string[] {
  let prefix = '';
  const fired: string[] = [];
  for (const key of keys) {
    const step = keyStep(bindings, prefix, key);
    prefix = step.prefix;
    if (step.binding !== undefined) fired.push(step.binding);
  }
  return fired;
}

it('fires single keys and two-key sequences', () => {
  assert.deepEqual(press(['j', 'j', 'k', 'Enter']), ['j', 'j', 'k', 'Enter']);
  assert.deepEqual(press(['g', 'r']), ['g r']);
  assert.deepEqual(press(['g', 'e', 'j']), ['g e', 'j']);
  assert.deepEqual(keyStep(bindings, '', 'g'), { prefix: 'g' });
});

it('drops a sequence that goes wrong, and an unbound key does nothing', () => {
  assert.deepEqual(press(['g', 'x', 'r']), []);
  assert.deepEqual(press(['g', 'j']), []);
  assert.deepEqual(press(['q', 'r', 'j']), ['j']);
  assert.deepEqual(keyStep(bindings, 'g', 'x'), { prefix: '' });
});

it('a second g restarts the sequence', () => {
  assert.deepEqual(press(['g', 'g', 'r']), ['g r']);
});

it('moves the selection within the rows, starting from none', () => {
  assert.equal(moveSelection(-1, 1, 3), 0);
  assert.equal(moveSelection(0, 1, 3), 1);
  assert.equal(moveSelection(2, 1, 3), 2);
  assert.equal(moveSelection(-1, -1, 3), 0);
  assert.equal(moveSelection(0, -1, 3), 0);
  assert.equal(moveSelection(5, -1, 3), 2, 'rows removed by a watch: back inside the list');
  assert.equal(moveSelection(1, 1, 0), -1);
});
