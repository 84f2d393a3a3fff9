// How rules name a schema object's properties (k8s.io/apiserver pkg/cel/escaping.go, Escape): a
// name that is a CEL identifier as it is; one of CEL's reserved words wrapped in double
// underscores (`namespace` is `__namespace__`); `__`, `.`, `-` and `/` spelled out
// (`foo-bar` is `foo__dash__bar`); and a name with any other character, or starting with a digit,
// not visible to rules at all.

const reserved = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);

const plainIdentifier = /^[A-Za-z_][A-Za-z0-9_]*$/;
const escapable = /^[A-Za-z_./-][A-Za-z0-9_./-]*$/;
const spelled: Readonly<Record<string, string>> = {
  __: '__underscores__',
  '.': '__dot__',
  '-': '__dash__',
  '/': '__slash__',
};

/** The name a rule uses for a property, undefined when rules cannot name it. */
export function escapeName(name: string): string | undefined {
  if (reserved.has(name)) return `__${name}__`;
  if (plainIdentifier.test(name) && !name.includes('__')) return name;
  if (!escapable.test(name)) return undefined;
  return name.replace(/__|[./-]/g, (s) => spelled[s] ?? s);
}

/** A schema object's properties by the names rules use for them, and each name's escaped form. */
export interface PropertyNames<V> {
  readonly byEscaped: ReadonlyMap<string, V>;
  /** The escaped name of each property rules can name. */
  readonly escapedOf: ReadonlyMap<string, string>;
}

const namesByProperties = new WeakMap<object, PropertyNames<unknown>>();

/** The names of a schema's properties, worked out once per properties object. */
export function propertyNames<V>(properties: Readonly<Record<string, V>>): PropertyNames<V> {
  let names = namesByProperties.get(properties) as PropertyNames<V> | undefined;
  if (names === undefined) {
    const byEscaped = new Map<string, V>();
    const escapedOf = new Map<string, string>();
    for (const [name, value] of Object.entries(properties)) {
      const escaped = escapeName(name);
      if (escaped === undefined) continue;
      byEscaped.set(escaped, value);
      escapedOf.set(name, escaped);
    }
    names = { byEscaped, escapedOf };
    namesByProperties.set(properties, names);
  }
  return names;
}
