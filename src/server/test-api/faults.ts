// Fault injection for tests: rules matched against each request (verb, resource, name, user, user
// agent…) that answer with a Status of their own, delay the request, or end a watch after some
// events. Each rule lives until removed, or for a number of matches.
import { setTimeout as delay } from 'node:timers/promises';
import type { Status } from '../../api/meta.js';
import {
  newConflict,
  newInternalError,
  newServiceUnavailable,
  newTimeoutError,
  newTooManyRequests,
  type StatusError,
} from '../../machinery/errors/index.js';
import { continueExpiredMessage, listTooOld, watchTooOld } from '../../storage/api-errors.js';
import { newResourceExpired } from '../../machinery/errors/index.js';
import { writeStatus } from '../http/respond.js';
import type { Filter, FilterScope, Handler } from '../filters/filter-scope.js';
import { isTestAPIPath } from './prefix.js';

export const faultCodes = [409, 410, 429, 500, 503, 504] as const;
export type FaultCode = (typeof faultCodes)[number];

export interface FaultRule {
  /** kube verbs (get, list, watch, create, update, patch, delete, deletecollection); any when absent. */
  readonly verb?: string | readonly string[];
  readonly resource?: string;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly user?: string;
  /** Matches a User-Agent that contains this text. */
  readonly userAgent?: string;
  /** How many matching requests the rule acts on before it is gone (default: until removed). */
  readonly times?: number;
  /** Acts on this fraction of the matching requests (default 1). */
  readonly fraction?: number;
  /** Answer with this code as kube-apiserver words it, instead of serving the request. */
  readonly respond?: FaultCode;
  /** The Status message, instead of kube's usual text for the code. */
  readonly message?: string;
  /** Retry-After for 429 and 504 (default 1). */
  readonly retryAfterSeconds?: number;
  /** Wait this long before serving (or answering). */
  readonly latencyMs?: number;
  /** End a watch (the response, cleanly) once it has sent this many events. */
  readonly dropWatchAfterEvents?: number;
  /** Keep a watch open but send nothing more (no events, no bookmarks) once it has sent this many. */
  readonly stallWatchAfterEvents?: number;
}

interface Active {
  readonly id: string;
  readonly rule: FaultRule;
  remaining: number;
}

function checkRule(rule: FaultRule): void {
  const counts = [
    rule.times,
    rule.latencyMs,
    rule.dropWatchAfterEvents,
    rule.stallWatchAfterEvents,
    rule.retryAfterSeconds,
  ];
  if (counts.some((n) => n !== undefined && (!Number.isSafeInteger(n) || n < 0)))
    throw new RangeError(
      'fault rule: times, latencyMs, dropWatchAfterEvents, stallWatchAfterEvents and retryAfterSeconds are whole numbers',
    );
  if (rule.fraction !== undefined && !(rule.fraction >= 0 && rule.fraction <= 1))
    throw new RangeError('fault rule: fraction is between 0 and 1');
  if (rule.respond !== undefined && !(faultCodes as readonly number[]).includes(rule.respond))
    throw new RangeError(`fault rule: respond is one of ${faultCodes.join(', ')}`);
  const acts = [rule.respond, rule.latencyMs, rule.dropWatchAfterEvents, rule.stallWatchAfterEvents];
  if (acts.every((a) => a === undefined))
    throw new RangeError(
      'fault rule: give respond, latencyMs, dropWatchAfterEvents or stallWatchAfterEvents',
    );
}

function matches(rule: FaultRule, scope: FilterScope): boolean {
  const { info, req } = scope;
  if (rule.verb !== undefined) {
    const verbs: readonly string[] = typeof rule.verb === 'string' ? [rule.verb] : rule.verb;
    if (!verbs.includes(info.verb)) return false;
  }
  if (rule.resource !== undefined && rule.resource !== info.resource) return false;
  if (rule.subresource !== undefined && rule.subresource !== info.subresource) return false;
  if (rule.namespace !== undefined && rule.namespace !== info.namespace) return false;
  if (rule.name !== undefined && rule.name !== info.name) return false;
  if (rule.user !== undefined && rule.user !== scope.user?.name) return false;
  if (rule.userAgent !== undefined && !(req.headers['user-agent'] ?? '').includes(rule.userAgent))
    return false;
  return rule.fraction === undefined || Math.random() < rule.fraction;
}

/** The Status kube-apiserver answers with for `code` on this request. */
function faultStatus(rule: FaultRule, code: FaultCode, scope: FilterScope): Status {
  const { info, url } = scope;
  const qr = { group: info.apiGroup, resource: info.resource };
  const retryAfter = rule.retryAfterSeconds ?? 1;
  const text = rule.message;
  const byCode: Record<FaultCode, () => StatusError> = {
    409: () =>
      newConflict(
        qr,
        info.name,
        text ?? 'the object has been modified; please apply your changes to the latest version and try again',
      ),
    410: () => {
      if (text !== undefined) return newResourceExpired(text);
      if (info.verb === 'watch') return watchTooOld();
      return url.searchParams.has('continue') ? newResourceExpired(continueExpiredMessage) : listTooOld();
    },
    429: () =>
      newTooManyRequests(
        text ?? 'the server has received too many requests and has asked us to try again later',
        retryAfter,
      ),
    500: () => newInternalError(new Error(text ?? 'injected fault')),
    503: () => newServiceUnavailable(text ?? 'the server is currently unable to handle the request'),
    504: () => newTimeoutError(text ?? 'request did not complete within the allowed duration', retryAfter),
  };
  return byCode[code]().status;
}

/**
 * Once `events` watch events have been written (JSON: one line per event), ends the response (drop)
 * or lets nothing more through while it stays open (stall).
 */
function cutWatchAfter(scope: FilterScope, events: number, how: 'drop' | 'stall'): void {
  const res = scope.res as unknown as {
    write: (...a: unknown[]) => boolean;
    end: (...a: unknown[]) => unknown;
  };
  const write = res.write.bind(res);
  const end = res.end.bind(res);
  let sent = 0;
  let dropped = false;
  res.write = (...args: unknown[]): boolean => {
    if (dropped) return true;
    const ok = write(...args);
    const chunk = args[0];
    const isJson = String(scope.res.getHeader('content-type') ?? '').includes('json');
    sent += isJson ? newlines(chunk) : 1;
    if (sent >= events) {
      dropped = true;
      if (how === 'stall') return ok;
      end();
      scope.abort(new Error('watch dropped by an injected fault'));
    }
    return ok;
  };
  // A stalled watch still ends when its handler ends it (timeout, shutdown), with nothing more said.
  res.end = (...args: unknown[]): unknown => (dropped ? (how === 'stall' ? end() : res) : end(...args));
}

function newlines(chunk: unknown): number {
  if (typeof chunk === 'string') return chunk.split('\n').length - 1;
  if (!(chunk instanceof Uint8Array)) return 0;
  let n = 0;
  for (const b of chunk) if (b === 10) n++;
  return n;
}

export class Faults {
  readonly #rules = new Map<string, Active>();
  #nextId = 1;

  /** Adds a rule; its id removes it. */
  add(rule: FaultRule): string {
    checkRule(rule);
    const id = `fault-${this.#nextId++}`;
    this.#rules.set(id, { id, rule: Object.freeze({ ...rule }), remaining: rule.times ?? Infinity });
    return id;
  }

  /** Removes a rule; false when there was none by that id (or it had run out). */
  remove(id: string): boolean {
    return this.#rules.delete(id);
  }

  clear(): void {
    this.#rules.clear();
  }

  /** The rules in force, with their ids. */
  list(): { id: string; rule: FaultRule; remaining: number }[] {
    return [...this.#rules.values()].map((a) => ({ ...a }));
  }

  /** The filter that applies the first matching rule to each request. */
  readonly filter: Filter = (next) => (scope) =>
    this.#rules.size === 0 || isTestAPIPath(scope.url.pathname) ? next(scope) : this.#serve(next, scope);

  #take(scope: FilterScope): FaultRule | undefined {
    for (const active of this.#rules.values()) {
      if (!matches(active.rule, scope)) continue;
      active.remaining--;
      if (active.remaining <= 0) this.#rules.delete(active.id);
      return active.rule;
    }
    return undefined;
  }

  async #serve(next: Handler, scope: FilterScope): Promise<void> {
    const rule = this.#take(scope);
    if (rule === undefined) return next(scope);
    if (rule.latencyMs !== undefined && rule.latencyMs > 0) {
      try {
        await delay(rule.latencyMs, undefined, { signal: scope.signal });
      } catch {
        return; // the client went away or the server stopped meanwhile
      }
    }
    if (rule.respond !== undefined) {
      writeStatus(scope.res, faultStatus(rule, rule.respond, scope));
      return;
    }
    if (scope.info.verb === 'watch') {
      if (rule.dropWatchAfterEvents !== undefined) cutWatchAfter(scope, rule.dropWatchAfterEvents, 'drop');
      else if (rule.stallWatchAfterEvents !== undefined)
        cutWatchAfter(scope, rule.stallWatchAfterEvents, 'stall');
    }
    return next(scope);
  }
}
