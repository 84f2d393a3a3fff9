// Zones and their disruption states (node_lifecycle_controller.go's handleDisruption and
// ComputeZoneState, pkg/util/node's GetZoneKey) and the rate-limited queue of nodes waiting for a
// NoExecute taint in each zone (scheduler.RateLimitedTimedQueue over a token bucket with burst 1).
import type { Node, NodeCondition } from '../../../api/core/v1/node.js';

/** kube-controller-manager's defaults. */
export const evictionLimiterQPS = 0.1;
export const secondaryEvictionLimiterQPS = 0.01;
export const largeClusterThreshold = 50;
export const unhealthyZoneThreshold = 0.55;

export const zoneStates = ['Initial', 'Normal', 'FullDisruption', 'PartialDisruption'] as const;
export type ZoneState = (typeof zoneStates)[number];

/** GetZoneKey: region and zone from the topology labels (or their beta names), '' without them. */
export function zoneKey(node: Node): string {
  const labels = node.metadata?.labels ?? {};
  const region =
    labels['topology.kubernetes.io/region'] ?? labels['failure-domain.beta.kubernetes.io/region'] ?? '';
  const zone =
    labels['topology.kubernetes.io/zone'] ?? labels['failure-domain.beta.kubernetes.io/zone'] ?? '';
  return region === '' && zone === '' ? '' : `${region}:\x00:${zone}`;
}

/** ComputeZoneState over the Ready conditions of a zone's nodes. */
export function computeZoneState(ready: readonly (NodeCondition | undefined)[]): ZoneState {
  const readyNodes = ready.filter((c) => c?.status === 'True').length;
  const notReady = ready.length - readyNodes;
  if (readyNodes === 0 && notReady > 0) return 'FullDisruption';
  if (notReady > 2 && notReady / ready.length >= unhealthyZoneThreshold) return 'PartialDisruption';
  return 'Normal';
}

export interface ZoneTransition {
  readonly newStates: ReadonlyMap<string, ZoneState>;
  /** Every zone is fully disrupted now. */
  readonly allAreFull: boolean;
  /** Every zone was fully disrupted on the last pass. */
  readonly allWereFull: boolean;
}

/**
 * handleDisruption's first half: the zones' new states from their nodes' Ready conditions; `states`
 * (the last pass's) learns new zones as Initial and forgets vanished ones as kube's loop does.
 */
export function zoneTransition(
  states: Map<string, ZoneState>,
  zoneReady: ReadonlyMap<string, readonly (NodeCondition | undefined)[]>,
): ZoneTransition {
  const newStates = new Map<string, ZoneState>();
  let allAreFull = true;
  for (const [zone, ready] of zoneReady) {
    const state = computeZoneState(ready);
    if (state !== 'FullDisruption') allAreFull = false;
    newStates.set(zone, state);
    if (!states.has(zone)) states.set(zone, 'Initial');
  }
  let allWereFull = true;
  for (const [zone, state] of [...states]) {
    if (!zoneReady.has(zone)) {
      states.delete(zone);
      continue;
    }
    if (state !== 'FullDisruption') {
      allWereFull = false;
      break;
    }
  }
  return { newStates, allAreFull, allWereFull };
}

/** setLimiterInZone: the tainting rate a zone gets in a state. */
export function zoneQPS(state: ZoneState, zoneSize: number): number {
  switch (state) {
    case 'Initial':
    case 'Normal':
    case 'FullDisruption':
      return evictionLimiterQPS;
    case 'PartialDisruption':
      return zoneSize > largeClusterThreshold ? secondaryEvictionLimiterQPS : 0;
  }
}

/**
 * The nodes of one zone waiting for a NoExecute taint, in the order they were added, taken at most
 * qps per second (a token bucket holding one token; qps 0 takes none). As kube's UniqueQueue, a
 * node once taken is remembered, and not added again until removed.
 */
export class TaintQueue {
  /** Waiting nodes and when each may be taken. */
  readonly #waiting = new Map<string, number>();
  readonly #known = new Set<string>();
  #qps = evictionLimiterQPS;
  #tokens = 1;
  #lastRefill: number;

  constructor(now: number) {
    this.#lastRefill = now;
  }

  /** Adds a node (true), unless it was added before and not removed since (false). */
  add(name: string, now: number): boolean {
    if (this.#known.has(name)) return false;
    this.#known.add(name);
    this.#waiting.set(name, now);
    return true;
  }

  remove(name: string): boolean {
    this.#waiting.delete(name);
    return this.#known.delete(name);
  }

  /** How many nodes wait. */
  get size(): number {
    return this.#waiting.size;
  }

  swapLimiter(qps: number, now: number): void {
    if (qps === this.#qps) return;
    this.#refill(now);
    this.#qps = qps;
    // A new bucket starts full, unless the old one was drained (RateLimitedTimedQueue.SwapLimiter).
    if (qps > 0) this.#tokens = this.#tokens >= 1 ? 1 : 0;
  }

  /**
   * Try: hands each due node to `fn` while tokens last; a node `fn` answers false stays for a
   * retry. Returns when the next token is due (ms since the epoch) if nodes still wait for one.
   */
  async try(now: number, fn: (name: string) => Promise<boolean>): Promise<number | undefined> {
    this.#refill(now);
    for (const [name, at] of [...this.#waiting]) {
      if (at > now) continue;
      if (this.#qps <= 0 || this.#tokens < 1) break;
      this.#tokens -= 1;
      if (await fn(name)) this.#waiting.delete(name);
    }
    if (this.#waiting.size === 0 || this.#qps <= 0) return undefined;
    return now + Math.max(0, Math.ceil(((1 - this.#tokens) / this.#qps) * 1000));
  }

  #refill(now: number): void {
    if (this.#qps > 0)
      this.#tokens = Math.min(1, this.#tokens + ((now - this.#lastRefill) / 1000) * this.#qps);
    this.#lastRefill = now;
  }
}
