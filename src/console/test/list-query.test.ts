import { it } from 'node:test';
import assert from 'node:assert/strict';
import { listAndWatchPaths, selectorQuery, withChanges } from '../list-query.js';

it('sends the label and field selector inputs as the API parameters, blanks left out', () => {
  const q = new URLSearchParams({ ns: 'default', l: ' app=web,tier in (a,b) ', f: 'status.phase!=Running' });
  assert.equal(
    selectorQuery(q),
    'labelSelector=app%3Dweb%2Ctier+in+%28a%2Cb%29&fieldSelector=status.phase%21%3DRunning',
  );
  const back = new URLSearchParams(selectorQuery(q));
  assert.equal(back.get('labelSelector'), 'app=web,tier in (a,b)');
  assert.equal(back.get('fieldSelector'), 'status.phase!=Running');
  assert.equal(selectorQuery(new URLSearchParams({ ns: 'x', l: '  ', f: '' })), '');
});

it('changes the page query: a value set, a blank one removed, the rest kept', () => {
  const q = new URLSearchParams({ ns: 'default', l: 'app=web' });
  const next = withChanges(q, { l: ' ', f: 'metadata.name=web-1 ' });
  assert.equal(next.toString(), 'ns=default&f=metadata.name%3Dweb-1');
  assert.equal(q.toString(), 'ns=default&l=app%3Dweb', 'the query it started from is left alone');
});

it('lists then watches from the list resourceVersion with the same selectors', () => {
  const p = listAndWatchPaths('/api/v1/pods', 'labelSelector=app%3Dweb');
  assert.equal(p.list, '/api/v1/pods?labelSelector=app%3Dweb');
  assert.equal(
    p.watch('42'),
    '/api/v1/pods?labelSelector=app%3Dweb&watch=1&resourceVersion=42&allowWatchBookmarks=true',
  );
  const bare = listAndWatchPaths('/api/v1/pods', '');
  assert.equal(bare.list, '/api/v1/pods');
  assert.equal(bare.watch('7'), '/api/v1/pods?watch=1&resourceVersion=7&allowWatchBookmarks=true');
});
