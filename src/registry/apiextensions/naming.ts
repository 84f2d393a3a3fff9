// The names a CRD may be served under (apiextensions-apiserver/pkg/controller/status/
// naming_controller.go, with the establishing controller's step folded in): the names every CRD of a
// group has accepted are taken, and a CRD accepts each name it asks for that is its own already or
// free; a taken one keeps the CRD's previous accepted name and sets NamesAccepted=False with the
// reason of the kind of name (the last conflict found names it). A CRD whose names are accepted is
// then Established (establish/establishing_controller.go), unless its conversion webhook's caBundle
// does not load (Established=False, InvalidCABundle), which keeps it unserved until fixed.
import type {
  CustomResourceDefinition,
  CustomResourceDefinitionCondition,
  CustomResourceDefinitionNames,
} from '../../api/apiextensions/v1/crd.js';
import { goQuote } from '../../machinery/validation/index.js';
import { caBundleLoads } from './ca-bundle.js';
import { setCRDCondition } from './conditions.js';

/** The resource names (plural, singular, short) and kinds (kind, list kind) a group's CRDs hold. */
export interface NamesInUse {
  readonly resources: ReadonlySet<string>;
  readonly kinds: ReadonlySet<string>;
}

/** getAcceptedNamesForGroup: every CRD of the group counts, the one being named included. */
export function namesInUse(crds: Iterable<CustomResourceDefinition>, group: string): NamesInUse {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const crd of crds) {
    if (crd.spec.group !== group) continue;
    const accepted: Partial<CustomResourceDefinitionNames> = crd.status?.acceptedNames ?? {};
    // Go's sets take the empty names too: an empty requested name conflicts with them.
    resources.add(accepted.plural ?? '').add(accepted.singular ?? '');
    for (const s of accepted.shortNames ?? []) resources.add(s);
    kinds.add(accepted.kind ?? '').add(accepted.listKind ?? '');
  }
  return { resources, kinds };
}

export interface NamingResult {
  readonly acceptedNames: CustomResourceDefinitionNames;
  readonly namesAccepted: CustomResourceDefinitionCondition;
  readonly established: CustomResourceDefinitionCondition;
}

/** equalToAcceptedOrFresh: the message of the conflict, or undefined when the name may be taken. */
function conflict(requested: string, accepted: string, used: ReadonlySet<string>): string | undefined {
  if (requested === accepted || !used.has(requested)) return undefined;
  return `${goQuote(requested)} is already in use`;
}

const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean =>
  (a ?? []).length === (b ?? []).length && (a ?? []).every((s, i) => s === b?.[i]);

/** equality.Semantic.DeepEqual of two names: an absent name or list is an empty one. */
export function sameNames(
  a: Partial<CustomResourceDefinitionNames> | undefined,
  b: Partial<CustomResourceDefinitionNames> | undefined,
): boolean {
  const x = a ?? {};
  const y = b ?? {};
  return (
    (x.plural ?? '') === (y.plural ?? '') &&
    (x.singular ?? '') === (y.singular ?? '') &&
    (x.kind ?? '') === (y.kind ?? '') &&
    (x.listKind ?? '') === (y.listKind ?? '') &&
    sameList(x.shortNames, y.shortNames) &&
    sameList(x.categories, y.categories)
  );
}

/** Names in the Go struct's shape: plural and kind always there, the omitempty ones when set. */
function namesOf(n: Partial<CustomResourceDefinitionNames>): CustomResourceDefinitionNames {
  return {
    plural: n.plural ?? '',
    ...(n.singular === undefined || n.singular === '' ? {} : { singular: n.singular }),
    ...(n.shortNames === undefined || n.shortNames.length === 0 ? {} : { shortNames: [...n.shortNames] }),
    kind: n.kind ?? '',
    ...(n.listKind === undefined || n.listKind === '' ? {} : { listKind: n.listKind }),
    ...(n.categories === undefined || n.categories.length === 0 ? {} : { categories: [...n.categories] }),
  };
}

function findCondition(
  crd: CustomResourceDefinition,
  type: string,
): CustomResourceDefinitionCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}

const sameCondition = (
  a: CustomResourceDefinitionCondition,
  b: CustomResourceDefinitionCondition | undefined,
): boolean =>
  b !== undefined &&
  a.status === b.status &&
  (a.reason ?? '') === (b.reason ?? '') &&
  (a.message ?? '') === (b.message ?? '');

/** calculateNamesAndConditions: what `crd` may accept given the names its group holds. */
export function calculateNamesAndConditions(crd: CustomResourceDefinition, inUse: NamesInUse): NamingResult {
  const requested: Partial<CustomResourceDefinitionNames> = crd.spec.names;
  const accepted: Partial<CustomResourceDefinitionNames> = crd.status?.acceptedNames ?? {};
  const next: Partial<CustomResourceDefinitionNames> = { ...accepted };
  const state: { refused?: { reason: string; message: string } } = {};
  const check = (
    field: 'plural' | 'singular' | 'kind' | 'listKind',
    reason: string,
    used: ReadonlySet<string>,
  ): void => {
    const message = conflict(requested[field] ?? '', accepted[field] ?? '', used);
    if (message === undefined) next[field] = requested[field] ?? '';
    else state.refused = { reason, message };
  };
  check('plural', 'PluralConflict', inUse.resources);
  check('singular', 'SingularConflict', inUse.resources);
  if (!sameList(requested.shortNames, accepted.shortNames)) {
    const own = new Set(accepted.shortNames ?? []);
    const found = (requested.shortNames ?? []).flatMap((s) => {
      if (own.has(s)) return [];
      const message = conflict(s, '', inUse.resources);
      return message === undefined ? [] : [message];
    });
    const errs = [...new Set(found)];
    // utilerrors.NewAggregate: one error as itself, several (each once) in brackets.
    if (errs.length === 1) state.refused = { reason: 'ShortNamesConflict', message: errs[0] ?? '' };
    else if (errs.length > 1)
      state.refused = { reason: 'ShortNamesConflict', message: `[${errs.join(', ')}]` };
    else if (requested.shortNames === undefined) delete next.shortNames;
    else next.shortNames = requested.shortNames;
  }
  check('kind', 'KindConflict', inUse.kinds);
  check('listKind', 'ListKindConflict', inUse.kinds);
  if (requested.categories === undefined) delete next.categories;
  else next.categories = requested.categories;

  const { refused } = state;
  const namesAccepted: CustomResourceDefinitionCondition =
    refused === undefined
      ? { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' }
      : { type: 'NamesAccepted', status: 'False', ...refused };
  let established: CustomResourceDefinitionCondition = findCondition(crd, 'Established') ?? {
    type: 'Established',
    status: 'False',
    reason: 'NotAccepted',
    message: 'not all names are accepted',
  };
  // kube's naming controller writes Established=False/Installing here and its establishing
  // controller the outcome a moment later; Capstan takes both steps at once.
  if (established.status !== 'True' && namesAccepted.status === 'True') established = establishing(crd);
  return { acceptedNames: namesOf(next), namesAccepted, established };
}

/** The Established condition the establishing controller gives a CRD whose names are accepted. */
function establishing(crd: CustomResourceDefinition): CustomResourceDefinitionCondition {
  if (!caBundleLoads(crd.spec.conversion?.webhook?.clientConfig?.caBundle ?? ''))
    return {
      type: 'Established',
      status: 'False',
      reason: 'InvalidCABundle',
      message: 'The conversion webhook CABundle is invalid',
    };
  return {
    type: 'Established',
    status: 'True',
    reason: 'InitialNamesAccepted',
    message: 'the initial names have been accepted',
  };
}

const isTrue = (crd: CustomResourceDefinition, type: string): boolean =>
  findCondition(crd, type)?.status === 'True';

/** Names accepted but not Established: the establishing controller has work on it. */
export function waitingToBeEstablished(crd: CustomResourceDefinition): boolean {
  return isTrue(crd, 'NamesAccepted') && !isTrue(crd, 'Established');
}

/**
 * The establishing controller's sync on `crd` (changed in place): a CRD whose names are accepted
 * and that is not Established yet becomes so, or InvalidCABundle. Returns whether the status changed.
 */
export function establish(crd: CustomResourceDefinition, now: string): boolean {
  if (!waitingToBeEstablished(crd)) return false;
  const condition = establishing(crd);
  if (sameCondition(condition, findCondition(crd, 'Established'))) return false;
  setCRDCondition(crd, { ...condition, lastTransitionTime: now });
  return true;
}

/** What the naming and establishing controllers do with `crd` given the names its group holds. */
export function nameAndEstablish(crd: CustomResourceDefinition, inUse: NamesInUse, now: string): boolean {
  return waitingForNames(crd) ? acceptNames(crd, inUse, now) : establish(crd, now);
}

/**
 * The naming controller's sync on `crd` (changed in place): nothing when the CRD serves the names
 * it asks for or when nothing would change; else the accepted names and the NamesAccepted and
 * Established conditions, stamped `now`. Returns whether the status changed.
 */
export function acceptNames(crd: CustomResourceDefinition, inUse: NamesInUse, now: string): boolean {
  if (sameNames(crd.spec.names, crd.status?.acceptedNames)) return false;
  const result = calculateNamesAndConditions(crd, inUse);
  if (
    sameNames(crd.status?.acceptedNames, result.acceptedNames) &&
    sameCondition(result.namesAccepted, findCondition(crd, 'NamesAccepted'))
  )
    return false;
  (crd.status ??= {}).acceptedNames = result.acceptedNames;
  setCRDCondition(crd, { ...result.namesAccepted, lastTransitionTime: now });
  setCRDCondition(crd, { ...result.established, lastTransitionTime: now });
  return true;
}

/** The CRD does not serve all the names it asks for (the naming controller has work on it). */
export function waitingForNames(crd: CustomResourceDefinition): boolean {
  return !sameNames(crd.spec.names, crd.status?.acceptedNames);
}
