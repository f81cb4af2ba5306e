/**
 * Makes module code stoppable: every loop test and function body calls the run's guard
 * (guest/guard.ts), which throws once the run is over (timeout, kill, CPU or memory limit).
 *
 * - `while (test)` and `do … while (test)` become `while (guard() && (test))`;
 * - `for (init; test; update)` becomes `for (init; guard() && (test); update)`;
 * - a function, method or block-bodied arrow gets `guard();` as its first statement;
 * - an expression-bodied arrow `=> body` becomes `=> (guard(), body)` (arrowBodies.ts).
 *
 * That covers busy loops, runaway recursion through promises (`async f() { await 0;
 * f() }`) and builtins driven by callbacks (`Array.from({ length: 1e9 }, () => ({}))`).
 * Not covered: for-in/for-of loops whose iterator is a builtin (always finite) and builtins
 * given builtin callbacks (`.map(String)`); those are ended by the platform's CPU limit in
 * production, and by nothing locally (docs: README.md).
 *
 * The edits never add lines, so line numbers in stack traces stay true (columns on an
 * edited line shift). The tokenizer knows strings, templates, comments and regular
 * expressions; like every tokenizer without a parser it guesses whether `/` after `)` or
 * `}` starts a regex (it assumes division).
 */

import { arrowBodyEnd } from "./arrowBodies.ts";

export interface Edit {
  start: number;
  end: number;
  text: string;
}

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

/** Keywords whose `(…) {` is a statement's block, never a function body. */
const blockWords = new Set(["if", "switch", "while", "for", "with", "catch"]);

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

const isPunct = (token: Token | undefined, value: string) => token?.kind === "punct" && token.value === value;
const isWord = (token: Token | undefined, value: string) => token?.kind === "name" && token.value === value;
const isMember = (token: Token | undefined) => isPunct(token, ".") || isPunct(token, "?.");

/** The edits that guard `source`'s loops and functions with `guard` (a global function's name). */
export function guardEdits(source: string, guard: string): Edit[] {
  const tokens = tokenize(source);
  const match = matchBrackets(tokens);
  const edits: Edit[] = [];
  const call = `${guard}()`;
  const insert = (at: number, text: string) => edits.push({ start: at, end: at, text });
  /** Bracket depth at which a `class` keyword waits for its body's `{`. */
  const classes: number[] = [];
  let depth = 0;

  tokens.forEach((token, index) => {
    const previous = tokens[index - 1];
    if (token.kind === "name" && !isMember(previous)) {
      if (token.value === "class" && !isPunct(tokens[index + 1], ":")) classes.push(depth);
      if (token.value === "while" && isPunct(tokens[index + 1], "(")) {
        const close = match.get(index + 1);
        if (close === undefined) return;
        insert((tokens[index + 1] as Token).end, `${call} && (`);
        insert((tokens[close] as Token).start, ")");
      }
      if (token.value === "for") guardFor(tokens, match, index, call, insert);
    }
    if (token.kind !== "punct") return;
    if (token.value === "=>") guardArrowBody(tokens, match, index, call, insert);
    if (token.value === "{") {
      if (classes.at(-1) === depth) classes.pop();
      else if (isFunctionBody(tokens, match, index)) insert(token.end, `${call};`);
    }
    if (token.value === "(" || token.value === "[" || token.value === "{") depth++;
    else if (token.value === ")" || token.value === "]" || token.value === "}") depth--;
  });
  return edits;
}

/** `=> body` becomes `=> (guard(), body)`; the parentheses hug the body, so no line moves. */
function guardArrowBody(
  tokens: Token[],
  match: Map<number, number>,
  index: number,
  call: string,
  insert: (at: number, text: string) => void,
): void {
  const end = arrowBodyEnd(tokens, match, index);
  if (end === undefined || end <= index + 1) return;
  insert((tokens[index + 1] as Token).start, `(${call}, `);
  insert((tokens[end - 1] as Token).end, ")");
}

function guardFor(
  tokens: Token[],
  match: Map<number, number>,
  index: number,
  call: string,
  insert: (at: number, text: string) => void,
): void {
  const open = isWord(tokens[index + 1], "await") ? index + 2 : index + 1;
  if (!isPunct(tokens[open], "(")) return;
  const close = match.get(open);
  if (close === undefined) return;
  const semicolons: number[] = [];
  for (let j = open + 1; j < close; j++) {
    const inner = tokens[j] as Token;
    if (inner.kind === "punct" && (inner.value === "(" || inner.value === "[" || inner.value === "{")) {
      j = match.get(j) ?? j;
    } else if (isPunct(inner, ";")) semicolons.push(j);
  }
  // for-in and for-of have no test to guard; their iterators' own code is guarded.
  if (semicolons.length !== 2) return;
  const [first, second] = semicolons as [number, number];
  if (second === first + 1) insert((tokens[first] as Token).end, ` ${call}`);
  else {
    insert((tokens[first] as Token).end, ` ${call} && (`);
    insert((tokens[second] as Token).start, ")");
  }
}

/** Whether the `{` at `index` opens a function's body (not a block, object, class or switch). */
function isFunctionBody(tokens: Token[], match: Map<number, number>, index: number): boolean {
  const previous = tokens[index - 1];
  if (isPunct(previous, "=>")) return true;
  if (!isPunct(previous, ")")) return false;
  const open = match.get(index - 1);
  if (open === undefined) return false;
  const name = tokens[open - 1];
  const before = tokens[open - 2];
  if (!name) return false;
  if (isWord(name, "function") || isPunct(name, "*")) return true;
  if (name.kind === "name" && blockWords.has(name.value)) return false;
  if (isWord(name, "await") && isWord(before, "for")) return false;
  if (isWord(before, "function") || isPunct(before, "*")) return true;
  const methodName = name.kind === "name" || name.kind === "string" || name.kind === "number" || isPunct(name, "]");
  if (!methodName || isMember(before) || isWord(before, "new") || isWord(before, "extends")) return false;
  // `f(x)` then a newline and `{` is a call followed by a block; a method never splits so.
  return !(tokens[index] as Token).newlineBefore;
}

/**
 * Applies edits to `source` in one pass over the original text. Edits must not overlap; at
 * one position, insertions come before a replacement, and earlier-made edits first.
 */
export function applyEdits(source: string, edits: Edit[]): string {
  const sorted = edits
    .map((edit, order) => ({ edit, order }))
    .sort(
      (a, b) =>
        a.edit.start - b.edit.start ||
        Number(a.edit.end > a.edit.start) - Number(b.edit.end > b.edit.start) ||
        a.order - b.order,
    );
  let out = "";
  let cursor = 0;
  for (const { edit } of sorted) {
    out += source.slice(cursor, edit.start) + edit.text;
    cursor = Math.max(cursor, edit.end);
  }
  return out + source.slice(cursor);
}
