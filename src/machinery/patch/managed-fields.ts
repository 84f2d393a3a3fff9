// metadata.managedFields ⇄ field sets per manager (managedfields/internal/managedfields.go): each
// entry's manager identifier is the JSON of its manager, operation, apiVersion (Update only) and
// subresource; entries are written sorted by operation, time, manager, apiVersion, subresource.
import type { ManagedFieldsEntry } from '../../api/meta.js';
import { decodeFieldsV1, encodeFieldsV1 } from './fieldpath/fields-v1.js';
import type { ManagedFieldSets } from './merge/updater.js';

export interface ManagerInfo {
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  readonly apiVersion: string;
  readonly subresource: string;
}

/** The managers' field sets and when each last changed something. */
export interface Managed {
  readonly fields: ManagedFieldSets;
  readonly times: Map<string, string | undefined>;
}

export const emptyManaged = (): Managed => ({ fields: new Map(), times: new Map() });

/** BuildManagerIdentifier: the entry without fields and time; appliers without apiVersion. */
export function managerIdentifier(info: Partial<ManagerInfo>): string {
  const out: Record<string, string> = {};
  if ((info.manager ?? '') !== '') out['manager'] = info.manager ?? '';
  if ((info.operation ?? '') !== '') out['operation'] = info.operation ?? '';
  if (info.operation !== 'Apply' && (info.apiVersion ?? '') !== '') out['apiVersion'] = info.apiVersion ?? '';
  if ((info.subresource ?? '') !== '') out['subresource'] = info.subresource ?? '';
  return JSON.stringify(out);
}

/** Parsed identifiers: every write encodes every entry, and the same managers write again. */
const parsedIdentifiers = new Map<string, Readonly<Partial<ManagerInfo>>>();
const maxParsedIdentifiers = 1024;

export function parseManagerIdentifier(id: string): Readonly<Partial<ManagerInfo>> {
  let info = parsedIdentifiers.get(id);
  if (info === undefined) {
    try {
      info = Object.freeze(JSON.parse(id) as Partial<ManagerInfo>);
    } catch {
      info = Object.freeze({ manager: id });
    }
    if (parsedIdentifiers.size >= maxParsedIdentifiers) parsedIdentifiers.clear();
    parsedIdentifiers.set(id, info);
  }
  return info;
}

/** DecodeManagedFields; throws an Error with kube's text on an invalid entry. */
export function decodeManagedFields(entries: readonly ManagedFieldsEntry[] | undefined): Managed {
  const managed = emptyManaged();
  (entries ?? []).forEach((entry, i) => {
    if (entry.operation !== 'Apply' && entry.operation !== 'Update')
      throw new Error('operation must be `Apply` or `Update`');
    if ((entry.apiVersion ?? '') === '') throw new Error('apiVersion must not be empty');
    if ((entry.fieldsType ?? '') === '') throw new Error(`missing fieldsType in managed fields entry ${i}`);
    if (entry.fieldsType !== 'FieldsV1')
      throw new Error(`invalid fieldsType ${JSON.stringify(entry.fieldsType)} in managed fields entry ${i}`);
    const id = managerIdentifier(entry);
    let set;
    try {
      set = decodeFieldsV1(entry.fieldsV1 ?? {});
    } catch (err) {
      throw new Error(`error decoding versioned set: ${err instanceof Error ? err.message : String(err)}`);
    }
    managed.fields.set(id, { set, apiVersion: entry.apiVersion ?? '', applied: entry.operation === 'Apply' });
    managed.times.set(id, entry.time);
  });
  return managed;
}

const seconds = (t: string | undefined): number => (t === undefined ? 0 : Math.floor(Date.parse(t) / 1000));
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** An entry and its time in seconds, parsed once for sorting. */
interface Timed {
  readonly entry: ManagedFieldsEntry;
  readonly seconds: number;
}

function compareEntries(a: Timed, b: Timed): number {
  const p = a.entry;
  const q = b.entry;
  if (p.operation !== q.operation) return cmp(p.operation ?? '', q.operation ?? '');
  if (a.seconds !== b.seconds) return a.seconds - b.seconds;
  if (p.manager !== q.manager) return cmp(p.manager ?? '', q.manager ?? '');
  if (p.apiVersion !== q.apiVersion) return cmp(p.apiVersion ?? '', q.apiVersion ?? '');
  return cmp(p.subresource ?? '', q.subresource ?? '');
}

/** The managedFields list for `managed`; undefined when no manager owns anything. */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] | undefined {
  const entries: Timed[] = [];
  for (const [id, vs] of managed.fields) {
    const info = parseManagerIdentifier(id);
    const entry: ManagedFieldsEntry = {};
    if ((info.manager ?? '') !== '') entry.manager = info.manager ?? '';
    entry.operation = vs.applied ? 'Apply' : (info.operation ?? 'Update');
    entry.apiVersion = vs.apiVersion;
    const time = managed.times.get(id);
    if (time !== undefined) entry.time = time;
    entry.fieldsType = 'FieldsV1';
    entry.fieldsV1 = encodeFieldsV1(vs.set);
    if ((info.subresource ?? '') !== '') entry.subresource = info.subresource ?? '';
    entries.push({ entry, seconds: seconds(time) });
  }
  return entries.length === 0 ? undefined : entries.sort(compareEntries).map((t) => t.entry);
}
