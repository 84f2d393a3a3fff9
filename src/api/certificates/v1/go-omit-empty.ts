// Generated from k8s.io/api certificates/v1 types.go as of kube 1.33: the members of each struct whose Go field
// is tagged omitempty and can be empty (go-omit-empty.ts says what each class drops). A
// definition listed without members has none; struct-typed members are never dropped, so not listed.
import type { APIModule } from '../../schema/api-module.js';
import type { GoOmitEmptyTables } from '../../schema/go-omit-empty.js';

const def = (name: string): string => `io.k8s.api.certificates.v1.${name}`;

const tables: GoOmitEmptyTables = {
  [def('CertificateSigningRequest')]: {},
  [def('CertificateSigningRequestCondition')]: { reason: 'zero', message: 'zero' },
  [def('CertificateSigningRequestList')]: {},
  [def('CertificateSigningRequestSpec')]: {
    expirationSeconds: 'nil',
    usages: 'empty',
    username: 'zero',
    uid: 'zero',
    groups: 'empty',
    extra: 'empty',
  },
  [def('CertificateSigningRequestStatus')]: { conditions: 'empty', certificate: 'zero' },
};

export const certificatesV1GoOmitEmptyModule: APIModule = { definitions: {}, goOmitEmpty: tables };
