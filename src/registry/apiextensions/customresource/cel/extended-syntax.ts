// Parsing CEL as kube 1.33's environment reads it, where that goes beyond @bufbuild/cel's parser:
// optional syntax and the optMap macros (optional-syntax.ts) and two-variable comprehensions
// (two-var-comprehensions.ts). The source is parsed with its optional marks blanked
// (optional-marks.ts), then the tree is rewritten bottom-up, each node after its children.
import { CelSyntaxError, ExprBuilder, mapChildren, type Expr, type Parsed } from './expr-builder.js';
import type { CelModule } from './load.js';
import { markOptionalSyntax } from './optional-marks.js';
import { mayUseOptMap, OptionalRewrites } from './optional-syntax.js';
import { expandTwoVar, mayUseTwoVar } from './two-var-comprehensions.js';

/**
 * Parses an expression as cel-go does in kube's environment. Throws the parser's error for text
 * that does not parse, and a CelSyntaxError (read alike) for syntax nothing here evaluates.
 */
export function parseExtended(cel: CelModule, source: string): Parsed {
  const marked = markOptionalSyntax(source);
  const parsed = cel.parse(marked?.text ?? source);
  if (marked === undefined && !mayUseOptMap(source) && !mayUseTwoVar(source)) return parsed;
  const positions = parsed.sourceInfo?.positions;
  if (positions === undefined) return parsed;
  const b = new ExprBuilder(positions);
  const optional = new OptionalRewrites(b, marked?.marks);
  const walk = (e: Expr): Expr => {
    e.exprKind = mapChildren(e, walk);
    const k = e.exprKind;
    switch (k.case) {
      case 'selectExpr':
        return optional.select(e);
      case 'callExpr':
        return expandTwoVar(b, e, k.value) ?? optional.call(e, k.value);
      case 'listExpr':
        return optional.list(e);
      case 'structExpr':
        return optional.struct(e);
      case 'constExpr':
      case 'identExpr':
      case 'comprehensionExpr':
      case undefined:
        return e;
    }
  };
  parsed.expr = walk(parsed.expr);
  const unused = optional.unused();
  if (unused !== undefined) throw new CelSyntaxError(unused, "unsupported syntax '?'");
  return parsed;
}
