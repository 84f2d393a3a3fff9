// The label selector parser of k8s.io/apimachinery/pkg/labels/selector.go, with kube's messages.
import { compareGoStrings, type FieldPath } from '../validation/index.js';
import { Lexer, type ScannedItem, type Token } from './lexer.js';
import { binaryOperators, type Operator } from './operator.js';
import { newRequirement, validateLabelKey, type Requirement } from './requirement.js';

// `in` and `notin` are values where values are expected: `x in (in)`.
type Context = 'keyAndOperator' | 'values';

// Unwinds the recursive descent to parseToRequirements, which turns it into a result.
class ParseError extends Error {}

const operatorOf: Partial<Readonly<Record<Token, Operator>>> = {
  in: 'in',
  equals: '=',
  doubleEquals: '==',
  greaterThan: 'gt',
  lessThan: 'lt',
  notIn: 'notin',
  notEquals: '!=',
};

class Parser {
  readonly #items: ScannedItem[] = [];
  readonly #path: FieldPath | undefined;
  #position = 0;

  constructor(selector: string, path: FieldPath | undefined) {
    this.#path = path;
    const lexer = new Lexer(selector);
    for (;;) {
      const item = lexer.lex();
      this.#items.push(item);
      if (item.token === 'endOfString') break;
    }
  }

  #item(at: number, context: Context): ScannedItem {
    const item = this.#items[Math.min(at, this.#items.length - 1)] as ScannedItem;
    if (context === 'values' && (item.token === 'in' || item.token === 'notIn')) {
      return { token: 'identifier', literal: item.literal };
    }
    return item;
  }

  #lookahead(context: Context): ScannedItem {
    return this.#item(this.#position, context);
  }

  #consume(context: Context): ScannedItem {
    return this.#item(this.#position++, context);
  }

  parse(): Requirement[] {
    const requirements: Requirement[] = [];
    for (;;) {
      const { token, literal } = this.#lookahead('values');
      if (token === 'endOfString') return requirements;
      if (token !== 'identifier' && token !== 'doesNotExist') {
        throw new ParseError(`found '${literal}', expected: !, identifier, or 'end of string'`);
      }
      requirements.push(this.#parseRequirementOrWrap());
      const next = this.#consume('values');
      if (next.token === 'endOfString') return requirements;
      if (next.token !== 'comma') {
        throw new ParseError(`found '${next.literal}', expected: ',' or 'end of string'`);
      }
      const after = this.#lookahead('values');
      if (after.token !== 'identifier' && after.token !== 'doesNotExist') {
        throw new ParseError(`found '${after.literal}', expected: identifier after ','`);
      }
    }
  }

  #parseRequirementOrWrap(): Requirement {
    try {
      return this.#parseRequirement();
    } catch (err) {
      if (err instanceof ParseError) throw new ParseError(`unable to parse requirement: ${err.message}`);
      throw err;
    }
  }

  #parseRequirement(): Requirement {
    const { key, operator: inferred } = this.#parseKeyAndInferOperator();
    let values: string[] = [];
    let operator: Operator;
    if (inferred !== undefined) {
      operator = inferred;
    } else {
      operator = this.#parseOperator();
      values = operator === 'in' || operator === 'notin' ? this.#parseValues() : this.#parseExactValue();
    }
    const result = newRequirement({ key, operator, values }, this.#path);
    if (!result.ok) throw new ParseError(result.error.error());
    return result.requirement;
  }

  // A lone key (or `!key`) ends at ',' or the end; `!key` followed by anything else still
  // yields DoesNotExist, and the caller then trips over what follows.
  #parseKeyAndInferOperator(): { key: string; operator: Operator | undefined } {
    let operator: Operator | undefined;
    let item = this.#consume('values');
    if (item.token === 'doesNotExist') {
      operator = '!';
      item = this.#consume('values');
    }
    if (item.token !== 'identifier') throw new ParseError(`found '${item.literal}', expected: identifier`);
    const keyErr = validateLabelKey(item.literal, this.#path);
    if (keyErr !== undefined) throw new ParseError(keyErr.error());
    const next = this.#lookahead('values').token;
    if ((next === 'endOfString' || next === 'comma') && operator === undefined) operator = 'exists';
    return { key: item.literal, operator };
  }

  #parseOperator(): Operator {
    const { token, literal } = this.#consume('keyAndOperator');
    const operator = operatorOf[token];
    if (operator === undefined) {
      throw new ParseError(`found '${literal}', expected: ${binaryOperators.join(', ')}`);
    }
    return operator;
  }

  #parseValues(): string[] {
    const open = this.#consume('values');
    if (open.token !== 'openPar') throw new ParseError(`found '${open.literal}' expected: '('`);
    const { token, literal } = this.#lookahead('values');
    if (token === 'identifier' || token === 'comma') {
      const values = this.#parseIdentifiersList();
      if (this.#consume('values').token !== 'closedPar')
        throw new ParseError(`found '${literal}', expected: ')'`);
      return values;
    }
    if (token === 'closedPar') {
      this.#consume('values');
      return [''];
    }
    throw new ParseError(`found '${literal}', expected: ',', ')' or identifier`);
  }

  // A comma-separated, possibly empty list of possibly empty values; sorted and deduplicated
  // as kube's sets.String returns them.
  #parseIdentifiersList(): string[] {
    const set = new Set<string>();
    for (;;) {
      const { token, literal } = this.#consume('values');
      if (token === 'identifier') {
        set.add(literal);
        const next = this.#lookahead('values');
        if (next.token === 'comma') continue;
        if (next.token === 'closedPar') break;
        throw new ParseError(`found '${next.literal}', expected: ',' or ')'`);
      }
      if (token !== 'comma') throw new ParseError(`found '${literal}', expected: ',', or identifier`);
      if (set.size === 0) set.add('');
      const next = this.#lookahead('values').token;
      if (next === 'closedPar') {
        set.add('');
        break;
      }
      if (next === 'comma') {
        this.#consume('values');
        set.add('');
      }
    }
    return [...set].sort(compareGoStrings);
  }

  #parseExactValue(): string[] {
    const ahead = this.#lookahead('values').token;
    if (ahead === 'endOfString' || ahead === 'comma') return [''];
    const { token, literal } = this.#consume('values');
    if (token === 'identifier') return [literal];
    throw new ParseError(`found '${literal}', expected: identifier`);
  }
}

export type ParseRequirementsResult =
  | { readonly ok: true; readonly requirements: Requirement[] }
  | { readonly ok: false; readonly message: string };

/**
 * Parses selector syntax into requirements sorted by key (kube's ParseToRequirements); the
 * message of a failure is kube's. `path` prefixes the field paths inside those messages.
 */
export function parseToRequirements(selector: string, path?: FieldPath): ParseRequirementsResult {
  try {
    const requirements = new Parser(selector, path).parse();
    // Stable, where kube's sort.Sort may put two requirements on one key either way round.
    requirements.sort((a, b) => compareGoStrings(a.key, b.key));
    return { ok: true, requirements };
  } catch (err) {
    if (err instanceof ParseError) return { ok: false, message: err.message };
    throw err;
  }
}
