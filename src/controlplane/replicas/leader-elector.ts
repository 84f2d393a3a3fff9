// Leader election for the controllers that run once per cluster, with client-go's leaderelection
// timings (LeaseDuration, RenewDeadline, RetryPeriod) over a coordination.k8s.io/v1 Lease in
// kube-system. The Lease is created with an etcd lease of LeaseDuration that the holder keeps alive
// every RetryPeriod, so holding it writes nothing (the store's revision stays while the cluster is
// idle); a holder that dies stops renewing, etcd deletes the Lease after LeaseDuration, and a
// candidate, which looks every RetryPeriod, creates it for itself with leaseTransitions + 1. A
// holder that cannot renew for RenewDeadline, or finds the Lease gone or taken, stops leading.
// On a local store (one process) there is nothing to elect: it leads at once and writes nothing.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Lease } from '../../api/coordination/v1/lease.js';
import type { Clock, ClockTimer } from '../../machinery/time/clock.js';
import type { Logger } from '../../server/logging/logger.js';
import type { LeaderElectionTimings } from '../../server/options/replica-options.js';
import type { Backend } from '../../storage/kv/backend.js';
import { errorText } from '../../server/logging/error-text.js';
import { microTime } from './micro-time.js';

export const controllersLeaseName = 'capstan-controller-manager';
export const controllersLeaseNamespace = 'kube-system';

export interface LeaderCallbacks {
  onStartedLeading(): void;
  onStoppedLeading(): void;
}

export interface LeaderElectorInit {
  readonly backend: Backend;
  /** The storage prefix (--etcd-prefix). */
  readonly prefix: string;
  readonly timings: LeaderElectionTimings;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly callbacks: LeaderCallbacks;
  /** Default: `<hostname>_<uuid>`, as kube-controller-manager's. */
  readonly identity?: string;
}

type State =
  | { readonly kind: 'candidate' }
  | { readonly kind: 'leading'; readonly lease: string; lastRenew: number }
  | { readonly kind: 'closed' };

export const leaseKey = (prefix: string, namespace: string, name: string): string =>
  `${prefix.replace(/\/+$/, '')}/leases/${namespace}/${name}`;

export class LeaderElector {
  readonly #init: LeaderElectorInit;
  readonly #key: string;
  readonly identity: string;
  #state: State = { kind: 'candidate' };
  #timer: ClockTimer | undefined;
  /** The transitions count of the last Lease seen, so a take-over counts one more. */
  #observedTransitions: number | undefined;
  #busy: Promise<void> = Promise.resolve();

  constructor(init: LeaderElectorInit) {
    this.#init = init;
    this.#key = leaseKey(init.prefix, controllersLeaseNamespace, controllersLeaseName);
    this.identity = init.identity ?? `${hostname()}_${randomUUID()}`;
  }

  get isLeader(): boolean {
    return this.#state.kind === 'leading';
  }

  /**
   * Who runs the controllers now: this replica's identity while it leads, else the holder the
   * stored Lease names (on etcd the Lease lives only as long as its holder renews it); undefined
   * when no replica holds it.
   */
  async holder(): Promise<string | undefined> {
    if (this.#state.kind === 'leading') return this.identity;
    if (this.#init.backend.sessions === undefined) return undefined;
    const { kv } = await this.#init.backend.get(this.#key);
    if (kv === null) return undefined;
    return (JSON.parse(kv.value.toString('utf8')) as Lease).spec?.holderIdentity;
  }

  run(): void {
    if (this.#init.backend.sessions === undefined) {
      this.#state = { kind: 'leading', lease: '', lastRenew: this.#init.clock.now() };
      this.#init.callbacks.onStartedLeading();
      return;
    }
    this.#tick();
  }

  #schedule(): void {
    if (this.#state.kind === 'closed') return;
    // client-go's wait.JitterUntil(RetryPeriod, 1.2): up to 20 % later, so candidates spread out.
    const ms = this.#init.timings.retryPeriodMs * (1 + Math.random() * 0.2);
    this.#timer = this.#init.clock.setTimeout(() => {
      this.#tick();
    }, ms);
  }

  #tick(): void {
    this.#busy = this.#step()
      .catch((err: unknown) => {
        this.#init.logger.v(2, 'leader election attempt failed', { lease: this.#key, err: errorText(err) });
      })
      .finally(() => {
        this.#schedule();
      });
  }

  async #step(): Promise<void> {
    const state = this.#state;
    if (state.kind === 'candidate') await this.#tryAcquire();
    else if (state.kind === 'leading') await this.#renew(state);
  }

  async #tryAcquire(): Promise<void> {
    const { backend, timings, clock } = this.#init;
    const sessions = backend.sessions;
    if (sessions === undefined) return;
    const { kv } = await backend.get(this.#key);
    if (kv !== null) {
      const held = JSON.parse(kv.value.toString('utf8')) as Lease;
      this.#observedTransitions = held.spec?.leaseTransitions ?? 0;
      return;
    }
    const lease = await sessions.grant(Math.ceil(timings.leaseDurationMs / 1000));
    const now = clock.now();
    const transitions = this.#observedTransitions === undefined ? 0 : this.#observedTransitions + 1;
    const created = await backend.create(
      this.#key,
      Buffer.from(JSON.stringify(this.#lease(now, transitions))),
      {
        lease,
      },
    );
    if (!created.ok) {
      await sessions.revoke(lease).catch(() => undefined);
      return;
    }
    if (this.#state.kind !== 'candidate') {
      await sessions.revoke(lease).catch(() => undefined);
      return;
    }
    this.#observedTransitions = transitions;
    this.#state = { kind: 'leading', lease, lastRenew: now };
    this.#init.logger.info('successfully acquired lease', {
      lease: `${controllersLeaseNamespace}/${controllersLeaseName}`,
      identity: this.identity,
    });
    this.#init.callbacks.onStartedLeading();
  }

  #lease(now: number, transitions: number): Lease {
    return {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        name: controllersLeaseName,
        namespace: controllersLeaseNamespace,
        uid: randomUUID(),
        creationTimestamp: new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      },
      spec: {
        holderIdentity: this.identity,
        leaseDurationSeconds: Math.ceil(this.#init.timings.leaseDurationMs / 1000),
        acquireTime: microTime(now),
        renewTime: microTime(now),
        leaseTransitions: transitions,
      },
    };
  }

  async #renew(state: Extract<State, { kind: 'leading' }>): Promise<void> {
    const { backend, clock, timings } = this.#init;
    let lost: string | undefined;
    try {
      const left = await backend.sessions?.keepAlive(state.lease);
      const { kv } = await backend.get(this.#key);
      const holder =
        kv === null ? undefined : (JSON.parse(kv.value.toString('utf8')) as Lease).spec?.holderIdentity;
      if (left === undefined || left <= 0) lost = 'the lease expired';
      else if (holder !== this.identity)
        lost = `the Lease is ${holder === undefined ? 'gone' : `held by ${holder}`}`;
      else state.lastRenew = clock.now();
    } catch (err) {
      if (clock.now() - state.lastRenew > timings.renewDeadlineMs)
        lost = `failed to renew within the renew deadline: ${errorText(err)}`;
    }
    if (lost !== undefined && this.#state === state) this.#stepDown(state, lost);
  }

  #stepDown(state: Extract<State, { kind: 'leading' }>, why: string): void {
    this.#init.logger.error('leaderelection lost', undefined, { lease: this.#key, reason: why });
    this.#state = { kind: 'candidate' };
    void this.#init.backend.sessions?.revoke(state.lease).catch(() => undefined);
    this.#init.callbacks.onStoppedLeading();
  }

  /** Stops; a holder releases the Lease (its etcd lease revoked) so another replica takes over at once. */
  async close(): Promise<void> {
    const state = this.#state;
    this.#state = { kind: 'closed' };
    this.#timer?.cancel();
    await this.#busy;
    if (state.kind === 'leading') {
      this.#init.callbacks.onStoppedLeading();
      if (state.lease !== '') await this.#init.backend.sessions?.revoke(state.lease).catch(() => undefined);
    }
  }
}
