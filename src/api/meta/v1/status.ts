// meta/v1 Status, StatusDetails, StatusCause (interfaces in src/api/meta.ts).
import type { APIModule } from '../../schema/api-module.js';
import { metaV1 } from '../../schema/api-module.js';
import { atomicList, int32, ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LIST_META } from './list-meta.js';

export const STATUS = metaV1('Status');
export const STATUS_DETAILS = metaV1('StatusDetails');
export const STATUS_CAUSE = metaV1('StatusCause');

export const statusModule: APIModule = {
  definitions: {
    [STATUS]: struct('Result of a call that does not return an object.', {
      apiVersion: str('Versioned schema of this representation.'),
      code: int32('HTTP status code of the result.'),
      details: ref(STATUS_DETAILS, 'Extra data about the failure, shaped by the reason.'),
      kind: str('REST resource this object represents.'),
      message: str('Human-readable description of the result.'),
      metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      reason: str('Machine-readable reason for a failure; empty when none applies.'),
      status: str('"Success" or "Failure".'),
    }),
    [STATUS_DETAILS]: struct('What a failure was about: the object and the individual causes.', {
      causes: atomicList(ref(STATUS_CAUSE), 'Individual problems behind the failure.'),
      group: str('Group of the resource the failure concerns.'),
      kind: str('Kind of the resource the failure concerns.'),
      name: str('Name of the resource the failure concerns.'),
      retryAfterSeconds: int32('Seconds the client should wait before retrying.'),
      uid: str('UID of the resource the failure concerns.'),
    }),
    [STATUS_CAUSE]: struct('One problem behind a failure, possibly tied to a field.', {
      field: str('Path of the field at fault, in JSON path form.'),
      message: str('Human-readable description of the problem.'),
      reason: str('Machine-readable description of the problem.'),
    }),
  },
  kinds: [{ group: '', version: 'v1', kind: 'Status', definition: STATUS }],
  goTypes: {
    [STATUS_DETAILS]: { uid: 'types.UID' },
    [STATUS_CAUSE]: { reason: 'v1.CauseType' },
    [STATUS]: { reason: 'v1.StatusReason' },
  },
  protobuf: {
    [STATUS]: { metadata: 1, status: 2, message: 3, reason: 4, details: pointer(5), code: 6 },
    [STATUS_DETAILS]: { name: 1, group: 2, kind: 3, uid: 6, causes: 4, retryAfterSeconds: 5 },
    // The Go field behind JSON `reason` is StatusCause.Type.
    [STATUS_CAUSE]: { reason: { field: 1, goName: 'Type' }, message: 2, field: 3 },
  },
};
