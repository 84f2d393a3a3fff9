// Generated pods for the patch machinery's property tests, of the shape testing/pod-schema.ts
// describes. Small alphabets, so that pairs of pods share most of their items. No list repeats an
// element: the items of a repeated element are compared as a list, in list order.
import fc from 'fast-check';
import type { JSONObject } from '../json.js';

const name = fc.constantFrom('a', 'b', 'c');
const env = fc.record({ name, value: fc.constantFrom('1', '2') }, { requiredKeys: ['name'] });
const port = fc.record(
  {
    containerPort: fc.constantFrom(80, 81),
    protocol: fc.constantFrom('TCP', 'UDP'),
    name: fc.constantFrom('x', 'y'),
  },
  { requiredKeys: ['containerPort'] },
);
const container = fc.record(
  {
    name,
    image: fc.constantFrom('i', 'j'),
    args: fc.array(fc.constantFrom('--a', '--b'), { maxLength: 2 }),
    ports: fc.uniqueArray(port, {
      maxLength: 3,
      selector: (p) => `${p.containerPort}/${p.protocol ?? 'TCP'}`,
    }),
    env: fc.uniqueArray(env, { maxLength: 3, selector: (e) => e.name }),
  },
  { requiredKeys: ['name'] },
);
export const podArbitrary = fc.record({
  metadata: fc.record({
    name: fc.constant('p'),
    finalizers: fc.uniqueArray(fc.constantFrom('x', 'y', 'z'), { maxLength: 3 }),
  }),
  spec: fc.record({
    containers: fc.uniqueArray(container, { maxLength: 3, selector: (c) => c.name }),
    volumes: fc.uniqueArray(fc.record({ name, emptyDir: fc.constant({}) }), {
      maxLength: 2,
      selector: (v) => v.name,
    }),
  }),
}) as fc.Arbitrary<JSONObject>;
