// Request parameters of each verb, with our own short descriptions. Rendered inline into every
// operation (kubectl looks for fieldValidation among a PATCH operation's own parameters).

export type ParamType = 'string' | 'integer' | 'boolean';

export interface ParamSpec {
  readonly name: string;
  readonly in: 'query' | 'path' | 'body';
  readonly description: string;
  readonly type?: ParamType;
  readonly required?: boolean;
  /** Body parameters: the definition the body must match. */
  readonly schemaRef?: string;
}

const query = (name: string, type: ParamType, description: string): ParamSpec => ({
  name,
  in: 'query',
  type,
  description,
});

export const pretty = query('pretty', 'string', "If 'true', the output is indented.");

export const dryRun = query(
  'dryRun',
  'string',
  "When present, the request is processed but not persisted. The only valid value is 'All'.",
);
export const fieldManager = query(
  'fieldManager',
  'string',
  'Name of the actor making the change, recorded in managedFields. At most 128 printable characters.',
);
export const fieldManagerApply = query(
  'fieldManager',
  'string',
  'Name of the actor making the change, recorded in managedFields. Required for apply patches; optional otherwise.',
);
export const fieldValidation = query(
  'fieldValidation',
  'string',
  'What to do with unknown or duplicate fields in the body: Ignore drops them, Warn drops them and answers with a warning per field (the default), Strict fails the request.',
);
export const force = query(
  'force',
  'boolean',
  'For apply patches: take ownership of fields other managers own. Must be unset for other patch types.',
);

export const listParams: readonly ParamSpec[] = [
  query(
    'allowWatchBookmarks',
    'boolean',
    'Ask for BOOKMARK events in a watch; the server may or may not send them.',
  ),
  query('continue', 'string', 'Token from a previous paged list response, to fetch the next chunk.'),
  query('fieldSelector', 'string', 'Restrict the returned objects by their fields.'),
  query('labelSelector', 'string', 'Restrict the returned objects by their labels.'),
  query(
    'limit',
    'integer',
    'Maximum number of objects in one response; a continue token is returned when more remain.',
  ),
  query(
    'resourceVersion',
    'string',
    'Consistency of the answer: which resourceVersion it must be at least or exactly as new as.',
  ),
  query('resourceVersionMatch', 'string', 'How resourceVersion applies to a list: Exact or NotOlderThan.'),
  query(
    'sendInitialEvents',
    'boolean',
    'With watch=true: start the watch with synthetic ADDED events for the current state.',
  ),
  query('timeoutSeconds', 'integer', 'Limit the duration of the list or watch call.'),
  query('watch', 'boolean', 'Watch for changes instead of listing.'),
];

const deleteParams: readonly ParamSpec[] = [
  query('gracePeriodSeconds', 'integer', 'Seconds before the object is deleted; zero deletes at once.'),
  query(
    'ignoreStoreReadErrorWithClusterBreakingPotential',
    'boolean',
    'Delete an object that cannot be read from storage. Dangerous: may break the cluster.',
  ),
  query('orphanDependents', 'boolean', 'Deprecated: use propagationPolicy. Whether dependents are orphaned.'),
  query(
    'propagationPolicy',
    'string',
    'How dependents are garbage collected: Orphan, Background or Foreground.',
  ),
];

export const body = (schemaRef: string): ParamSpec => ({
  name: 'body',
  in: 'body',
  required: true,
  description: '',
  schemaRef,
});

export const optionalBody = (schemaRef: string): ParamSpec => ({
  name: 'body',
  in: 'body',
  description: '',
  schemaRef,
});

export const nameParam = (kind: string): ParamSpec => ({
  name: 'name',
  in: 'path',
  required: true,
  type: 'string',
  description: `Name of the ${kind}.`,
});

export const namespaceParam: ParamSpec = {
  name: 'namespace',
  in: 'path',
  required: true,
  type: 'string',
  description: 'Namespace of the objects: their name scope and unit of authorization.',
};

export const writeParams: readonly ParamSpec[] = [dryRun, fieldManager, fieldValidation];
export const patchParams: readonly ParamSpec[] = [dryRun, fieldManagerApply, fieldValidation, force];
export const deleteOneParams: readonly ParamSpec[] = [dryRun, ...deleteParams];

/** deletecollection takes the delete options and the list options, in name order. */
export const deleteCollectionParams: readonly ParamSpec[] = [
  ...listParams.filter((p) => p.name !== 'watch' && p.name !== 'allowWatchBookmarks'),
  dryRun,
  ...deleteParams,
].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
