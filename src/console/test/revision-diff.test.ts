import { it } from 'node:test';
import assert from 'node:assert/strict';
import { contextLines, defaultComparison, diffRevisions, revisionText } from '../revision-diff.js';

const pod = (stage: string, rv: string): Record<string, unknown> => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web',
    resourceVersion: rv,
    labels: { stage },
    managedFields: [{ manager: `m-${rv}`, operation: 'Update' }],
  },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
});

it('compares revisions without managedFields and resourceVersion, which every write changes', () => {
  const text = revisionText(pod('one', '7'));
  assert.doesNotMatch(text, /managedFields|resourceVersion|m-7/);
  assert.match(text, /^ {4}stage: one$/m);
  assert.equal(revisionText(pod('one', '7')), revisionText(pod('one', '8')));
  assert.equal(revisionText(null), '');
});

it('shows a changed line as removed then added, with the lines around it', () => {
  const lines = diffRevisions(revisionText(pod('one', '1')), revisionText(pod('two', '2')));
  const changed = lines.filter((l) => l.kind === 'add' || l.kind === 'del');
  assert.deepEqual(changed, [
    { kind: 'del', text: '    stage: one' },
    { kind: 'add', text: '    stage: two' },
  ]);
  const i = lines.findIndex((l) => l.kind === 'del');
  assert.deepEqual(lines[i - 1], { kind: 'ctx', text: '  labels:' });
  assert.deepEqual(lines[i + 2], { kind: 'ctx', text: 'spec:' });
});

it('folds unchanged runs longer than the context into one line saying how many', () => {
  const from = Array.from({ length: 20 }, (_, i) => `line${i}`);
  const to = from.map((l) => (l === 'line10' ? 'LINE10' : l));
  const lines = diffRevisions(`${from.join('\n')}\n`, `${to.join('\n')}\n`);
  assert.deepEqual(
    lines.map((l) => `${l.kind}:${l.text}`),
    [
      'fold:… 7 unchanged lines',
      ...[7, 8, 9].map((n) => `ctx:line${n}`),
      'del:line10',
      'add:LINE10',
      ...[11, 12, 13].map((n) => `ctx:line${n}`),
      'fold:… 6 unchanged lines',
    ],
  );
  assert.equal(contextLines, 3);
});

it('keeps a short unchanged run between two changes whole', () => {
  const lines = diffRevisions('a\nb\nc\nd\ne\n', 'A\nb\nc\nd\nE\n');
  assert.deepEqual(
    lines.map((l) => l.kind),
    ['del', 'add', 'ctx', 'ctx', 'ctx', 'del', 'add'],
  );
});

it('shows a creation as all added, a deletion as all removed, and no change as one folded line', () => {
  const text = revisionText(pod('one', '1'));
  const n = text.split('\n').length - 1;
  assert.deepEqual(new Set(diffRevisions('', text).map((l) => l.kind)), new Set(['add']));
  assert.equal(diffRevisions(text, '').filter((l) => l.kind === 'del').length, n);
  assert.deepEqual(diffRevisions(text, text), [{ kind: 'fold', text: `… ${n} unchanged lines` }]);
});

it('compares the newest revision with the one before when the tab opens', () => {
  assert.deepEqual(defaultComparison(5), { from: 3, to: 4 });
  assert.deepEqual(defaultComparison(1), { from: 0, to: 0 });
});
