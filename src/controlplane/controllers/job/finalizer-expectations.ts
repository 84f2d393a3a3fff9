// uidTrackingExpectations (pkg/controller/job/tracking_utils.go): per Job, the UIDs of pods whose
// tracking finalizer the controller removed but whose update its informer has not shown yet. Such a
// pod is treated as already without the finalizer, so it is neither counted twice nor held back.
export class FinalizerExpectations {
  readonly #byJob = new Map<string, Set<string>>();

  /** A copy of the UIDs still expected for the Job. */
  expected(jobKey: string): ReadonlySet<string> {
    return new Set(this.#byJob.get(jobKey));
  }

  expectRemoved(jobKey: string, uids: readonly string[]): void {
    let set = this.#byJob.get(jobKey);
    if (set === undefined) {
      set = new Set();
      this.#byJob.set(jobKey, set);
    }
    for (const uid of uids) set.add(uid);
  }

  removalObserved(jobKey: string, uid: string): void {
    this.#byJob.get(jobKey)?.delete(uid);
  }

  forget(jobKey: string): void {
    this.#byJob.delete(jobKey);
  }
}
