/**
 * The request's code as a module whose body runs when the runtime calls it, not when the
 * module is evaluated.
 *
 * Why: workerd evaluates every module outside any request, where I/O, timers and random
 * values are refused ("Disallowed operation called within global scope"), and it insists
 * that top-level await settles without I/O. Agents write `const text = await readFile(…)` at
 * the top of a script, as Node allows. So the code's body moves into
 * `export async function <main>()`, which the runtime calls inside the run:
 *
 * - static `import` declarations are hoisted onto line 1 (their place is blanked), so line
 *   numbers in stack traces stay true;
 * - `export default X` becomes `<exports>.default = X`; `export` before a declaration is
 *   dropped; `export { a }` lists are dropped; re-exports become side-effect imports;
 * - `<main>` answers the collected exports; the runtime calls `default` with `input`.
 *
 * Workspace modules the code imports are ordinary modules: their top level runs at import,
 * outside the request (README.md).
 */
import { init, parse } from "es-module-lexer/js";
import { applyEdits, type Edit } from "./instrument.ts";
import { matchBrackets, type Token, tokenize } from "./tokens.ts";

const lexerReady = init();

const isPunct = (token: Token | undefined, value: string) => token?.kind === "punct" && token.value === value;
const isWord = (token: Token | undefined, value: string) => token?.kind === "name" && token.value === value;

/** Blanks a span but keeps its line breaks, so every later line keeps its number. */
const blank = (text: string) => text.replace(/[^\n\r]/g, " ");

export async function entryModule(source: string, mainName: string): Promise<string> {
  await lexerReady;
  const [imports] = parse(source);
  const exportsName = `${mainName}_exports`;
  const edits: Edit[] = [];
  const hoisted: string[] = [];
  const spans: [number, number][] = [];
  for (const entry of imports) {
    if (entry.type !== "static" && entry.type !== "reexport-star") continue;
    const text = source.slice(entry.importStart, entry.importEnd);
    spans.push([entry.importStart, entry.importEnd]);
    hoisted.push(
      text.startsWith("export") ? `import ${JSON.stringify(entry.specifier)};` : `${text.replace(/[\n\r]+/g, " ")};`,
    );
    edits.push({ start: entry.importStart, end: entry.importEnd, text: blank(text) });
  }
  const inSpan = (at: number) => spans.some(([start, end]) => at >= start && at < end);
  edits.push(...exportEdits(source, exportsName, inSpan));
  const head = `${hoisted.join(" ")}export async function ${mainName}() { const ${exportsName} = {}; `;
  const hashbang = source.startsWith("#!") ? source.indexOf("\n") + 1 || source.length : 0;
  edits.push({ start: hashbang, end: hashbang, text: head });
  return `${applyEdits(source, edits)}\n;return ${exportsName}; }\n`;
}

/** Edits for the top-level `export` statements that are not imports (those are hoisted). */
function exportEdits(source: string, exportsName: string, inSpan: (at: number) => boolean): Edit[] {
  const tokens = tokenize(source);
  const match = matchBrackets(tokens);
  const edits: Edit[] = [];
  let depth = 0;
  tokens.forEach((token, index) => {
    if (token.kind === "punct" && ["(", "[", "{"].includes(token.value)) depth++;
    else if (token.kind === "punct" && [")", "]", "}"].includes(token.value)) depth--;
    if (depth !== 0 || !isWord(token, "export") || inSpan(token.start) || isPunct(tokens[index - 1], ".")) return;
    const next = tokens[index + 1];
    if (isWord(next, "default")) {
      edits.push(...defaultExport(tokens, match, index, exportsName));
    } else if (isPunct(next, "{")) {
      const close = match.get(index + 1) ?? index + 1;
      edits.push({
        start: token.start,
        end: (tokens[close] as Token).end,
        text: blank(source.slice(token.start, (tokens[close] as Token).end)),
      });
    } else edits.push({ start: token.start, end: token.end, text: "" });
  });
  return edits;
}

/** `export default …`: an assignment to the exports, keeping a named function or class's binding. */
function defaultExport(tokens: Token[], match: Map<number, number>, index: number, exportsName: string): Edit[] {
  const exportToken = tokens[index] as Token;
  const defaultToken = tokens[index + 1] as Token;
  let at = index + 2;
  if (isWord(tokens[at], "async")) at++;
  const keyword = tokens[at];
  const declares = isWord(keyword, "function") || isWord(keyword, "class");
  let nameAt = at + 1;
  if (isPunct(tokens[nameAt], "*")) nameAt++;
  const name = tokens[nameAt];
  const named = declares && name?.kind === "name" && !isWord(name, "extends");
  if (!named) return [{ start: exportToken.start, end: defaultToken.end, text: `${exportsName}.default =` }];
  // A named declaration stays one (hoisted, bound by its name); its value is exported after its body.
  let body = nameAt + 1;
  if (isWord(keyword, "function")) body = (match.get(body) ?? body) + 1;
  else while (body < tokens.length && !isPunct(tokens[body], "{")) body = (match.get(body) ?? body) + 1;
  const close = tokens[match.get(body) ?? body] as Token;
  return [
    { start: exportToken.start, end: defaultToken.end, text: "" },
    { start: close.end, end: close.end, text: ` ${exportsName}.default = ${name.value};` },
  ];
}
