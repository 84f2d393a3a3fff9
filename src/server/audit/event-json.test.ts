import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditEventJSON } from './event-json.js';
import type { AuditEvent } from './types.js';

const base: AuditEvent = {
  kind: 'Event',
  apiVersion: 'audit.k8s.io/v1',
  level: 'Metadata',
  auditID: 'a1',
  stage: 'ResponseComplete',
  requestURI: '/api/v1/pods?limit=500&watch=true',
  verb: 'list',
  user: { username: 'jane', groups: ['system:authenticated'] },
  sourceIPs: ['127.0.0.1'],
  requestReceivedTimestamp: '2026-01-02T03:04:05.000006Z',
  stageTimestamp: '2026-01-02T03:04:05.000007Z',
};
const head =
  '{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"a1","stage":"ResponseComplete",';
const times =
  '"requestReceivedTimestamp":"2026-01-02T03:04:05.000006Z","stageTimestamp":"2026-01-02T03:04:05.000007Z"';

// The bytes kube's JSON serializer writes for audit.k8s.io/v1 Event (encoding/json of
// k8s.io/apiserver/pkg/apis/audit/v1 types.go): struct order, omitempty, maps sorted, HTML escaped.
describe('auditEventJSON', () => {
  const cases: { name: string; event: AuditEvent; want: string }[] = [
    {
      name: 'the request URI with & escaped as Go escapes it; user members in UserInfo order',
      event: base,
      want: `${head}"requestURI":"/api/v1/pods?limit=500\\u0026watch=true","verb":"list","user":{"username":"jane","groups":["system:authenticated"]},"sourceIPs":["127.0.0.1"],${times}}`,
    },
    {
      name: 'user members set in another order, extra and annotations sorted as Go maps, empty ones left out',
      event: {
        ...base,
        requestURI: '/api/v1/namespaces/default/pods/p',
        verb: 'get',
        user: {
          extra: { 'b.example/x': ['2'], 'a.example/y': ['1'] },
          groups: ['g'],
          uid: 'u',
          username: 'system:serviceaccount:default:sa',
        },
        impersonatedUser: { username: 'jane', uid: '', groups: [] },
        sourceIPs: [],
        userAgent: '',
        objectRef: {
          subresource: '',
          apiVersion: 'v1',
          name: 'p',
          namespace: 'default',
          resource: 'pods',
          apiGroup: '',
        },
        annotations: { 'z.k8s.io/b': '2', 'authorization.k8s.io/decision': 'allow', '10': 'x', '9': 'y' },
      },
      want:
        `${head}"requestURI":"/api/v1/namespaces/default/pods/p","verb":"get",` +
        '"user":{"username":"system:serviceaccount:default:sa","uid":"u","groups":["g"],"extra":{"a.example/y":["1"],"b.example/x":["2"]}},' +
        '"impersonatedUser":{"username":"jane"},' +
        '"objectRef":{"resource":"pods","namespace":"default","name":"p","apiVersion":"v1"},' +
        `${times},"annotations":{"10":"x","9":"y","authorization.k8s.io/decision":"allow","z.k8s.io/b":"2"}}`,
    },
    {
      name: 'responseStatus as metav1.Status without TypeMeta: details in StatusDetails order, a code of 0 left out',
      event: {
        ...base,
        user: {},
        responseStatus: {
          code: 0,
          details: { causes: [{ field: 'f', message: 'm', reason: 'r' }], kind: 'pods', name: 'p' },
          reason: 'NotFound',
          message: 'pods "p" not found',
          status: 'Failure',
          metadata: {},
        },
      },
      want:
        `${head}"requestURI":"/api/v1/pods?limit=500\\u0026watch=true","verb":"list","user":{},"sourceIPs":["127.0.0.1"],` +
        '"responseStatus":{"metadata":{},"status":"Failure","message":"pods \\"p\\" not found","reason":"NotFound",' +
        `"details":{"name":"p","kind":"pods","causes":[{"reason":"r","message":"m","field":"f"}]}},${times}}`,
    },
    {
      name: 'request and response objects as given, a ControllerRevision’s data kept, its labels sorted',
      event: {
        ...base,
        level: 'RequestResponse',
        requestObject: { data: { b: '<1>', '10': 'x', '9': 'y' } },
        responseObject: JSON.parse(
          '{"kind":"ControllerRevision","apiVersion":"apps/v1","metadata":{"name":"r","labels":{"b":"1","10":"2"}},"data":{"y":1,"10":2,"9":3},"revision":1}',
        ) as unknown,
        responseStatus: { metadata: {}, code: 200 },
      },
      want:
        '{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"RequestResponse","auditID":"a1","stage":"ResponseComplete",' +
        '"requestURI":"/api/v1/pods?limit=500\\u0026watch=true","verb":"list","user":{"username":"jane","groups":["system:authenticated"]},' +
        '"sourceIPs":["127.0.0.1"],"responseStatus":{"metadata":{},"code":200},' +
        '"requestObject":{"data":{"10":"x","9":"y","b":"\\u003c1\\u003e"}},' +
        '"responseObject":{"kind":"ControllerRevision","apiVersion":"apps/v1","metadata":{"name":"r","labels":{"10":"2","b":"1"}},"data":{"9":3,"10":2,"y":1},"revision":1},' +
        `${times}}`,
    },
    {
      name: 'a patch logged as its bytes: written as it was compacted, in requestObject’s place',
      event: {
        ...base,
        level: 'Request',
        rawRequestObject: '{"data":{"9":"y","10":"x","n":1.50,"h":"\\u003c"}}',
        responseStatus: { metadata: {}, code: 200 },
      },
      want:
        '{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Request","auditID":"a1","stage":"ResponseComplete",' +
        '"requestURI":"/api/v1/pods?limit=500\\u0026watch=true","verb":"list","user":{"username":"jane","groups":["system:authenticated"]},' +
        '"sourceIPs":["127.0.0.1"],"responseStatus":{"metadata":{},"code":200},' +
        '"requestObject":{"data":{"9":"y","10":"x","n":1.50,"h":"\\u003c"}},' +
        `${times}}`,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(auditEventJSON(c.event), c.want);
    });
  }

  it('writes extra keys named like Object.prototype members (__proto__, constructor) as any other key', () => {
    // JSON.parse makes __proto__ an own member, as an impersonation header's key would be.
    const extra = JSON.parse('{"constructor":["c"],"__proto__":["p"]}') as Record<string, string[]>;
    const text = auditEventJSON({ ...base, user: { username: 'jane', extra } });
    assert.match(text, /"user":\{"username":"jane","extra":\{"__proto__":\["p"\],"constructor":\["c"\]\}\}/);
  });
});
