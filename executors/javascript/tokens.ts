/**
 * A tokenizer for module source, just enough for instrument.ts to find loops, functions and
 * arrow bodies without a parser: it knows strings, templates, comments and regular
 * expressions, and, like every tokenizer without a parser, guesses whether `/` after `)` or
 * `}` starts a regex (it assumes division). Its own file so that arrowBodies.ts can read
 * tokens without importing instrument.ts, which imports it.
 */

type Kind = "name" | "punct" | "string" | "number" | "regex" | "template";

export interface Token {
  kind: Kind;
  value: string;
  start: number;
  end: number;
  newlineBefore: boolean;
}

const regexAfterWords = new Set([
  "return",
  "typeof",
  "instanceof",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "case",
  "do",
  "else",
  "yield",
  "await",
]);

function isNameStart(code: number): boolean {
  return (
    (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 36 || code === 95 || code === 92 || code > 127
  );
}

function isNamePart(code: number): boolean {
  return isNameStart(code) || (code >= 48 && code <= 57);
}

function regexAllowed(previous: Token | undefined): boolean {
  if (!previous) return true;
  switch (previous.kind) {
    case "name":
      return regexAfterWords.has(previous.value);
    case "punct":
      return previous.value !== ")" && previous.value !== "]" && previous.value !== "}";
    case "template":
      return previous.value.endsWith("${");
    default:
      return false;
  }
}

/** Splits module source into tokens; comments and whitespace are dropped (noted as `newlineBefore`). */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  /** For each open `{`: whether it opened a template's `${`. */
  const braces: boolean[] = [];
  let i = source.startsWith("#!") ? source.indexOf("\n") : 0;
  if (i < 0) i = source.length;
  let newline = false;
  const push = (kind: Kind, start: number, end: number) => {
    tokens.push({ kind, value: source.slice(start, end), start, end, newlineBefore: newline });
    newline = false;
  };
  /** Scans template text from `from` (just after `` ` `` or `}`); returns where it stopped. */
  const templateFrom = (start: number, from: number): number => {
    let j = from;
    while (j < source.length) {
      const c = source[j];
      if (c === "\\") j += 2;
      else if (c === "`") {
        push("template", start, j + 1);
        return j + 1;
      } else if (c === "$" && source[j + 1] === "{") {
        push("template", start, j + 2);
        braces.push(true);
        return j + 2;
      } else j++;
    }
    push("template", start, source.length);
    return source.length;
  };
  while (i < source.length) {
    const c = source[i] as string;
    const code = source.charCodeAt(i);
    if (c === "\n" || c === "\r" || c === "\u2028" || c === "\u2029") {
      newline = true;
      i++;
    } else if (c === " " || c === "\t" || code === 0xfeff || code === 0xa0 || code === 0x0b || code === 0x0c) {
      i++;
    } else if (c === "/" && source[i + 1] === "/") {
      const end = source.indexOf("\n", i);
      i = end < 0 ? source.length : end;
    } else if (c === "/" && source[i + 1] === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end < 0 ? source.length : end + 2;
      if (/[\n\r\u2028\u2029]/.test(source.slice(i, stop))) newline = true;
      i = stop;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < source.length && source[j] !== c && source[j] !== "\n") j += source[j] === "\\" ? 2 : 1;
      push("string", i, Math.min(j + 1, source.length));
      i = j + 1;
    } else if (c === "`") {
      i = templateFrom(i, i + 1);
    } else if (c === "/" && regexAllowed(tokens.at(-1))) {
      let j = i + 1;
      let inClass = false;
      while (j < source.length && source[j] !== "\n") {
        const d = source[j];
        if (d === "\\") j++;
        else if (d === "[") inClass = true;
        else if (d === "]") inClass = false;
        else if (d === "/" && !inClass) break;
        j++;
      }
      j++;
      while (j < source.length && isNamePart(source.charCodeAt(j))) j++;
      push("regex", i, j);
      i = j;
    } else if ((code >= 48 && code <= 57) || (c === "." && /[0-9]/.test(source[i + 1] ?? ""))) {
      let j = i + 1;
      while (j < source.length && (isNamePart(source.charCodeAt(j)) || source[j] === ".")) j++;
      push("number", i, j);
      i = j;
    } else if (isNameStart(code) || c === "#") {
      let j = i + 1;
      while (j < source.length && isNamePart(source.charCodeAt(j))) j++;
      push("name", i, j);
      i = j;
    } else if (c === "}" && braces.length > 0 && braces.at(-1) === true) {
      braces.pop();
      i = templateFrom(i, i + 1);
    } else {
      let width = 1;
      if (c === "=" && source[i + 1] === ">") width = 2;
      else if (c === "?" && source[i + 1] === "." && !/[0-9]/.test(source[i + 2] ?? "")) width = 2;
      else if (c === "." && source[i + 1] === "." && source[i + 2] === ".") width = 3;
      if (c === "{") braces.push(false);
      else if (c === "}") braces.pop();
      push("punct", i, i + width);
      i += width;
    }
  }
  return tokens;
}

/** For each opening bracket token's index, its closing one's (and the reverse). */
export function matchBrackets(tokens: Token[]): Map<number, number> {
  const match = new Map<number, number>();
  const open: number[] = [];
  tokens.forEach((token, index) => {
    if (token.kind !== "punct") return;
    if (token.value === "(" || token.value === "[" || token.value === "{") open.push(index);
    else if (token.value === ")" || token.value === "]" || token.value === "}") {
      const from = open.pop();
      if (from === undefined) return;
      match.set(from, index);
      match.set(index, from);
    }
  });
  return match;
}
