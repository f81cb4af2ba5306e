/** What a module cannot reach, through the real API: other workspaces, the network, the platform. */
import { describe, expect, it } from "vitest";
import { call, createKey, mintToken } from "../../test/client.ts";
import { js, put, workspace } from "./testing.ts";

describe("javascript: isolation", () => {
  it("cannot read another workspace, by path or through a symlink", async () => {
    const mine = await workspace();
    const other = await workspace();
    await put(other, "secret.txt", "other tenant's secret");
    const code = [
      'import { readFile, symlink } from "node:fs/promises";',
      "const tries = [];",
      `for (const p of ['/workspace/../secret.txt', '/${other.workspaceId}/secret.txt', '../../${other.workspaceId}/secret.txt']) {`,
      "  try { tries.push(await readFile(p, 'utf8')); } catch (e) { tries.push(e.code); }",
      "}",
      "try { await symlink('/etc/passwd', 'link'); } catch (e) { tries.push(e.code); }",
      "export default () => tries;",
    ].join("\n");
    const result = await js(code, {}, mine);
    expect(result.result).toEqual(["ENOENT", "ENOENT", "ENOENT", "EXDEV"]);
  });

  it("is confined to its token's path prefix", async () => {
    const ws = await workspace();
    await put(ws, "src/a.txt", "inside");
    await put(ws, "private.txt", "outside");
    const token = await mintToken(ws.key, { workspaceId: ws.workspaceId, pathPrefix: "/src" });
    const code = [
      'import { readFile } from "node:fs/promises";',
      "const out = [await readFile('/workspace/src/a.txt', 'utf8')];",
      "try { await readFile('/workspace/private.txt'); } catch (e) { out.push(e.code); }",
      "export default () => out;",
    ].join("\n");
    const result = await js(code, {}, { key: token.token, workspaceId: ws.workspaceId });
    expect(result.result).toEqual(["inside", "EACCES"]);
  });

  it("has no network without egress: fetch fails at once, clearly", async () => {
    const result = await js("try { await fetch('https://example.com/'); } catch (e) { console.log(e.message); }");
    expect(result.stdout).toContain("not permitted to access the internet");
  });

  it("sees no platform bindings, secrets or environment", async () => {
    const code = [
      "const workers = await import('cloudflare:' + 'workers');",
      "const names = Object.getOwnPropertyNames(globalThis);",
      "export default () => ({",
      "  env: Object.keys(workers.env ?? {}),",
      "  processEnv: process.env,",
      "  bindings: names.filter((n) => /^(DB|WORKSPACE|TENANT|LOADER|SIGNUP_LIMITER|TEST_MIGRATIONS)$/.test(n)),",
      "  secrets: names.filter((n) => /secret|token|key/i.test(n)),",
      "});",
    ].join("\n");
    const result = await js(code, { env: { ONLY: "this" } });
    expect(result.result).toEqual({ env: [], processEnv: { ONLY: "this" }, bindings: [], secrets: [] });
  });

  it("stops an infinite loop at its timeout, and the runtime goes on serving", async () => {
    const started = Date.now();
    const result = await js("while (true) {}", { timeoutMs: 500 });
    expect(result).toMatchObject({ status: "timed_out", exitCode: 124 });
    expect(Date.now() - started).toBeLessThan(3_000);
    const loops = [
      "for (;;) {}",
      "let i = 0; do { i++; } while (true);",
      "const f = async () => { await null; return f(); }; await f();",
      "function spin() { try { while (true) {} } catch { spin(); } } spin();",
    ];
    for (const code of loops) {
      expect(await js(code, { timeoutMs: 300 })).toMatchObject({ status: "timed_out", exitCode: 124 });
    }
    expect((await js('console.log("still here")')).stdout).toBe("still here\n");
  });

  it("cannot switch off its guard", async () => {
    const code = [
      "for (const name of Object.getOwnPropertyNames(globalThis).filter((n) => n.startsWith('__cubicle'))) {",
      "  try { globalThis[name] = () => true; } catch {}",
      "  try { delete globalThis[name]; } catch {}",
      "}",
      "while (true) {}",
    ].join("\n");
    expect(await js(code, { timeoutMs: 300 })).toMatchObject({ status: "timed_out", exitCode: 124 });
  });

  it("does not let an API key without exec scope run code", async () => {
    const ws = await workspace();
    const readOnly = await createKey(ws.key, { scopes: ["workspaces:read"] });
    const response = await call("POST", `/v1/workspaces/${ws.workspaceId}/exec`, {
      key: readOnly.key,
      json: { executor: "javascript", code: "1" },
    });
    expect(response.status).toBe(403);
  });
});
