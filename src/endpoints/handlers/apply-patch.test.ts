// Apply bodies are YAML; a JSON body is read by JSON.parse where that gives what the YAML parser
// gives, and by the YAML parser otherwise. Each case here is prepared twice, once as sent and once
// with a leading comment line (which only the YAML parser takes), and both must agree.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isStatusError } from '../../machinery/errors/index.js';
import { builtinScheme } from '../../api/builtin-scheme.js';
import { FieldManagers } from '../fieldmanager/field-managers.js';
import { applyPatchMechanism } from './apply-patch.js';
import type { FieldValidation } from '../../registry/rest/options.js';

const mechanism = applyPatchMechanism(new FieldManagers(builtinScheme()));

function prepare(
  body: string,
  fieldValidation: FieldValidation,
): { config?: unknown; error?: string; warnings: string[] } {
  const warnings: string[] = [];
  const context = {
    kind: { group: '', version: 'v1', kind: 'ConfigMap' },
    subresource: '',
    fieldManager: 'test',
    force: false,
    addWarning: (m: string) => {
      warnings.push(m);
    },
  };
  try {
    const prepared = mechanism.prepare({ patch: Buffer.from(body), fieldValidation, context }) as {
      config: unknown;
    };
    return { config: prepared.config, warnings };
  } catch (err) {
    if (!isStatusError(err)) throw err;
    return { error: err.message, warnings };
  }
}

const bodies: readonly string[] = [
  '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","labels":{"a":"1"}},"data":{"k":"v"}}',
  ' \n {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"n":"1e3","s":"a\\"b\\\\c\\u00e9"}}',
  '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"k":"v","k":"w"}}',
  '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","name":"d"}}',
  '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"x":{"big":1e400}}',
  '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"x":[1,2.5,-0,1e3,true,null,{}]}',
  `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"${'k'.repeat(1100)}":"v"}}`,
  '{"apiVersion":"v1",\t"kind":"ConfigMap","metadata":{"name":"c"}}',
  '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"__proto__":"x"}}',
  '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}',
  '[]',
];

describe('apply bodies in JSON', () => {
  for (const body of bodies) {
    for (const fieldValidation of ['Strict', 'Warn', 'Ignore'] as const) {
      it(`${fieldValidation}: ${body.slice(0, 90)}`, () => {
        const got = prepare(body, fieldValidation);
        const viaYAML = prepare(`# a comment\n${body}`, fieldValidation);
        assert.equal(JSON.stringify(got.config), JSON.stringify(viaYAML.config));
        // The YAML parser's line numbers count the comment line.
        const shift = (s: string | undefined): string | undefined =>
          s?.replace(/line (\d+)/g, (_, n: string) => `line ${Number(n) + 1}`);
        assert.equal(shift(got.error), viaYAML.error);
        assert.deepEqual(got.warnings.map(shift), viaYAML.warnings);
      });
    }
  }

  it('reads a plain JSON object as it is', () => {
    assert.deepEqual(prepare(bodies[0] ?? '', 'Strict').config, JSON.parse(bodies[0] ?? ''));
  });

  it('reports a repeated key as the YAML decoder does', () => {
    const strict = prepare(bodies[2] ?? '', 'Strict');
    assert.match(
      strict.error ?? '',
      /^error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n {2}line 1: /,
    );
    assert.equal(prepare(bodies[2] ?? '', 'Warn').warnings.length, 1);
  });
});

describe('apply configurations of a bad shape', () => {
  it('refuses a metadata that is not a map with 400, in JSON and in YAML', () => {
    const want = '.metadata accessor error: -leading is of the type string, expected map[string]interface{}';
    assert.equal(
      prepare('{"apiVersion":"v1","kind":"ConfigMap","metadata":"-leading"}', 'Strict').error,
      want,
    );
    assert.equal(prepare('apiVersion: v1\nkind: ConfigMap\nmetadata: -leading\n', 'Strict').error, want);
  });

  it('refuses a configuration nested deeper than the decode limit', () => {
    const deep = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"x":${'['.repeat(1001)}${']'.repeat(1001)}}`;
    assert.equal(prepare(deep, 'Strict').error, 'error decoding YAML: yaml: exceeded max depth of 1000');
  });

  it('takes a configuration nested exactly to the limit', () => {
    const nested = (n: number): string => `${'['.repeat(n)}${']'.repeat(n)}`;
    const atLimit = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"x":${nested(999)}}`;
    assert.equal(prepare(atLimit, 'Strict').error, undefined);
  });

  it('refuses a deep configuration that JSON.parse reads otherwise than YAML before its depth', () => {
    // 1e999 is Infinity to JSON.parse: the count stops there and the YAML parser reads the body.
    const deep = `{"apiVersion":"v1","kind":"ConfigMap","n":1e999,"x":${'['.repeat(1001)}${']'.repeat(1001)}}`;
    assert.equal(prepare(deep, 'Strict').error, 'error decoding YAML: yaml: exceeded max depth of 1000');
  });
});
