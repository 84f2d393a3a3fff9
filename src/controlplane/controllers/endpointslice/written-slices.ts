// The slices this controller wrote, until its informer shows them (kube's endpointSliceTracker and
// its StaleSlices check): a sync planned from a cache that lacks a slice it just created, or still
// holds one it just deleted, would create that slice's endpoints again.
import type { EndpointSlice } from '../../../api/discovery/v1/endpoint-slice.js';

const revision = (s: EndpointSlice): number => Number(s.metadata?.resourceVersion ?? '0');

export class WrittenSlices {
  /** By Service key: each written slice's name and the revision written, -1 for a deletion. */
  readonly #byService = new Map<string, Map<string, number>>();

  wrote(service: string, slice: EndpointSlice): void {
    this.#expect(service, slice.metadata?.name ?? '', revision(slice));
  }

  deleted(service: string, slice: EndpointSlice): void {
    this.#expect(service, slice.metadata?.name ?? '', -1);
  }

  /** The informer saw the slice deleted: nothing of it is awaited any more (kube's HandleDeletion). */
  gone(service: string, name: string): void {
    const expected = this.#byService.get(service);
    expected?.delete(name);
    if (expected?.size === 0) this.#byService.delete(service);
  }

  /** The Service is gone: its writes are not awaited any more. */
  forget(service: string): void {
    this.#byService.delete(service);
  }

  /** Whether `seen` (the informer's slices of the Service) lacks a write; forgets the writes it shows. */
  stale(service: string, seen: readonly EndpointSlice[]): boolean {
    const expected = this.#byService.get(service);
    if (expected === undefined) return false;
    const byName = new Map(seen.map((s) => [s.metadata?.name ?? '', s]));
    for (const [name, rv] of expected) {
      const slice = byName.get(name);
      const caught = rv < 0 ? slice === undefined : slice !== undefined && revision(slice) >= rv;
      if (caught) expected.delete(name);
    }
    if (expected.size > 0) return true;
    this.#byService.delete(service);
    return false;
  }

  #expect(service: string, name: string, rv: number): void {
    let expected = this.#byService.get(service);
    if (expected === undefined) this.#byService.set(service, (expected = new Map<string, number>()));
    expected.set(name, rv);
  }
}
