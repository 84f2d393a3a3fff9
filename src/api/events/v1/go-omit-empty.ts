// Generated from k8s.io/api events/v1 types.go as of kube 1.33: the members of each struct whose Go field
// is tagged omitempty and can be empty (go-omit-empty.ts says what each class drops). A
// definition listed without members has none; struct-typed members are never dropped, so not listed.
import type { APIModule } from '../../schema/api-module.js';
import type { GoOmitEmptyTables } from '../../schema/go-omit-empty.js';

const def = (name: string): string => `io.k8s.api.events.v1.${name}`;

const tables: GoOmitEmptyTables = {
  [def('Event')]: {
    series: 'nil',
    reportingController: 'zero',
    reportingInstance: 'zero',
    action: 'zero',
    reason: 'zero',
    related: 'nil',
    note: 'zero',
    type: 'zero',
    deprecatedCount: 'zero',
  },
  [def('EventList')]: {},
  [def('EventSeries')]: {},
};

export const eventsV1GoOmitEmptyModule: APIModule = { definitions: {}, goOmitEmpty: tables };
