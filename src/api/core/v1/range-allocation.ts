// core/v1 RangeAllocation: the bitmap of allocated service IPs or node ports, kept under
// /ranges/serviceips and /ranges/servicenodeports. Never served; stored only.
import type { KubeObject, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { coreV1, coreV1Kind } from '../../schema/api-module.js';
import { bytes, ref, str, struct } from '../../schema/builders.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';

export interface RangeAllocation extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'RangeAllocation';
  metadata?: ObjectMeta;
  /** The range the bitmap covers: a CIDR, or `30000-32767` for node ports. */
  range: string;
  /** The bitmap as Go's big.Int.Bytes(), base64 on the wire. */
  data: string;
}

export const rangeAllocationKind = coreV1Kind('RangeAllocation');

export const rangeAllocationModule: APIModule = {
  definitions: {
    [coreV1('RangeAllocation')]: struct(
      'A range and the allocations in it.',
      {
        apiVersion: str('Versioned schema of this representation.'),
        data: bytes('A bit array of the allocations in the range.'),
        kind: str('REST resource this object represents.'),
        metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
        range: str('The range covered by the allocations.', { default: '' }),
      },
      { required: ['range', 'data'] },
    ),
  },
  kinds: [rangeAllocationKind],
  protobuf: { [coreV1('RangeAllocation')]: { metadata: 1, range: 2, data: 3 } },
};
