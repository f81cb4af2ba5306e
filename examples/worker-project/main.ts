/**
 * A Worker project built and published: an agent writes a small Worker (package.json,
 * TypeScript source and a test) into a workspace, a container run installs its dependencies
 * from npm, builds it with esbuild and runs its test, and the build output is published as
 * an artifact. The artifact is downloaded and its bundled Worker run in workerd.
 *
 *   npm start                          # in one terminal
 *   npm run example worker-project     # in another
 */
import type { Cubicle } from "@cubicle/sdk";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { parseTarGzip } from "nanotar";
import { connect, ensureCompleted } from "../connect.ts";

export const PROJECT: Record<string, string> = {
  "/hello-worker/package.json": `${JSON.stringify(
    {
      name: "hello-worker",
      private: true,
      type: "module",
      scripts: {
        build: "esbuild src/index.ts --bundle --format=esm --platform=neutral --outfile=dist/worker.js",
        // Node 22 and later read a bare directory as a file name; the glob is what they expect.
        test: "node --test 'test/**/*.test.mjs'",
      },
      devDependencies: { esbuild: "0.28.2" },
    },
    null,
    2,
  )}\n`,
  "/hello-worker/src/greeting.ts": `export function greeting(name: string): string {
  return \`Hello, \${name}, from a Worker built in Cubicle!\`;
}
`,
  "/hello-worker/src/index.ts": `import { greeting } from "./greeting.ts";

export default {
  async fetch(request: Request): Promise<Response> {
    const name = new URL(request.url).searchParams.get("name") ?? "world";
    return new Response(greeting(name), { headers: { "content-type": "text/plain; charset=utf-8" } });
  },
};
`,
  "/hello-worker/test/worker.test.mjs": `import assert from "node:assert/strict";
import { test } from "node:test";
import worker from "../dist/worker.js";

test("greets by name", async () => {
  const response = await worker.fetch(new Request("https://example.com/?name=Ada"));
  assert.equal(response.status, 200);
  assert.equal(await response.text(), "Hello, Ada, from a Worker built in Cubicle!");
});
`,
};

/** The published bundle, run in workerd (Miniflare) and asked one request. */
export async function runBundle(script: string, url: string): Promise<string> {
  const worker = new Miniflare(convertV4MiniflareOptions({ modules: true, script, compatibilityDate: "2026-11-01" }));
  try {
    return await (await worker.dispatchFetch(url)).text();
  } finally {
    await worker.dispose();
  }
}

export async function workerProject(cubicle: Cubicle) {
  // The free plan has no network; installing from npm needs a plan with egress.
  if ((await cubicle.billing.get()).plan === "free") await cubicle.billing.changePlan("pro");
  const ws = await cubicle.workspaces.create({ name: "worker-project" });
  for (const [path, text] of Object.entries(PROJECT)) await ws.files.write(path, text);
  const run = await ws.exec({
    executor: "container",
    cwd: "/workspace/hello-worker",
    command: "npm install --no-audit --no-fund --loglevel=error && npm run build && npm test",
    egress: { allow: ["registry.npmjs.org"] },
    timeoutMs: 300_000,
  });
  ensureCompleted("install, build and test", run);
  const artifact = await ws.publishArtifact({ path: "/hello-worker/dist" });
  const archive = await cubicle.artifacts.download(artifact.id);
  const files = await parseTarGzip(archive);
  const bundle = files.find((file) => file.name.endsWith("worker.js"));
  if (!bundle?.data) throw new Error(`no worker.js in the artifact: ${files.map((f) => f.name).join(", ")}`);
  const script = new TextDecoder().decode(bundle.data);
  const answer = await runBundle(script, "http://worker.test/?name=Grace");
  return { workspaceId: ws.id, artifactId: artifact.id, testOutput: run.stdout, answer };
}

if (import.meta.main) {
  const { artifactId, answer } = await workerProject(await connect("worker-project"));
  console.log(`artifact ${artifactId} published; its Worker answers: ${answer}`);
}
