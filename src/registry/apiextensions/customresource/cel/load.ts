// The CEL library (@bufbuild/cel) is loaded on first use, so a server whose CRDs carry no
// x-kubernetes-validations never loads it (it and @bufbuild/protobuf are ~0.5 MB of code). It is
// required through its CommonJS build, not import()ed: the command runs from a V8 code cache, where
// a script has no import() loader (src/cmd/code-cache.ts). Once loaded the synchronous CRD
// validation path can use it (loadedCel).
import { createRequire } from 'node:module';
import type * as Cel from '@bufbuild/cel';
import type * as CelExt from '@bufbuild/cel/ext';
import type * as Protobuf from '@bufbuild/protobuf';
import type * as Wkt from '@bufbuild/protobuf/wkt';
import { AuthzSessions, authzFunctions } from './authz-library.js';
import type { CheckFunctions } from './check.js';
import { kubeFunctions } from './library.js';
import { UnorderedLists } from './list-semantics.js';
import { CostMeters, meteredFuncs, planMetered, type MeteredProgram } from './metering.js';
import { formatLibrary } from './format-library.js';
import { netLibrary } from './net-library.js';
import { optionalLibrary, type OptionalLibrary } from './optional-library.js';
import { parseExtended } from './extended-syntax.js';
import { stringFunctions } from './strings-library.js';
import { conversionFunctions } from './conversions-library.js';
import { twoVarFunctions } from './two-var-comprehensions.js';
import { quantityLibrary } from './quantity-library.js';
import { urlLibrary } from './url-library.js';

export type CelModule = typeof Cel;

export interface CelLibrary {
  readonly cel: CelModule;
  /** CEL's timestamps and durations (google.protobuf messages), for string formats (format-values.ts). */
  readonly timestamp: (seconds: bigint, nanos: number) => Cel.CelInput;
  readonly duration: (seconds: bigint, nanos: number) => Cel.CelInput;
  /**
   * The environment of rules: standard functions, the strings extension and kube's extras, each
   * charging its calls to a metered evaluation (metering.ts).
   */
  readonly env: Cel.CelEnv;
  /** The environment's functions as the type check asks of them (check.ts). */
  readonly checkFunctions: CheckFunctions;
  /** Plans a parsed expression whose evaluations are held to kube's per-call cost limit. */
  readonly plan: (parsed: ReturnType<CelModule['parse']>) => MeteredProgram;
  /** The admission expressions' `authorizer` (kube's authz library): an evaluation opens a session. */
  readonly authz: AuthzSessions;
  /** Parses an expression as cel-go does in kube's environment (extended-syntax.ts). */
  readonly parse: (source: string, optionalVars?: ReadonlySet<string>) => ReturnType<CelModule['parse']>;
  /** The marks of set and map lists, which compare and concatenate as kube's (values.ts). */
  readonly unordered: UnorderedLists;
  /** Optional values, for bindings (an optionalOldSelf rule's oldSelf). */
  readonly optional: Pick<OptionalLibrary, 'of' | 'none'>;
}

let loaded: Promise<CelLibrary> | undefined;
let ready: CelLibrary | undefined;

const requireCommonJS = createRequire(import.meta.url);

async function importCel(): Promise<CelLibrary> {
  await Promise.resolve(); // callers await a load that may fail; keep the throw asynchronous
  const cel = requireCommonJS('@bufbuild/cel') as CelModule;
  const ext = requireCommonJS('@bufbuild/cel/ext') as typeof CelExt;
  const protobuf = requireCommonJS('@bufbuild/protobuf') as typeof Protobuf;
  const wkt = requireCommonJS('@bufbuild/protobuf/wkt') as typeof Wkt;
  const authz = new AuthzSessions();
  const quantity = quantityLibrary({ cel, protobuf, wkt });
  const net = netLibrary({ cel, protobuf, wkt });
  const url = urlLibrary({ cel, protobuf, wkt });
  const optional = optionalLibrary({ cel, protobuf, wkt });
  const format = formatLibrary({ cel, protobuf, wkt }, optional);
  const registry = protobuf.createRegistry(quantity.desc, ...net.descs, url.desc, optional.desc, format.desc);
  const unmetered = cel.celEnv({
    funcs: [
      ...ext.strings,
      ...stringFunctions(cel),
      ...conversionFunctions({ cel, protobuf, wkt }),
      ...kubeFunctions(cel),
      ...quantity.funcs,
      ...net.funcs,
      ...url.funcs,
      ...optional.funcs,
      ...format.funcs,
      ...twoVarFunctions(cel),
      ...authzFunctions(cel, authz),
    ],
    registry,
  });
  // Every function again, the standard ones included, wrapped to charge what it costs; `==`, `!=`
  // and list `+` as kube's for set and map lists.
  const unordered = new UnorderedLists();
  const own = (name: string, id: string): Cel.CelFunc => {
    const f = [...(unmetered.funcs.find(name) ?? [])].find((x) => x.id === id);
    if (f === undefined) throw new Error(`no ${id} in the CEL environment`);
    return f;
  };
  const replaced = new Map(
    unordered
      .funcs(cel, { equals: own('_==_', '_==_(dyn,dyn)'), add: own('_+_', '_+_(list,list)') })
      .map((f) => [f.id, f]),
  );
  const funcs = [...unmetered.funcs].map((f) => replaced.get(f.id) ?? f);
  const meters = new CostMeters(cel);
  const env = cel.celEnv({ funcs: meteredFuncs(cel, { funcs, meters }), registry });
  ready = {
    cel,
    env,
    plan: (parsed) => planMetered(cel, { env, meters, parsed }),
    checkFunctions: {
      known: (name) => env.funcs.find(name) !== undefined,
      evaluatesToError: (call) => cel.isCelError(cel.plan(env, call)({})),
    },
    unordered,
    authz,
    parse: (source, optionalVars) => parseExtended(cel, source, optionalVars),
    optional,
    timestamp: (seconds, nanos) => protobuf.create(wkt.TimestampSchema, { seconds, nanos }),
    duration: (seconds, nanos) => protobuf.create(wkt.DurationSchema, { seconds, nanos }),
  };
  return ready;
}

/** Imports the library once. */
export function loadCel(): Promise<CelLibrary> {
  loaded ??= importCel();
  return loaded;
}

/** The library if an earlier loadCel() has finished. */
export function loadedCel(): CelLibrary | undefined {
  return ready;
}
