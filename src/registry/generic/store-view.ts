// What a view of a Store at another version answers without converting anything: its served
// apiVersion and kind for new objects and lists, and the inner store's scope and names. The
// converting views (ConvertingView, AsyncConvertingView) add the verbs, each converting its way.
import type { KubeList, KubeObject } from '../../api/meta.js';
import type {
  CategoriesProvider,
  Scoper,
  ShortNamesProvider,
  SingularNameProvider,
  Storage,
} from '../rest/capabilities.js';
import type { Store } from './store.js';

export abstract class StoreView<Outer extends KubeObject, Inner extends KubeObject>
  implements Storage, Scoper, ShortNamesProvider, CategoriesProvider, SingularNameProvider
{
  protected readonly inner: Store<Inner>;
  readonly #served: { readonly apiVersion: string; readonly kind: string };

  protected constructor(inner: Store<Inner>, served: { readonly apiVersion: string; readonly kind: string }) {
    this.inner = inner;
    this.#served = served;
  }

  /** The inner store's stored objects (StoredVersionConverter). */
  get storedIdentity(): object {
    return this.inner.storedIdentity;
  }

  newObject(): Outer {
    return { apiVersion: this.#served.apiVersion, kind: this.#served.kind } as Outer;
  }
  newList(): KubeList<Outer> {
    return { apiVersion: this.#served.apiVersion, kind: `${this.#served.kind}List`, metadata: {}, items: [] };
  }
  /** The inner store belongs to whoever built it; several views may share it. */
  destroy(): Promise<void> {
    return this.inner.destroy();
  }
  namespaceScoped(): boolean {
    return this.inner.namespaceScoped();
  }
  shortNames(): readonly string[] {
    return this.inner.shortNames();
  }
  categories(): readonly string[] {
    return this.inner.categories();
  }
  singularName(): string {
    return this.inner.singularName();
  }
}
