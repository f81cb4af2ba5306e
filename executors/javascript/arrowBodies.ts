/**
 * Where an expression-bodied arrow's body ends, from tokens alone (instrument.ts guards it as
 * `=> (guard(), body)`). Without this, `Array.from({ length: 1e8 }, () => ({}))` ran one
 * builtin call with no guarded call inside: nothing could stop it, and it took workerd down
 * at V8's heap limit (measured).
 *
 * An arrow's body is an AssignmentExpression, so it ends before the first token at its own
 * bracket depth that cannot belong to one: a closing bracket, `,`, `;`, a `:` that no `?` of
 * the body opened, the `}` that closes a template substitution, or a line break where
 * JavaScript inserts a semicolon (the next token cannot continue the expression). Getting
 * the end wrong in the safe direction is harmless: stopping early only where the rest could
 * not have continued the expression anyway is exactly what a semicolon would do.
 */
import type { Token } from "./tokens.ts";

/** Words after which an expression has not ended (`typeof`, `new`, …): a line break there is no semicolon. */
const operatorWords = new Set([
  "typeof",
  "void",
  "delete",
  "new",
  "await",
  "yield",
  "in",
  "instanceof",
  "of",
  "return",
  "throw",
  "case",
  "do",
  "else",
]);

/** Punctuation that can carry an expression on across a line break. */
const continuing = new Set([
  ".",
  "?.",
  "?",
  "(",
  "[",
  "=>",
  "=",
  "+",
  "-",
  "*",
  "/",
  "%",
  "&",
  "|",
  "^",
  "<",
  ">",
  ":",
  ",",
]);

const isPunct = (token: Token | undefined, value: string) => token?.kind === "punct" && token.value === value;

/** Whether tokens[index] and the one after it touch (`??`, `++`, `!=`): the tokenizer splits them. */
function touches(tokens: Token[], index: number): boolean {
  const next = tokens[index + 1];
  return next !== undefined && (tokens[index] as Token).end === next.start;
}

/** Whether an expression can end with tokens[index] (so a line break after it may be a semicolon). */
function endsExpression(tokens: Token[], index: number): boolean {
  const token = tokens[index];
  if (!token) return false;
  switch (token.kind) {
    case "name":
      return !operatorWords.has(token.value);
    case "template":
      return token.value.endsWith("`");
    case "punct": {
      if (token.value === ")" || token.value === "]" || token.value === "}") return true;
      // A postfix `++`/`--` ends one: the two signs touch and follow an expression.
      const sign = token.value === "+" || token.value === "-";
      return (
        sign &&
        isPunct(tokens[index - 1], token.value) &&
        touches(tokens, index - 1) &&
        endsExpression(tokens, index - 2)
      );
    }
    default:
      return true;
  }
}

/** Whether a line break before tokens[index], after a complete expression, ends it (automatic semicolon). */
function startsNewStatement(tokens: Token[], index: number): boolean {
  const token = tokens[index] as Token;
  if (!token.newlineBefore || !endsExpression(tokens, index - 1)) return false;
  switch (token.kind) {
    case "name":
      return token.value !== "in" && token.value !== "instanceof";
    case "template":
      return false; // a tagged template continues across the break
    case "punct":
      // `++`/`--` on a new line is a prefix of the next statement; `!`, `~` and `{` start one.
      if ((token.value === "+" || token.value === "-") && isPunct(tokens[index + 1], token.value))
        return touches(tokens, index);
      // `!=` continues; a lone `!` is the prefix of the next statement.
      if (token.value === "!") return !(isPunct(tokens[index + 1], "=") && touches(tokens, index));
      return !continuing.has(token.value);
    default:
      return true;
  }
}

/**
 * The index of the token just after the body of the arrow whose `=>` is tokens[arrow]
 * (tokens.length when the body runs to the end), or undefined for a block body.
 */
export function arrowBodyEnd(tokens: Token[], match: Map<number, number>, arrow: number): number | undefined {
  const first = arrow + 1;
  if (first >= tokens.length || isPunct(tokens[first], "{")) return undefined;
  let ternaries = 0;
  /** Template substitutions the body itself opened (`` `a${ `` … `` }b` ``). */
  let substitutions = 0;
  for (let index = first; index < tokens.length; index++) {
    const token = tokens[index] as Token;
    if (index > first && startsNewStatement(tokens, index)) return index;
    if (token.kind === "template") {
      const closes = token.value.startsWith("}");
      // The `}` of a substitution the body did not open ends the body (`${ x => x }`).
      if (closes && substitutions === 0) return index;
      if (closes) substitutions--;
      if (token.value.endsWith("${")) substitutions++;
      continue;
    }
    if (token.kind !== "punct") continue;
    switch (token.value) {
      case "(":
      case "[":
      case "{": {
        const close = match.get(index);
        if (close === undefined) return undefined;
        index = close;
        break;
      }
      case ")":
      case "]":
      case "}":
      case ",":
      case ";":
        return index;
      case "?":
        // `??` is two `?` tokens that touch; only a lone `?` opens a conditional.
        if (isPunct(tokens[index + 1], "?") && touches(tokens, index)) index++;
        else ternaries++;
        break;
      case ":":
        if (ternaries === 0) return index;
        ternaries--;
        break;
    }
  }
  return tokens.length;
}
