// intstr.IntOrString and resource.Quantity: scalar types with their own JSON forms.
import type { APIModule } from '../schema/api-module.js';
import { intstrDef, resourceDef } from '../schema/api-module.js';

export const INT_OR_STRING = intstrDef('IntOrString');
export const QUANTITY = resourceDef('Quantity');

/** A port number or a port name, a count or a percentage. */
export type IntOrString = number | string;

/** A decimal or binary-SI quantity such as `100m`, `1Gi`, `2.5`. */
export type Quantity = string;

export const utilModule: APIModule = {
  definitions: {
    [INT_OR_STRING]: {
      description: 'Either an integer or a string; the JSON form tells which.',
      type: 'string',
      format: 'int-or-string',
      'x-kubernetes-int-or-string': true,
    },
    [QUANTITY]: {
      description:
        'A fixed-point number with an optional suffix: a binary SI suffix (Ki, Mi, Gi…), a decimal one (m, k, M, G…) or an exponent (e3).',
      type: 'string',
    },
  },
  protobuf: { [INT_OR_STRING]: 'intOrString', [QUANTITY]: 'quantity' },
};
