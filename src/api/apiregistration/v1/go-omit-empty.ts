// Generated from k8s.io/kube-aggregator pkg/apis/apiregistration/v1 types.go as of kube 1.33: the members of each struct whose Go field
// is tagged omitempty and can be empty (go-omit-empty.ts says what each class drops). A
// definition listed without members has none; struct-typed members are never dropped, so not listed.
import type { APIModule } from '../../schema/api-module.js';
import type { GoOmitEmptyTables } from '../../schema/go-omit-empty.js';

const def = (name: string): string => `io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.${name}`;

const tables: GoOmitEmptyTables = {
  [def('APIService')]: {},
  [def('APIServiceCondition')]: { reason: 'zero', message: 'zero' },
  [def('APIServiceList')]: {},
  [def('APIServiceSpec')]: {
    service: 'nil',
    group: 'zero',
    version: 'zero',
    insecureSkipTLSVerify: 'zero',
    caBundle: 'zero',
  },
  [def('APIServiceStatus')]: { conditions: 'empty' },
  [def('ServiceReference')]: { namespace: 'zero', name: 'zero', port: 'nil' },
};

export const apiregistrationV1GoOmitEmptyModule: APIModule = { definitions: {}, goOmitEmpty: tables };
