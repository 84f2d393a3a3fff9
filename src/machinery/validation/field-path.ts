// The path from a root to a field, as k8s.io/apimachinery/pkg/util/validation/field/path.go.

/** An immutable field path: `metadata.labels[app]`, `spec.containers[0].name`. */
export class FieldPath {
  // A named element has a name; a subscript (index or map key) has name === ''.
  readonly #name: string;
  readonly #index: string;
  readonly #parent: FieldPath | undefined;

  private constructor(name: string, index: string, parent: FieldPath | undefined) {
    this.#name = name;
    this.#index = index;
    this.#parent = parent;
  }

  /** A root path, optionally extended by more names: `FieldPath.of('metadata', 'name')`. */
  static of(name: string, ...moreNames: string[]): FieldPath {
    let path = new FieldPath(name, '', undefined);
    for (const next of moreNames) path = new FieldPath(next, '', path);
    return path;
  }

  /** A path below this one, by one or more names. */
  child(name: string, ...moreNames: string[]): FieldPath {
    let path = new FieldPath(name, '', this);
    for (const next of moreNames) path = new FieldPath(next, '', path);
    return path;
  }

  /** This path subscripted by a list index: `containers[0]`. */
  index(index: number): FieldPath {
    return new FieldPath('', String(index), this);
  }

  /** This path subscripted by a map key: `labels[app]`. */
  key(key: string): FieldPath {
    return new FieldPath('', key, this);
  }

  /** The first element of this path. */
  root(): FieldPath {
    return this.#parent === undefined ? this : this.#parent.root();
  }

  toString(): string {
    const parent = this.#parent === undefined ? '' : this.#parent.toString();
    if (this.#name.length === 0) return `${parent}[${this.#index}]`;
    return this.#parent === undefined ? this.#name : `${parent}.${this.#name}`;
  }
}

/** kube's `field.NewPath`. */
export function newPath(name: string, ...moreNames: string[]): FieldPath {
  return FieldPath.of(name, ...moreNames);
}

/** A path's text, `<nil>` for none, as kube prints a nil *Path. */
export function pathString(path: FieldPath | undefined): string {
  return path === undefined ? '<nil>' : path.toString();
}

/** `path.child(name)`, where a missing path starts a new root as kube's nil-receiver Child does. */
export function childOf(path: FieldPath | undefined, name: string): FieldPath {
  return path === undefined ? FieldPath.of(name) : path.child(name);
}
