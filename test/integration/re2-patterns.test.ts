// A CRD's OpenAPI `pattern` and its CEL matches() are Go RE2, over HTTP: RE2-only syntax is
// accepted and matched with RE2's meaning, ECMAScript-only syntax that RE2 refuses makes the CRD
// invalid with kube's message.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type InProcessServer } from './support/in-process-server.js';

const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

// RE2 syntax that ECMAScript lacks or reads otherwise, with a value it matches and one it does not.
const re2Only: { pattern: string; yes: string; no: string }[] = [
  { pattern: '^(?i)(abort|warn)?$', yes: 'WARN', no: 'warned' },
  { pattern: '^(?s)a.b$', yes: 'a\nb', no: 'ab' },
  { pattern: 'end\\z', yes: 'the end', no: 'the end\n' },
  { pattern: '^\\pL+$', yes: 'Grüße', no: 'gr8' },
  { pattern: '^[[:alpha:]]+$', yes: 'abc', no: 'a-c' },
  { pattern: '^\\Qa.b\\E$', yes: 'a.b', no: 'axb' },
];

// ECMAScript syntax RE2 refuses, with Go's error.
const refused: { pattern: string; error: string }[] = [
  { pattern: 'a(?=b)', error: 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`' },
  { pattern: '(a)\\1', error: 'error parsing regexp: invalid escape sequence: `\\1`' },
];

function crd(name: string, spec: Record<string, unknown>): unknown {
  const plural = `${name}s`;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.re2.example.com` },
    spec: {
      group: 're2.example.com',
      scope: 'Namespaced',
      names: { plural, singular: name, kind: `${name.slice(0, 1).toUpperCase()}${name.slice(1)}` },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec } } },
        },
      ],
    },
  };
}

const field = (i: number): string => `f${String(i)}`;

describe('RE2 patterns in CRDs', () => {
  let server: InProcessServer;
  before(async () => {
    server = await startInProcess((o) => {
      o.storage.backend = 'memory';
    });
    const properties: Record<string, { type: string; pattern?: string }> = Object.fromEntries(
      re2Only.map((c, i) => [field(i), { type: 'string', pattern: c.pattern }]),
    );
    const rules = re2Only.map((c, i) => ({
      rule: `!has(self.c${String(i)}) || self.c${String(i)}.matches(${JSON.stringify(c.pattern)})`,
    }));
    for (let i = 0; i < re2Only.length; i++) properties[`c${String(i)}`] = { type: 'string' };
    const created = await server.request(crdPath, {
      method: 'POST',
      body: crd('pattern', { type: 'object', properties, 'x-kubernetes-validations': rules }),
    });
    assert.equal(created.status, 201, created.body);
  });
  after(async () => {
    await server.stop();
  });

  const create = (spec: Record<string, string>): Promise<{ status: number; body: string }> =>
    server.request('/apis/re2.example.com/v1/namespaces/default/patterns', {
      method: 'POST',
      body: { apiVersion: 're2.example.com/v1', kind: 'Pattern', metadata: { generateName: 'p-' }, spec },
    });

  re2Only.forEach((c, i) => {
    it(`matches ${c.pattern} as RE2 does in an OpenAPI pattern`, async () => {
      const ok = await create({ [field(i)]: c.yes });
      assert.equal(ok.status, 201, ok.body);
      const bad = await create({ [field(i)]: c.no });
      assert.equal(bad.status, 422, bad.body);
      const status = JSON.parse(bad.body) as { details: { causes: unknown[] } };
      assert.deepEqual(status.details.causes, [
        {
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${JSON.stringify(c.no)}: spec.${field(i)} in body should match '${c.pattern}'`,
          field: `spec.${field(i)}`,
        },
      ]);
    });

    it(`matches ${c.pattern} as RE2 does in CEL matches()`, async () => {
      const ok = await create({ [`c${String(i)}`]: c.yes });
      assert.equal(ok.status, 201, ok.body);
      const bad = await create({ [`c${String(i)}`]: c.no });
      assert.equal(bad.status, 422, bad.body);
      const status = JSON.parse(bad.body) as { details: { causes: { message: string }[] } };
      assert.deepEqual(
        status.details.causes.map((cause) => cause.message),
        [`Invalid value: "object": failed rule: ${rulesText(i, c.pattern)}`],
      );
    });
  });

  for (const c of refused) {
    it(`refuses a CRD whose pattern is ${c.pattern}`, async () => {
      const res = await server.request(crdPath, {
        method: 'POST',
        body: crd('refusedpattern', {
          type: 'object',
          properties: { x: { type: 'string', pattern: c.pattern } },
        }),
      });
      assert.equal(res.status, 422, res.body);
      const status = JSON.parse(res.body) as { message: string };
      assert.equal(
        status.message,
        'CustomResourceDefinition.apiextensions.k8s.io "refusedpatterns.re2.example.com" is invalid: ' +
          `spec.validation.openAPIV3Schema.properties[spec].properties[x].pattern: Invalid value: ${JSON.stringify(c.pattern)}: ` +
          `must be a valid regular expression, but isn't: ${c.error}`,
      );
    });

    it(`refuses a CRD whose CEL matches() pattern is ${c.pattern}`, async () => {
      const rule = `self.x.matches(${JSON.stringify(c.pattern)})`;
      const res = await server.request(crdPath, {
        method: 'POST',
        body: crd('refusedrule', {
          type: 'object',
          properties: { x: { type: 'string' } },
          'x-kubernetes-validations': [{ rule }],
        }),
      });
      assert.equal(res.status, 422, res.body);
      const status = JSON.parse(res.body) as { details: { causes: { message: string }[] } };
      const message = status.details.causes[0]?.message ?? '';
      const column = 'self.x.matches('.length;
      assert.ok(
        message.endsWith(
          `compilation failed: ERROR: <input>:1:${String(column + 1)}: invalid matches argument\n` +
            ` | ${rule}\n | ${'.'.repeat(column)}^`,
        ),
        message,
      );
    });
  }
});

function rulesText(i: number, pattern: string): string {
  return `!has(self.c${String(i)}) || self.c${String(i)}.matches(${JSON.stringify(pattern)})`;
}
