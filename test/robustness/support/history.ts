// What the robustness suite records: every client operation with its invocation and response times
// (milliseconds on one monotonic clock), every watch event, every list. An operation whose outcome the
// client never learnt (a timeout, a reset connection, a 5xx) is `unknown` and has no return time: as in
// Porcupine, it may have taken effect at any moment after its invocation, or never.

export const opKinds = ['create', 'update', 'delete', 'get'] as const;
export type OpKind = (typeof opKinds)[number];

export interface KvInput {
  readonly kind: OpKind;
  readonly key: string;
  /** The value a create or update writes (unique per write, so a read names the write it sees). */
  readonly value?: string;
  /** The resourceVersion precondition of an update (always) or a delete (when set). */
  readonly precondition?: number;
}

export type KvOutput =
  | { readonly type: 'ok'; readonly rv: number; readonly value: string }
  | { readonly type: 'exists' }
  | { readonly type: 'conflict' }
  | { readonly type: 'notFound' }
  | { readonly type: 'unknown'; readonly error: string };

export interface Operation {
  readonly id: number;
  readonly client: number;
  readonly input: KvInput;
  readonly output: KvOutput;
  readonly call: number;
  /** Infinity for an unknown outcome. */
  readonly ret: number;
}

export const eventTypes = ['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK'] as const;
export type EventType = (typeof eventTypes)[number];

export interface WatchEvent {
  readonly type: EventType;
  readonly key: string;
  readonly value: string;
  readonly rv: number;
  /** When the watcher received it (on the recorder's clock); hand-made histories may leave it out. */
  readonly at?: number;
}

/** One HTTP watch from `startRv` until it ended; a watcher resumes with a new segment. */
export interface WatchSegment {
  readonly watcher: number;
  readonly startRv: number;
  readonly events: WatchEvent[];
  /** Why it ended: 'gone' after a 410 ERROR event, 'error' for other ERROR events or a broken stream. */
  end: 'open' | 'stopped' | 'closed' | 'gone' | 'error';
}

export interface ListItem {
  readonly key: string;
  readonly value: string;
  readonly rv: number;
}

/** A list (all pages of it, at one resourceVersion) that succeeded. */
export interface ListOp {
  readonly client: number;
  readonly call: number;
  readonly ret: number;
  readonly rv: number;
  readonly items: readonly ListItem[];
  readonly pages: number;
}

export interface History {
  readonly ops: Operation[];
  readonly segments: WatchSegment[];
  readonly lists: ListOp[];
}

export function emptyHistory(): History {
  return { ops: [], segments: [], lists: [] };
}

/** Hands out operation ids and keeps the one clock every record is timed by. */
export class Recorder {
  readonly history: History = emptyHistory();
  readonly #t0 = performance.now();
  #nextId = 0;

  now(): number {
    return performance.now() - this.#t0;
  }

  /** Runs `fn`, recording its invocation and response; `fn` classifies its own outcome. */
  async record(client: number, input: KvInput, fn: () => Promise<KvOutput>): Promise<KvOutput> {
    const id = this.#nextId++;
    const call = this.now();
    const output = await fn();
    const ret = output.type === 'unknown' ? Infinity : this.now();
    this.history.ops.push({ id, client, input, output, call, ret });
    return output;
  }
}

function describeInput(i: KvInput): string {
  const pre = i.precondition === undefined ? '' : ` if rv=${i.precondition}`;
  const value = i.value === undefined ? '' : ` ${i.value}`;
  return `${i.kind}(${i.key}${value}${pre})`;
}

function describeOutput(o: KvOutput): string {
  switch (o.type) {
    case 'ok':
      return `ok rv=${o.rv} value=${o.value}`;
    case 'unknown':
      return `unknown (${o.error})`;
    case 'exists':
    case 'conflict':
    case 'notFound':
      return o.type;
  }
}

/** One line per operation, in invocation order: what a failing check prints. */
export function describeOps(ops: readonly Operation[]): string {
  const t = (ms: number): string => (ms === Infinity ? '∞' : ms.toFixed(1));
  return [...ops]
    .sort((a, b) => a.call - b.call)
    .map(
      (o) =>
        `  #${o.id} client ${o.client} [${t(o.call)} → ${t(o.ret)}] ${describeInput(o.input)} → ${describeOutput(o.output)}`,
    )
    .join('\n');
}
