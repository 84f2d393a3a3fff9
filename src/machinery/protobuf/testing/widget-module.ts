// A test kind with a field of every shape the protobuf decoder handles, on top of the built-in scheme.
import { newBuiltinScheme } from '../../../api/builtin-scheme.js';
import { LABEL_SELECTOR } from '../../../api/meta/v1/label-selector.js';
import { MICRO_TIME, OBJECT_META, TIME } from '../../../api/meta/v1/object-meta.js';
import { RAW_EXTENSION } from '../../../api/meta/v1/watch-event.js';
import type { Scheme } from '../../../api/scheme.js';
import type { APIModule } from '../../../api/schema/api-module.js';
import {
  arrayOf,
  bool,
  bytes,
  float64,
  int32,
  int64,
  mapOf,
  ref,
  str,
  struct,
} from '../../../api/schema/builders.js';
import { pointer } from '../../../api/schema/protobuf.js';
import { INT_OR_STRING, QUANTITY } from '../../../api/util/int-or-string.js';

export const WIDGET = 'io.capstan.test.v1.Widget';
export const PART = 'io.capstan.test.v1.Part';
export const widgetKind = { group: 'test.capstan.io', version: 'v1', kind: 'Widget' } as const;

export const widgetModule: APIModule = {
  definitions: {
    [WIDGET]: struct('A test kind.', {
      apiVersion: str(),
      kind: str(),
      metadata: ref(OBJECT_META),
      count: int32(),
      total: int64(),
      ratio: float64(),
      share: { type: 'number', format: 'float' },
      enabled: bool(),
      ports: arrayOf(int32()),
      names: arrayOf(str()),
      blob: bytes(),
      port: ref(INT_OR_STRING),
      limits: mapOf(ref(QUANTITY)),
      timeout: str('A metav1.Duration, which kube inlines as a string.'),
      renewTime: ref(MICRO_TIME),
      payload: ref(RAW_EXTENSION),
      parts: arrayOf(ref(PART)),
      partsByName: mapOf(ref(PART)),
      main: ref(PART),
      optionalName: str(),
      selector: ref(LABEL_SELECTOR),
      when: ref(TIME),
      maxUnavailable: ref(INT_OR_STRING),
    }),
    [PART]: struct('A part.', { name: str(), weight: int32() }, { required: ['name'] }),
  },
  kinds: [{ ...widgetKind, definition: WIDGET }],
  protobuf: {
    [WIDGET]: {
      metadata: 1,
      count: 2,
      total: 3,
      ratio: 4,
      share: 5,
      enabled: pointer(6),
      ports: 7,
      names: 8,
      blob: 9,
      port: 10,
      limits: 11,
      timeout: { field: 12, codec: 'duration' },
      renewTime: pointer(13),
      payload: 14,
      parts: 15,
      partsByName: 16,
      main: 17,
      optionalName: pointer(18),
      selector: pointer(19),
      when: 20,
      maxUnavailable: pointer(21),
    },
    [PART]: { name: 1, weight: 2 },
  },
};

export function widgetScheme(): Scheme {
  return newBuiltinScheme().register(widgetModule);
}
