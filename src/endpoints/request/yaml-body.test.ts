// YAML bodies read as sigs.k8s.io/yaml reads them into JSON.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { YAMLSyntaxError, yamlToJSONText } from './yaml-body.js';

test('timestamps stay the strings written, microseconds and plain dates included', () => {
  const text = yamlToJSONText(
    Buffer.from('a: 2024-01-02T03:04:05.123456Z\nb: 2024-01-02\nc: 2024-01-02T03:04:05Z\nd: 0x10\ne: yes\n'),
  );
  assert.equal(
    text,
    '{"a":"2024-01-02T03:04:05.123456Z","b":"2024-01-02","c":"2024-01-02T03:04:05Z","d":16,"e":true}',
  );
});

const refused = (text: string, message: string): void => {
  assert.throws(
    () => yamlToJSONText(Buffer.from(text)),
    (err: unknown) => err instanceof YAMLSyntaxError && err.message === message,
  );
};

test('yamlToJSONText refuses alias bombs, unknown anchors and deep documents as syntax errors', () => {
  const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
  for (const [prev, next] of [
    ['a', 'b'],
    ['b', 'c'],
    ['c', 'd'],
    ['d', 'e'],
  ])
    bomb.push(`${next}: &${next} [${Array(10).fill(`*${prev}`).join(', ')}]`);
  refused(bomb.join('\n'), 'error converting YAML to JSON: yaml: document contains excessive aliasing');
  refused('a: &x 1\nb: *y\n', "error converting YAML to JSON: yaml: unknown anchor 'y' referenced");
  // Flow collections deeper than the parser's stack allows are refused before it runs.
  for (const depth of [301, 1001, 100_000])
    refused(
      `a: ${'['.repeat(depth)}${']'.repeat(depth)}`,
      'error converting YAML to JSON: yaml: exceeded max depth of 300',
    );
  assert.equal(yamlToJSONText(Buffer.from(`${'['.repeat(300)}${']'.repeat(300)}`)).length, 600);
  // Brackets in quotes and comments do not nest.
  const quoted = `a: "${'['.repeat(400)}"\nb: '${'{'.repeat(400)}'\n# ${'['.repeat(400)}\n`;
  assert.equal(yamlToJSONText(Buffer.from(quoted)).length, 815);
  assert.equal(yamlToJSONText(Buffer.from('a: &x 1\nb: *x\n')), '{"a":1,"b":1}');
});
