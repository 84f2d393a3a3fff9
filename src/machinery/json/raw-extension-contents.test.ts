import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinScheme } from '../../api/builtin-scheme.js';
import { goJSONText } from './go-json-text.js';
import { rawExtensionContents } from './raw-extension-contents.js';

// Go writes a RawExtension's JSON as it was sent (runtime/extension.go), compacted; a JavaScript
// object lists index keys first, so "as sent" is the parsed object's own order, where every map of
// a Go struct has its keys sorted.
describe('RawExtension contents keep their order in Go JSON text', () => {
  const scheme = builtinScheme();
  const revision =
    '{"kind":"ControllerRevision","apiVersion":"apps/v1","metadata":{"name":"r","labels":{"b":"1","10":"2","9":"3"}},' +
    '"data":{"spec":{"z":1,"b":{"y":1,"10":2,"9":3,"a":"<x>"},"l":[{"q":{"2":0,"c":1}}]},"1":true},"revision":1}';
  const cases: { name: string; input: string; want: string }[] = [
    {
      name: 'a ControllerRevision: data as parsed (index keys first, then as sent), labels sorted',
      input: revision,
      want:
        '{"kind":"ControllerRevision","apiVersion":"apps/v1","metadata":{"name":"r","labels":{"10":"2","9":"3","b":"1"}},' +
        '"data":{"1":true,"spec":{"z":1,"b":{"9":3,"10":2,"y":1,"a":"\\u003cx\\u003e"},"l":[{"q":{"2":0,"c":1}}]}},"revision":1}',
    },
    {
      name: 'a typed list of them: each item’s data as parsed',
      input: `{"kind":"ControllerRevisionList","apiVersion":"apps/v1","metadata":{},"items":[${revision.replace('"kind":"ControllerRevision","apiVersion":"apps/v1",', '')}]}`,
      want:
        '{"kind":"ControllerRevisionList","apiVersion":"apps/v1","metadata":{},"items":[{"metadata":{"name":"r","labels":{"10":"2","9":"3","b":"1"}},' +
        '"data":{"1":true,"spec":{"z":1,"b":{"9":3,"10":2,"y":1,"a":"\\u003cx\\u003e"},"l":[{"q":{"2":0,"c":1}}]}},"revision":1}]}',
    },
    {
      name: 'a kind without RawExtensions: every map with index keys sorted',
      input: '{"kind":"ConfigMap","apiVersion":"v1","data":{"b":"1","10":"2","9":"3"}}',
      want: '{"kind":"ConfigMap","apiVersion":"v1","data":{"10":"2","9":"3","b":"1"}}',
    },
    {
      name: 'a watch event holding a built-in object: the object’s own RawExtensions kept, its maps sorted',
      input: `{"kind":"WatchEvent","apiVersion":"apps/v1","type":"ADDED","object":${revision}}`,
      want:
        '{"kind":"WatchEvent","apiVersion":"apps/v1","type":"ADDED","object":{"kind":"ControllerRevision","apiVersion":"apps/v1","metadata":{"name":"r","labels":{"10":"2","9":"3","b":"1"}},' +
        '"data":{"1":true,"spec":{"z":1,"b":{"9":3,"10":2,"y":1,"a":"\\u003cx\\u003e"},"l":[{"q":{"2":0,"c":1}}]}},"revision":1}}',
    },
    {
      name: 'an AdmissionReview: a built-in object’s RawExtensions kept, a custom resource’s maps sorted',
      input:
        `{"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","request":{"uid":"u","object":${revision},` +
        '"oldObject":{"apiVersion":"example.com/v1","kind":"Dial","spec":{"b":1,"10":2,"9":3}}}}',
      want:
        '{"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","request":{"uid":"u","object":{"kind":"ControllerRevision","apiVersion":"apps/v1",' +
        '"metadata":{"name":"r","labels":{"10":"2","9":"3","b":"1"}},' +
        '"data":{"1":true,"spec":{"z":1,"b":{"9":3,"10":2,"y":1,"a":"\\u003cx\\u003e"},"l":[{"q":{"2":0,"c":1}}]}},"revision":1},' +
        '"oldObject":{"apiVersion":"example.com/v1","kind":"Dial","spec":{"10":2,"9":3,"b":1}}}}',
    },
    {
      name: 'an object of no known kind: sorted as before',
      input: '{"kind":"Widget","apiVersion":"example.com/v1","data":{"b":"1","10":"2"}}',
      want: '{"kind":"Widget","apiVersion":"example.com/v1","data":{"10":"2","b":"1"}}',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const value: unknown = JSON.parse(c.input);
      assert.equal(goJSONText(value, false, scheme), c.want);
      // Pretty text, its line breaks and indents taken out (no string here holds them), is the same.
      const pretty = goJSONText(value, true, scheme);
      assert.equal(pretty.replace(/\n */g, '').replace(/": /g, '":'), c.want);
    });
  }

  it('finds the data of a ControllerRevision, of each list item, and nothing in a ConfigMap', () => {
    const obj = JSON.parse(revision) as { data: object };
    assert.deepEqual([...rawExtensionContents(scheme, obj)], [obj.data]);
    const list = { kind: 'ControllerRevisionList', apiVersion: 'apps/v1', items: [obj, { data: [1] }] };
    assert.equal(rawExtensionContents(scheme, list).size, 2);
    assert.equal(
      rawExtensionContents(scheme, { kind: 'ConfigMap', apiVersion: 'v1', data: { 1: 'a' } }).size,
      0,
    );
    assert.equal(rawExtensionContents(scheme, [obj]).size, 0);
  });
});
