// API Priority and Fairness' per-request classification (src/server/flowcontrol/classifier.ts) over
// kube's bootstrap configuration: CPU time per classified request for requests that match early
// (system:masters), late (a service account, anonymous) or on a subresource rule, against the
// RequestInfo parsing every request already pays, measured in the same run.
import { RequestClassifier } from '../src/server/flowcontrol/classifier.js';
import {
  mandatoryFlowSchemas,
  mandatoryPriorityLevels,
  suggestedFlowSchemas,
  suggestedPriorityLevels,
} from '../src/server/flowcontrol/bootstrap-configuration.js';
import { requestInfoFor } from '../src/endpoints/request/request-info.js';
import { parseRequestURL } from '../src/endpoints/request/request-url.js';
import type { HttpRequest } from '../src/server/http/types.js';
import { printTable, type Row } from './support.js';

const iterations = 1_000_000;

/** CPU nanoseconds per call of `op` (user + system), after a warm-up. */
function cpuMicrosPer(op: () => unknown): number {
  for (let i = 0; i < 50_000; i++) op();
  const start = process.cpuUsage();
  for (let i = 0; i < iterations; i++) op();
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / iterations;
}

const cases = [
  {
    what: 'system:masters, list pods (exempt, 1st schema)',
    user: { name: 'admin', groups: ['system:masters', 'system:authenticated'] },
    method: 'GET',
    path: '/api/v1/namespaces/default/pods',
  },
  {
    what: 'service account, get configmap (service-accounts, 11th)',
    user: {
      name: 'system:serviceaccount:default:robot',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
    },
    method: 'GET',
    path: '/api/v1/namespaces/default/configmaps/c',
  },
  {
    what: 'node, patch nodes/status (system-node-high)',
    user: { name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] },
    method: 'PATCH',
    path: '/api/v1/nodes/n1/status',
  },
  {
    what: 'anonymous, GET /version (global-default, 12th)',
    user: { name: 'system:anonymous', groups: ['system:unauthenticated'] },
    method: 'GET',
    path: '/version',
  },
] as const;

export function run(): Promise<void> {
  const stamp = <T extends { metadata?: object }>(o: T, i: number): T => ({
    ...o,
    metadata: { ...o.metadata, uid: `uid-${String(i)}` },
  });
  const classifier = new RequestClassifier(
    [...mandatoryFlowSchemas, ...suggestedFlowSchemas].map(stamp),
    [...mandatoryPriorityLevels, ...suggestedPriorityLevels].map(stamp),
  );
  const rows: Row[] = cases.map((c) => {
    const req = { method: c.method, headers: {} } as unknown as HttpRequest;
    const info = requestInfoFor(req, parseRequestURL(c.path));
    if (classifier.classify(c.user, info) === undefined) throw new Error(`${c.what}: not classified`);
    return {
      what: c.what,
      capstan: cpuMicrosPer(() => classifier.classify(c.user, info)),
      baseline: cpuMicrosPer(() => requestInfoFor(req, parseRequestURL(c.path))),
      unit: ' ns',
    };
  });
  printTable(
    'APF classification CPU per request (bootstrap configuration, 13 FlowSchemas)',
    'URL + RequestInfo parse',
    rows,
  );
  return Promise.resolve();
}
