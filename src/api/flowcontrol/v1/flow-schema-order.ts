// kube's FlowSchemaSequence order (pkg/apis/flowcontrol/util): lower matchingPrecedence first,
// then name. Requests are matched in this order and `kubectl get flowschemas` lists it.
import type { FlowSchema } from './flow-schema.js';

export function compareFlowSchemas(a: FlowSchema, b: FlowSchema): number {
  const d = (a.spec.matchingPrecedence ?? 0) - (b.spec.matchingPrecedence ?? 0);
  if (d !== 0) return d;
  const an = a.metadata?.name ?? '';
  const bn = b.metadata?.name ?? '';
  return an < bn ? -1 : an > bn ? 1 : 0;
}
