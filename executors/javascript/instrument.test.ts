/** The source edits: loop and function guards (instrument.ts) and the entry wrapper (entryModule.ts). */
import { describe, expect, it } from "vitest";
import { entryModule } from "./entryModule.ts";
import { applyEdits, guardEdits } from "./instrument.ts";

const guarded = (source: string) => applyEdits(source, guardEdits(source, "G"));

describe("instrument: guards", () => {
  it("guards every loop test and function body", () => {
    expect(guarded("while (x) y();")).toBe("while (G() && (x)) y();");
    expect(guarded("for (let i = 0; i < n; i++) {}")).toBe("for (let i = 0; G() && ( i < n); i++) {}");
    expect(guarded("for (;;) {}")).toBe("for (; G();) {}");
    expect(guarded("do {} while (true)")).toBe("do {} while (G() && (true))");
    expect(guarded("function f(a) { return a }")).toBe("function f(a) {G(); return a }");
    expect(guarded("const f = async (a) => { await a }")).toBe("const f = async (a) => {G(); await a }");
    expect(guarded("class A extends B { m() {} static *g() {} get x() { return 1 } }")).toBe(
      "class A extends B { m() {G();} static *g() {G();} get x() {G(); return 1 } }",
    );
    expect(guarded("const o = { m() {}, [k]() {} }")).toBe("const o = { m() {G();}, [k]() {G();} }");
  });

  it("guards expression-bodied arrows, ending the body where JavaScript does", () => {
    expect(guarded("xs.map((x) => x * 2)")).toBe("xs.map((x) => (G(), x * 2))");
    expect(guarded("Array.from({ length: n }, () => ({}))")).toBe("Array.from({ length: n }, () => (G(), ({})))");
    expect(guarded("const f = async (a) => await a, b = 1;")).toBe("const f = async (a) => (G(), await a), b = 1;");
    expect(guarded("const add = (a) => (b) => a + b;")).toBe("const add = (a) => (G(), (b) => (G(), a + b));");
    expect(guarded("c ? (x) => x ? 1 : 2 : (y) => y ?? 3")).toBe("c ? (x) => (G(), x ? 1 : 2) : (y) => (G(), y ?? 3)");
    expect(guarded("o = { f: (x) => x, g: (y) => y }")).toBe("o = { f: (x) => (G(), x), g: (y) => (G(), y) }");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source under test holds template literals.
    expect(guarded("xs.map((x) => `<${x}>`).join(`${(y) => y}`)")).toBe(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: as above.
      "xs.map((x) => (G(), `<${x}>`)).join(`${(y) => (G(), y)}`)",
    );
  });

  it("ends an arrow's body at a line break only where a semicolon would be inserted", () => {
    expect(guarded("const f = (x) => x\nfoo()")).toBe("const f = (x) => (G(), x)\nfoo()");
    expect(guarded("const f = (x) => i++\n++j")).toBe("const f = (x) => (G(), i++)\n++j");
    expect(guarded("const f = (x) => a\n  .b()\n  + c")).toBe("const f = (x) => (G(), a\n  .b()\n  + c)");
    expect(guarded("const f = (x) => a\n  ? b\n  : c\nlet d")).toBe("const f = (x) => (G(), a\n  ? b\n  : c)\nlet d");
    expect(guarded("const f = (x) => a !=\n b\n!c")).toBe("const f = (x) => (G(), a !=\n b)\n!c");
  });

  it("leaves blocks, objects, classes, switches and for-of alone", () => {
    for (const source of [
      "if (a) { b() } else { c() }",
      "switch (x) { case 1: break }",
      "try { a() } catch (e) { b() }",
      "const o = { a: 1, while: 2 }; o.while(1); o.for(2);",
      "for (const x of xs) {}",
      "for (const k in o) {}",
      "class A extends mixin(B) { }",
      "foo(x)\n{ bar() }",
    ]) {
      expect(guarded(source)).toBe(source);
    }
  });

  it("is not fooled by strings, comments, templates and regular expressions", () => {
    const source = [
      "const s = 'while (x) {' + \"for (;;)\" // while (y)",
      "/* function f() { */ const r = /while \\(x\\) [{(]/g.test(s);",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source under test holds a template literal.
      "const t = `for (;;) ${ items.map((i) => { return i }) } while (1)`;",
      "const d = a / b / c;",
    ].join("\n");
    expect(guarded(source)).toBe(source.replace("(i) => { return i }", "(i) => {G(); return i }"));
  });

  it("never adds lines", () => {
    const source = "function a() {\n  while (true) {\n    b();\n  }\n}\n";
    expect(guarded(source).split("\n").length).toBe(source.split("\n").length);
  });
});

describe("entryModule: the request's code as a function", () => {
  it("hoists imports onto line 1 and keeps every line number", async () => {
    const source = 'const a = 1;\nimport { x } from "./x.js";\nconsole.log(x);';
    const wrapped = await entryModule(source, "M");
    const lines = wrapped.split("\n");
    expect(lines[0]).toBe('import { x } from "./x.js";export async function M() { const M_exports = {}; const a = 1;');
    expect(lines[2]).toBe("console.log(x);");
  });

  it("turns exports into the exports object, keeping named declarations", async () => {
    const wrapped = await entryModule(
      "export const a = 1;\nexport default function main(input) { return input }\nexport { a as b };\nexport * from './y.js';",
      "M",
    );
    expect(wrapped).toContain("const a = 1;");
    expect(wrapped).toContain("function main(input) { return input } M_exports.default = main;");
    expect(wrapped).not.toMatch(/export (const|default|\{|\*)/);
    expect(wrapped.startsWith('import "./y.js";')).toBe(true);
    const anonymous = await entryModule("export default async (x) => x * 2;", "M");
    expect(anonymous).toContain("M_exports.default = async (x) => x * 2;");
  });
});
