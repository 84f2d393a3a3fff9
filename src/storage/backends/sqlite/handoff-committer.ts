// The committer of a file database while its writer thread starts. A Node worker takes ~50–60 ms to
// boot here, and every start's first writes (the bootstrap's namespaces, flow schemas, APIServices)
// waited for it: ~50 ms of a ~90 ms start on an existing data dir. Until the thread's connection is
// open, the backend's own connection commits on this thread (GroupCommitter, as for an in-memory
// database); then the writer thread takes over from the revision those commits reached. One
// committer writes at a time, so revisions stay in order and each event is published once, in order.
import type { WriteResult } from '../../kv/backend.js';
import type { WriteOp } from './apply-write.js';
import type { Committer, GroupCommitStats, GroupCommitter } from './group-commit.js';
import type { MaintenanceOutcome, MaintenanceTask } from './maintenance.js';
import type { WriterCommitter } from './writer-committer.js';

export class HandoffCommitter implements Committer {
  readonly #local: GroupCommitter;
  readonly #writer: WriterCommitter;
  #current: Committer;
  /**
   * Settles once writes go to the writer thread. Also when the thread failed: its writes then fail
   * with what broke it, as they always did.
   */
  readonly handedOver: Promise<void>;

  constructor(local: GroupCommitter, writer: WriterCommitter) {
    this.#local = local;
    this.#writer = writer;
    this.#current = local;
    this.handedOver = writer.ready.then(() => {
      this.#handOver();
    });
  }

  #handOver(): void {
    // What this turn queued commits here first; the thread starts from where that left the file.
    this.#local.flush();
    this.#writer.startAt(this.#local.revision);
    this.#current = this.#writer;
  }

  get revision(): number {
    return this.#current.revision;
  }

  get stats(): GroupCommitStats {
    const local = this.#local.stats;
    const writer = this.#writer.stats;
    return { commits: local.commits + writer.commits, writes: local.writes + writer.writes };
  }

  submit(op: WriteOp): Promise<WriteResult> {
    return this.#current.submit(op);
  }

  /**
   * On the writer thread, after the hand-over: a compaction's deletes and vacuum may wait on locks
   * and take long, which the event loop must not (stop 45); and while this thread commits, the
   * writer holding the file's write lock would fail those commits (this connection waits only
   * busyTimeoutMs for it).
   */
  maintain(task: MaintenanceTask): Promise<MaintenanceOutcome> {
    return this.handedOver.then(() => this.#writer.maintain(task));
  }

  async drain(): Promise<void> {
    await this.#local.drain();
    await this.#writer.drain();
  }

  async close(): Promise<void> {
    await this.#local.close();
    await this.#writer.close();
  }
}
