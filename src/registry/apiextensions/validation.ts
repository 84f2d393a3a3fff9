// CustomResourceDefinition validation (apiextensions-apiserver/pkg/apis/apiextensions/validation/
// validation.go) on the v1 object. kube validates its internal form, into which v1 converts with a
// schema, subresources or printer columns shared by every version lifted to the top level; error
// paths follow that (`spec.validation.openAPIV3Schema…` then, `spec.versions[i].schema…` otherwise).
import type {
  CustomResourceDefinition,
  CustomResourceDefinitionNames,
  CustomResourceDefinitionSpec,
  CustomResourceDefinitionVersion,
} from '../../api/apiextensions/v1/crd.js';
import type { JSONSchemaProps } from '../../api/apiextensions/v1/json-schema-props.js';
import {
  FieldError,
  FieldPath,
  isDNS1035Label,
  isDNS1123Subdomain,
  nameIsDNSSubdomain,
  validateObjectMeta,
  type ErrorList,
} from '../../machinery/validation/index.js';
import { validateImmutableField, validateObjectMetaUpdate } from '../generic/validate-meta-update.js';
import { jsonEqual } from '../../machinery/patch/json.js';
import { validateSchemaRules } from './customresource/cel/compile.js';
import { validateOpenAPISchema } from './schema-validation.js';
import {
  validateColumn,
  validateConversion,
  validateDeprecation,
  validateSubresources,
} from './spec-parts-validation.js';
import { validateStructural } from './structural.js';
import { caBundleLoads } from './ca-bundle.js';

const approvalAnnotation = 'api-approved.kubernetes.io';
const approvalLink = 'see https://github.com/kubernetes/enhancements/pull/1111';

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Whether every version sets this field to the same non-empty value (v1 → internal lifts it). */
function sharedByAllVersions<K extends 'schema' | 'subresources' | 'additionalPrinterColumns'>(
  versions: readonly CustomResourceDefinitionVersion[],
  field: K,
): boolean {
  const first = versions[0]?.[field];
  return (
    versions.length > 0 &&
    versions.every((v) => {
      const value = v[field];
      return value !== undefined && !(Array.isArray(value) && value.length === 0) && same(value, first);
    })
  );
}

/** ValidateCustomResourceDefinitionNames (spec.names and status.acceptedNames). */
export function validateNames(names: Partial<CustomResourceDefinitionNames>, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const label = (value: string | undefined, name: string): void => {
    const msgs = isDNS1035Label(value ?? '');
    if ((value ?? '') !== '' && msgs.length > 0)
      errs.push(FieldError.invalid(path.child(name), value, msgs.join(',')));
  };
  const mixedCase = (value: string | undefined, name: string): void => {
    const msgs = isDNS1035Label((value ?? '').toLowerCase());
    if ((value ?? '') !== '' && msgs.length > 0)
      errs.push(
        FieldError.invalid(
          path.child(name),
          value,
          `may have mixed case, but should otherwise match: ${msgs.join(',')}`,
        ),
      );
  };
  label(names.plural, 'plural');
  label(names.singular, 'singular');
  mixedCase(names.kind, 'kind');
  mixedCase(names.listKind, 'listKind');
  (names.shortNames ?? []).forEach((s, i) => {
    const msgs = isDNS1035Label(s);
    if (msgs.length > 0) errs.push(FieldError.invalid(path.child('shortNames').index(i), s, msgs.join(',')));
  });
  if ((names.kind ?? '') !== '' && names.kind === names.listKind)
    errs.push(
      FieldError.invalid(path.child('listKind'), names.listKind, 'kind and listKind may not be the same'),
    );
  (names.categories ?? []).forEach((c, i) => {
    const msgs = isDNS1035Label(c);
    if (msgs.length > 0) errs.push(FieldError.invalid(path.child('categories').index(i), c, msgs.join(',')));
  });
  return errs;
}

/** validateCustomResourceDefinitionValidation for one schema (structural schemas are required). */
function validateSchema(
  schema: { openAPIV3Schema?: JSONSchemaProps } | undefined,
  opts: { statusEnabled: boolean; path: FieldPath; requireStructural: boolean; schemaUnchanged: boolean },
): ErrorList {
  const root = schema?.openAPIV3Schema;
  if (root === undefined) return [];
  const path = opts.path.child('openAPIV3Schema');
  const errs: ErrorList = [];
  if (opts.statusEnabled && root.type !== undefined && root.type !== 'object')
    errs.push(
      FieldError.invalid(
        opts.path.child('openAPIV3Schema.type'),
        root.type,
        'only "object" is allowed as the type at the root of the schema if the status subresource is enabled',
      ),
    );
  if (root.nullable === true)
    errs.push(
      FieldError.forbidden(
        opts.path.child('openAPIV3Schema.nullable'),
        'nullable cannot be true at the root',
      ),
    );
  const structuralErrs = validateStructural(root, path);
  if (opts.requireStructural) errs.push(...structuralErrs);
  const schemaErrors = validateOpenAPISchema(root, path, { isRoot: true, insideResourceMeta: false });
  errs.push(...schemaErrors);
  // CEL rules compile against the structural schema only (the CRD store has loaded the library),
  // and not at nodes whose schema has errors. An update that keeps a version's schema is held to
  // the schema's total cost only (kube's suppressPerExpressionCost), so a CRD stored under older
  // limits stays updatable.
  if (structuralErrs.length === 0)
    errs.push(
      ...validateSchemaRules(root, { path, suppressPerExpressionCost: opts.schemaUnchanged, schemaErrors }),
    );
  return errs;
}

/** What an update allows that a create does not (validationOptions in kube's validation.go). */
interface SpecOptions {
  readonly allowInvalidCABundle: boolean;
  /** Structural schemas are required, unless the CRD being updated had a schema that is not. */
  readonly requireStructural: boolean;
  /** The versions whose schemas an update left as they were. */
  readonly unchangedSchemas: ReadonlySet<string>;
}

const createOptions: SpecOptions = {
  allowInvalidCABundle: true,
  requireStructural: true,
  unchangedSchemas: new Set(),
};

/** findVersionsWithUnchangedSchemas: versions of `crd` whose schema equals the one `old` had. */
function versionsWithUnchangedSchemas(
  crd: CustomResourceDefinition,
  old: CustomResourceDefinition,
): ReadonlySet<string> {
  // A body may lack versions (validateSpec reports it).
  const versions = (spec: CustomResourceDefinitionSpec) =>
    (spec.versions as CustomResourceDefinitionVersion[] | undefined) ?? [];
  const oldSchemas = new Map(versions(old.spec).map((v) => [v.name, v.schema]));
  const unchanged = new Set<string>();
  for (const v of versions(crd.spec))
    if (oldSchemas.has(v.name) && jsonEqual(v.schema, oldSchemas.get(v.name))) unchanged.add(v.name);
  return unchanged;
}

/**
 * requireStructuralSchema: whether every schema of the spec is structural. A CRD stored with one
 * that is not (by rules tightened since, such as kube 1.31's on x-kubernetes-validations under
 * allOf) may still be updated.
 */
function schemasAreStructural(spec: CustomResourceDefinitionSpec): boolean {
  const versions = (spec.versions as CustomResourceDefinitionVersion[] | undefined) ?? [];
  return versions.every((v) => {
    const root = v.schema?.openAPIV3Schema;
    return root === undefined || validateStructural(root, FieldPath.of('')).length === 0;
  });
}

/** validateCustomResourceDefinitionSpec. */
function validateSpec(spec: CustomResourceDefinitionSpec, opts: SpecOptions): ErrorList {
  const { allowInvalidCABundle, requireStructural, unchangedSchemas } = opts;
  const path = FieldPath.of('spec');
  const errs: ErrorList = [];
  const group = (spec.group as string | undefined) ?? '';
  if (group === '') errs.push(FieldError.required(path.child('group'), ''));
  else {
    const msgs = isDNS1123Subdomain(group);
    if (msgs.length > 0) errs.push(FieldError.invalid(path.child('group'), group, msgs.join(',')));
    else if (group.split('.').length < 2)
      errs.push(FieldError.invalid(path.child('group'), group, 'should be a domain with at least one dot'));
  }
  const scope = (spec.scope as string | undefined) ?? '';
  if (scope === '') errs.push(FieldError.required(path.child('scope'), ''));
  else if (scope !== 'Cluster' && scope !== 'Namespaced')
    errs.push(FieldError.notSupported(path.child('scope'), scope, ['Cluster', 'Namespaced']));
  const versions = (spec.versions as CustomResourceDefinitionVersion[] | undefined) ?? [];
  const vPath = path.child('versions');
  const liftSchema = sharedByAllVersions(versions, 'schema');
  const liftSubresources = sharedByAllVersions(versions, 'subresources');
  const liftColumns = sharedByAllVersions(versions, 'additionalPrinterColumns');
  const topSchema = liftSchema ? versions[0]?.schema : undefined;
  if (topSchema?.openAPIV3Schema === undefined)
    versions.forEach((v, i) => {
      if (v.schema?.openAPIV3Schema === undefined)
        errs.push(
          FieldError.required(
            vPath.index(i).child('schema').child('openAPIV3Schema'),
            'schemas are required',
          ),
        );
    });
  let storageCount = 0;
  const names = new Set<string>();
  let unique = true;
  for (const [i, v] of versions.entries()) {
    const at = vPath.index(i);
    if (v.storage) storageCount++;
    if (names.has(v.name)) unique = false;
    names.add(v.name);
    const msgs = isDNS1035Label(typeof v.name === 'string' ? v.name : '');
    if (msgs.length > 0) errs.push(FieldError.invalid(at.child('name'), v.name, msgs.join(',')));
    errs.push(...validateDeprecation(v, at));
    const subresources = liftSubresources ? versions[0]?.subresources : v.subresources;
    if (!liftSchema)
      errs.push(
        ...validateSchema(v.schema, {
          statusEnabled: subresources?.status !== undefined,
          path: at.child('schema'),
          requireStructural,
          schemaUnchanged: unchangedSchemas.has(v.name),
        }),
      );
    if (!liftSubresources) errs.push(...validateSubresources(v.subresources, at.child('subresources')));
    if (!liftColumns)
      (v.additionalPrinterColumns ?? []).forEach((c, j) => {
        errs.push(...validateColumn(c, at.child('additionalPrinterColumns').index(j)));
      });
  }
  if (!unique) errs.push(FieldError.invalid(vPath, versions, 'must contain unique version names'));
  if (storageCount !== 1)
    errs.push(FieldError.invalid(vPath, versions, 'must have exactly one version marked as storage version'));
  const n = (spec.names as Partial<CustomResourceDefinitionNames> | undefined) ?? {};
  for (const field of ['plural', 'singular', 'kind', 'listKind'] as const)
    if ((n[field] ?? '') === '') errs.push(FieldError.required(path.child('names', field), ''));
  errs.push(...validateNames(n, path.child('names')));
  if (liftSchema) {
    const statusEnabled = versions.some((v) => v.subresources?.status !== undefined);
    // kube's internal form names the lifted schema's version after the first one.
    const schemaUnchanged = unchangedSchemas.has(versions[0]?.name ?? '');
    errs.push(
      ...validateSchema(topSchema, {
        statusEnabled,
        path: path.child('validation'),
        requireStructural,
        schemaUnchanged,
      }),
    );
  }
  if (liftSubresources)
    errs.push(...validateSubresources(versions[0]?.subresources, path.child('subresources')));
  if (liftColumns)
    (versions[0]?.additionalPrinterColumns ?? []).forEach((c, j) => {
      errs.push(...validateColumn(c, path.child('additionalPrinterColumns').index(j)));
    });
  errs.push(...validateConversion(spec.conversion, path.child('conversion'), allowInvalidCABundle));
  return errs;
}

/** ValidateCustomResourceDefinitionStoredVersions. */
function validateStoredVersions(crd: CustomResourceDefinition): ErrorList {
  const stored = crd.status?.storedVersions ?? [];
  const path = FieldPath.of('status', 'storedVersions');
  if (stored.length === 0) return [FieldError.invalid(path, stored, 'must have at least one stored version')];
  const errs: ErrorList = [];
  const remaining = new Map(stored.map((v, i) => [v, i]));
  for (const v of (crd.spec.versions as CustomResourceDefinitionVersion[] | undefined) ?? []) {
    if (v.storage && !remaining.has(v.name))
      errs.push(FieldError.invalid(path, stored, `must have the storage version ${v.name}`));
    remaining.delete(v.name);
  }
  for (const [v, i] of remaining)
    errs.push(
      FieldError.invalid(
        path.index(i),
        v,
        `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
      ),
    );
  return errs;
}

/** validateAPIApproval: *.k8s.io and *.kubernetes.io groups need the approval annotation. */
function validateAPIApproval(
  crd: CustomResourceDefinition,
  old: CustomResourceDefinition | undefined,
): ErrorList {
  const group = (crd.spec.group as string | undefined) ?? '';
  const protectedGroup = (g: string): boolean =>
    g === 'k8s.io' || g.endsWith('.k8s.io') || g === 'kubernetes.io' || g.endsWith('.kubernetes.io');
  if (!protectedGroup(group)) return [];
  const approval = (c: CustomResourceDefinition): string | undefined =>
    c.metadata?.annotations?.[approvalAnnotation];
  const value = approval(crd);
  if (old !== undefined && protectedGroup(old.spec.group) && approval(old) === value) return [];
  const path = FieldPath.of('metadata', 'annotations').key(approvalAnnotation);
  if (value === undefined)
    return [
      FieldError.required(
        path,
        `protected groups must have approval annotation "${approvalAnnotation}", ${approvalLink}`,
      ),
    ];
  if (value.startsWith('unapproved') || URL.canParse(value)) return [];
  return [
    FieldError.invalid(
      path,
      value,
      `protected groups must have approval annotation "${approvalAnnotation}" with either a URL or a reason starting with "unapproved", ${approvalLink}`,
    ),
  ];
}

/** validatePreserveUnknownFields: v1 may not turn it on. */
function validatePreserveUnknownFields(
  crd: CustomResourceDefinition,
  old: CustomResourceDefinition | undefined,
): ErrorList {
  if (crd.spec.preserveUnknownFields !== true || old?.spec.preserveUnknownFields === true) return [];
  return [
    FieldError.invalid(
      FieldPath.of('spec', 'preserveUnknownFields'),
      true,
      'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
    ),
  ];
}

const requiredName = (crd: CustomResourceDefinition): string =>
  `${(crd.spec.names.plural as string | undefined) ?? ''}.${(crd.spec.group as string | undefined) ?? ''}`;

/** ValidateCustomResourceDefinition. */
export function validateCRD(crd: CustomResourceDefinition): ErrorList {
  const nameFn = (name: string, prefix: boolean): string[] => {
    const msgs = nameIsDNSSubdomain(name, prefix);
    if (name !== requiredName(crd)) msgs.push('must be spec.names.plural+"."+spec.group');
    return msgs;
  };
  return [
    ...validateObjectMeta(crd.metadata ?? {}, { requiresNamespace: false, validateName: nameFn }),
    ...validateSpec(crd.spec, createOptions),
    ...validateNames(crd.status?.acceptedNames ?? {}, FieldPath.of('status', 'acceptedNames')),
    ...validateStoredVersions(crd),
    ...validateAPIApproval(crd, undefined),
    ...validatePreserveUnknownFields(crd, undefined),
  ];
}

const isEstablished = (crd: CustomResourceDefinition): boolean =>
  (crd.status?.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True');

/** allowInvalidCABundle: unless the CRD is Established with a bundle that loads, or with none. */
function allowInvalidCABundle(old: CustomResourceDefinition): boolean {
  if (!isEstablished(old)) return true;
  const caBundle = old.spec.conversion?.webhook?.clientConfig?.caBundle ?? '';
  return caBundle !== '' && !caBundleLoads(caBundle);
}

/** ValidateCustomResourceDefinitionUpdate: group and plural never change, scope and kind once established. */
export function validateCRDUpdate(crd: CustomResourceDefinition, old: CustomResourceDefinition): ErrorList {
  const path = FieldPath.of('spec');
  const errs = [
    ...validateObjectMetaUpdate(crd.metadata ?? {}, old.metadata ?? {}),
    ...validateSpec(crd.spec, {
      allowInvalidCABundle: allowInvalidCABundle(old),
      requireStructural: schemasAreStructural(old.spec),
      unchangedSchemas: versionsWithUnchangedSchemas(crd, old),
    }),
  ];
  if (isEstablished(old))
    errs.push(
      ...validateImmutableField(crd.spec.scope, old.spec.scope, path.child('scope')),
      ...validateImmutableField(crd.spec.names.kind, old.spec.names.kind, path.child('names', 'kind')),
    );
  errs.push(
    ...validateImmutableField(crd.spec.group, old.spec.group, path.child('group')),
    ...validateImmutableField(crd.spec.names.plural, old.spec.names.plural, path.child('names', 'plural')),
    ...validateNames(crd.status?.acceptedNames ?? {}, FieldPath.of('status', 'acceptedNames')),
    ...validateStoredVersions(crd),
    ...validateAPIApproval(crd, old),
    ...validatePreserveUnknownFields(crd, old),
  );
  return errs;
}

/** ValidateUpdateCustomResourceDefinitionStatus. */
export function validateCRDStatusUpdate(
  crd: CustomResourceDefinition,
  old: CustomResourceDefinition,
): ErrorList {
  return [
    ...validateObjectMetaUpdate(crd.metadata ?? {}, old.metadata ?? {}),
    ...validateNames(crd.status?.acceptedNames ?? {}, FieldPath.of('status', 'acceptedNames')),
  ];
}
