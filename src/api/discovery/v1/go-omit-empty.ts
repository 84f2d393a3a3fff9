// Generated from k8s.io/api discovery/v1 types.go as of kube 1.33: the members of each struct whose Go field
// is tagged omitempty and can be empty (go-omit-empty.ts says what each class drops). A
// definition listed without members has none; struct-typed members are never dropped, so not listed.
import type { APIModule } from '../../schema/api-module.js';
import type { GoOmitEmptyTables } from '../../schema/go-omit-empty.js';

const def = (name: string): string => `io.k8s.api.discovery.v1.${name}`;

const tables: GoOmitEmptyTables = {
  [def('Endpoint')]: {
    hostname: 'nil',
    targetRef: 'nil',
    deprecatedTopology: 'empty',
    nodeName: 'nil',
    zone: 'nil',
    hints: 'nil',
  },
  [def('EndpointConditions')]: { ready: 'nil', serving: 'nil', terminating: 'nil' },
  [def('EndpointHints')]: { forZones: 'empty', forNodes: 'empty' },
  [def('EndpointPort')]: { name: 'nil', protocol: 'nil', port: 'nil', appProtocol: 'nil' },
  [def('EndpointSlice')]: {},
  [def('EndpointSliceList')]: {},
  [def('ForNode')]: {},
  [def('ForZone')]: {},
};

export const discoveryV1GoOmitEmptyModule: APIModule = { definitions: {}, goOmitEmpty: tables };
