// The controllers that must run once per cluster (kube-controller-manager's, which Capstan runs in
// the server), started on the replica that holds the controllers' Lease and stopped when it loses
// it. Each is given as a factory, since a stopped controller is not started again: leading anew
// builds fresh ones. The post-start hooks stay one per controller, each done at once, so a replica
// that does not lead is ready all the same.
import type { RunnableController } from '../controllers/controller-hook.js';
import type { LeaderElector } from './leader-elector.js';

interface Gated {
  readonly factory: () => RunnableController | undefined;
  /** Built and not yet run: the first one is built with the assembly, as before. */
  ready: RunnableController | undefined;
  running: RunnableController | undefined;
  wanted: boolean;
}

export class LeaderControllers {
  readonly #gated: Gated[] = [];
  #elector: LeaderElector | undefined;
  #electorStarted = false;
  #leading = false;

  /** The callbacks the elector is built with. */
  readonly callbacks = {
    onStartedLeading: (): void => {
      this.#leading = true;
      for (const g of this.#gated) if (g.wanted) this.#start(g);
    },
    onStoppedLeading: (): void => {
      this.#leading = false;
      for (const g of this.#gated) void this.#stop(g);
    },
  };

  attach(elector: LeaderElector): void {
    this.#elector = elector;
  }

  /** The replica running the controllers (the Lease's holder), if any; see LeaderElector.holder. */
  async holder(): Promise<string | undefined> {
    return this.#elector?.holder();
  }

  /**
   * A controller whose run() and close() follow leadership; undefined when the factory makes none
   * (its resources are not served). The factory is called now and again for each later start.
   */
  controller(factory: () => RunnableController | undefined): RunnableController | undefined {
    const first = factory();
    if (first === undefined) return undefined;
    const g: Gated = { factory, ready: first, running: undefined, wanted: false };
    this.#gated.push(g);
    return {
      run: () => {
        g.wanted = true;
        if (this.#leading) this.#start(g);
        if (!this.#electorStarted) {
          this.#electorStarted = true;
          this.#elector?.run();
        }
      },
      close: async () => {
        g.wanted = false;
        await this.#discard(g);
      },
    };
  }

  #start(g: Gated): void {
    if (g.running !== undefined) return;
    const next = g.ready ?? g.factory();
    g.ready = undefined;
    g.running = next;
    next?.run();
  }

  async #stop(g: Gated): Promise<void> {
    const running = g.running;
    g.running = undefined;
    await running?.close();
  }

  async #discard(g: Gated): Promise<void> {
    const ready = g.ready;
    g.ready = undefined;
    await Promise.all([this.#stop(g), ready?.close()]);
  }

  /** Gives up leadership (releasing the Lease) and stops every controller. */
  async close(): Promise<void> {
    await this.#elector?.close();
    await Promise.all(this.#gated.map((g) => this.#discard(g)));
  }
}
