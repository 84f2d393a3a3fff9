// YAML bodies read as sigs.k8s.io/yaml reads them into JSON.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { yamlToJSONText } from './yaml-body.js';

test('timestamps stay the strings written, microseconds and plain dates included', () => {
  const text = yamlToJSONText(
    Buffer.from('a: 2024-01-02T03:04:05.123456Z\nb: 2024-01-02\nc: 2024-01-02T03:04:05Z\nd: 0x10\ne: yes\n'),
  );
  assert.equal(
    text,
    '{"a":"2024-01-02T03:04:05.123456Z","b":"2024-01-02","c":"2024-01-02T03:04:05Z","d":16,"e":true}',
  );
});
