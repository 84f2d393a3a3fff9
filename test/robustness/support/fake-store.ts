// An in-memory versioned store for the checker's own tests, with a switchable bug: `ackBeforeCommit`
// answers a write before it is durable, and `crash()` then loses what was not yet committed, the way
// a server that acknowledged before fsync (or before a quorum) would. Clients drive it through the same
// Recorder as the HTTP clients drive Capstan.
import type { KvInput, KvOutput } from './history.js';

interface Cell {
  readonly rv: number;
  readonly value: string;
}

export class FakeStore {
  readonly #committed = new Map<string, Cell>();
  /** Writes acknowledged but not yet committed (only with ackBeforeCommit). */
  #pending = new Map<string, Cell | null>();
  #rv = 1;
  readonly #ackBeforeCommit: boolean;

  constructor(opts: { ackBeforeCommit: boolean }) {
    this.#ackBeforeCommit = opts.ackBeforeCommit;
  }

  #current(key: string): Cell | undefined {
    if (this.#pending.has(key)) return this.#pending.get(key) ?? undefined;
    return this.#committed.get(key);
  }

  #write(key: string, cell: Cell | null): void {
    if (this.#ackBeforeCommit) this.#pending.set(key, cell);
    else if (cell === null) this.#committed.delete(key);
    else this.#committed.set(key, cell);
  }

  /** Makes every pending write durable. */
  commit(): void {
    for (const [key, cell] of this.#pending) {
      if (cell === null) this.#committed.delete(key);
      else this.#committed.set(key, cell);
    }
    this.#pending = new Map();
  }

  /** A restart: pending writes are gone. */
  crash(): void {
    this.#pending = new Map();
  }

  apply(input: KvInput): KvOutput {
    const cur = this.#current(input.key);
    const value = input.value ?? '';
    switch (input.kind) {
      case 'get':
        return cur === undefined ? { type: 'notFound' } : { type: 'ok', rv: cur.rv, value: cur.value };
      case 'create': {
        if (cur !== undefined) return { type: 'exists' };
        const cell = { rv: ++this.#rv, value };
        this.#write(input.key, cell);
        return { type: 'ok', ...cell };
      }
      case 'update': {
        if (cur === undefined) return { type: 'notFound' };
        if (cur.rv !== input.precondition) return { type: 'conflict' };
        const cell = { rv: ++this.#rv, value };
        this.#write(input.key, cell);
        return { type: 'ok', ...cell };
      }
      case 'delete': {
        if (cur === undefined) return { type: 'notFound' };
        if (input.precondition !== undefined && cur.rv !== input.precondition) return { type: 'conflict' };
        this.#write(input.key, null);
        return { type: 'ok', rv: ++this.#rv, value: cur.value };
      }
    }
  }
}
