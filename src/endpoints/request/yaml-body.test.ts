import assert from 'node:assert/strict';
import { test } from 'node:test';
import { YAMLSyntaxError, yamlToJSONText } from './yaml-body.js';

const refused = (text: string, message: string): void => {
  assert.throws(
    () => yamlToJSONText(Buffer.from(text)),
    (err: unknown) => err instanceof YAMLSyntaxError && err.message === message,
  );
};

test('yamlToJSONText refuses alias bombs, unknown anchors and deep documents as syntax errors', () => {
  const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
  for (const [prev, next] of [['a', 'b'], ['b', 'c'], ['c', 'd'], ['d', 'e']])
    bomb.push(`${next}: &${next} [${Array(10).fill(`*${prev}`).join(', ')}]`);
  refused(bomb.join('\n'), 'error converting YAML to JSON: yaml: document contains excessive aliasing');
  refused('a: &x 1\nb: *y\n', "error converting YAML to JSON: yaml: unknown anchor 'y' referenced");
  // Flow collections deeper than the parser's stack allows are refused before it runs.
  for (const depth of [301, 1001, 100_000])
    refused(`a: ${'['.repeat(depth)}${']'.repeat(depth)}`, 'error converting YAML to JSON: yaml: exceeded max depth of 300');
  assert.equal(yamlToJSONText(Buffer.from(`${'['.repeat(300)}${']'.repeat(300)}`)).length, 600);
  // Brackets in quotes and comments do not nest.
  const quoted = `a: "${'['.repeat(400)}"\nb: '${'{'.repeat(400)}'\n# ${'['.repeat(400)}\n`;
  assert.equal(yamlToJSONText(Buffer.from(quoted)).length, 815);
  assert.equal(yamlToJSONText(Buffer.from('a: &x 1\nb: *x\n')), '{"a":1,"b":1}');
});
