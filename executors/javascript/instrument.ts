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
import { matchBrackets, type Token, tokenize } from "./tokens.ts";

export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** Keywords whose `(…) {` is a statement's block, never a function body. */
const blockWords = new Set(["if", "switch", "while", "for", "with", "catch"]);

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
