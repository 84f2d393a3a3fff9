// The storage of a review (the access and rules reviews, SelfSubjectReview, TokenReview): create
// only, the answer computed from the request and never stored. Its kind and scope are given once.
import type { KubeObject } from '../../api/meta.js';
import type { Creater, Scoper, Storage, ValidateObjectFunc } from './capabilities.js';
import type { RequestContext } from './context.js';
import type { CreateOptions } from './options.js';

export interface ReviewKind<T extends KubeObject> {
  /** The empty object of the kind (apiVersion, kind, and an empty spec where it has one). */
  readonly newObject: () => T;
  readonly namespaced?: boolean;
}

export abstract class ReviewREST<T extends KubeObject> implements Storage, Creater, Scoper {
  readonly #kind: ReviewKind<T>;

  constructor(kind: ReviewKind<T>) {
    this.#kind = kind;
  }

  newObject(): T {
    return this.#kind.newObject();
  }
  namespaceScoped(): boolean {
    return this.#kind.namespaced ?? false;
  }
  singularName(): string {
    return String(this.#kind.newObject().kind).toLowerCase();
  }
  destroy(): void {
    // Nothing is held.
  }

  abstract create(
    ctx: RequestContext,
    obj: KubeObject,
    opts: { options: CreateOptions; validate?: ValidateObjectFunc },
  ): Promise<KubeObject>;
}
