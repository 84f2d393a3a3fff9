// A forked child that answers one message at a time: the bench's load generator and the servers it
// runs in processes of their own. A child that exits fails the wait instead of hanging it.
import { fork } from 'node:child_process';
import { once } from 'node:events';

export class ChildChannel<In, Out> {
  readonly #child: ReturnType<typeof fork>;
  readonly #name: string;
  #waiting: { resolve: (m: Out) => void; reject: (e: Error) => void } | undefined;

  constructor(
    module: URL,
    opts: { readonly args?: readonly string[]; readonly execArgv?: readonly string[] },
  ) {
    this.#name = module.pathname.slice(module.pathname.lastIndexOf('/') + 1);
    this.#child = fork(module, [...(opts.args ?? [])], {
      stdio: 'inherit',
      ...(opts.execArgv === undefined ? {} : { execArgv: [...opts.execArgv] }),
    });
    this.#child.on('message', (m: Out) => {
      const w = this.#waiting;
      this.#waiting = undefined;
      w?.resolve(m);
    });
    this.#child.on('exit', (code, signal) => {
      this.#waiting?.reject(new Error(`${this.#name} exited (${code ?? signal ?? '?'})`));
      this.#waiting = undefined;
    });
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** The child's next message. */
  next(): Promise<Out> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null)
      return Promise.reject(new Error(`${this.#name} has exited`));
    if (this.#waiting !== undefined)
      return Promise.reject(new Error(`${this.#name}: one question at a time`));
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
    });
  }

  /** Sends `msg` and resolves with the child's answer. */
  ask(msg: In): Promise<Out> {
    const answer = this.next();
    this.#child.send(msg as object);
    return answer;
  }

  /** Disconnects (the child ends itself on `disconnect`) and waits for the exit. */
  async close(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    const exited = once(this.#child, 'exit');
    if (this.#child.connected) this.#child.disconnect();
    else this.#child.kill();
    await exited;
  }
}
