/**
 * The shell executor against real bash: every script of executors/shell/corpus runs in
 * Cubicle (just-bash in a Dynamic Worker, through `POST …/exec`, in a directory of its own
 * in one workspace) and in a fresh temporary directory under /bin/bash, with the same
 * files, stdin and environment.
 * stdout, stderr and the exit code must be identical unless differences.ts allows a
 * difference for that script — and an allowed difference must still occur, so the list
 * shrinks as just-bash improves instead of hiding regressions.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  allowedDifferences,
  type CompareMode,
  comparedFields,
  type Outcome,
} from "../../executors/shell/corpus/differences.ts";
import { type CorpusScript, corpus } from "../../executors/shell/corpus/scripts.ts";
import { signUp } from "./platform.ts";
import { sharedPlatform } from "./sharedPlatform.ts";

/** Scripts in flight at once; enough to finish quickly, few enough not to crowd one wrangler dev. */
const CONCURRENCY = 8;
/** Each script is small; a run past this is a hang, reported as such. */
const SCRIPT_TIMEOUT_MS = 20_000;
/** The floor the brief sets: scripts whose stdout, stderr and exit code match bash byte for byte. */
const IDENTICAL_MIN = 0.95;
/** Each script's directory in the shared workspace (names are kebab-case, so a safe path). */
const dirOf = (entry: CorpusScript) => `corpus/${entry.name}`;

const platform = sharedPlatform();
const bash = new Map<string, Outcome>();
const cubicle = new Map<string, Outcome>();

function runBash(entry: CorpusScript): Outcome {
  const cwd = mkdtempSync(join(tmpdir(), "cubicle-corpus-"));
  try {
    for (const [path, content] of Object.entries(entry.files ?? {})) {
      mkdirSync(dirname(join(cwd, path)), { recursive: true });
      writeFileSync(join(cwd, path), content);
    }
    // argv0 "bash" so bash's own messages read "bash: line 1: …" rather than "/bin/bash: …".
    // HOME is the directory itself, so no ~/.bashrc is sourced (Debian's bash reads it when
    // stdin is a socket, which is what Node gives a child).
    const run = spawnSync("/bin/bash", ["-c", entry.script], {
      argv0: "bash",
      cwd,
      input: entry.stdin ?? "",
      env: { PATH: process.env.PATH, HOME: cwd, LANG: "C.UTF-8", ...entry.env },
      encoding: "utf8",
      timeout: SCRIPT_TIMEOUT_MS,
    });
    if (run.error) throw new Error(`bash could not run ${entry.name}: ${run.error.message}`);
    return { stdout: run.stdout, stderr: run.stderr, exitCode: run.status };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

async function api(path: string, init: RequestInit & { key: string }): Promise<Response> {
  const { key, ...rest } = init;
  return fetch(`${platform.url}${path}`, {
    ...rest,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...rest.headers },
  });
}

async function expectOk(response: Response, what: string): Promise<Response> {
  if (!response.ok) throw new Error(`${what}: ${response.status} ${await response.text()}`);
  return response;
}

/** One workspace for the whole corpus, a directory per script holding its files. */
async function corpusWorkspace(key: string): Promise<string> {
  const created = await expectOk(await api("/v1/workspaces", { key, method: "POST", body: "{}" }), "create workspace");
  const { id } = (await created.json()) as { id: string };
  const files = corpus.flatMap((entry) =>
    Object.entries(entry.files ?? {}).map(([path, content]) => ({ path: `${dirOf(entry)}/${path}`, content })),
  );
  await inBatches(files, async ({ path, content }) => {
    const encoded = path.split("/").map(encodeURIComponent).join("/");
    const put = await api(`/v1/workspaces/${id}/files/${encoded}`, {
      key,
      method: "PUT",
      headers: { "content-type": "application/octet-stream" },
      body: content,
    });
    await expectOk(put, `put ${path}`);
  });
  // Scripts without files still need their directory; one run makes them all.
  const dirs = corpus.map((entry) => `'${dirOf(entry)}'`).join(" ");
  await runIn(id, key, { command: `mkdir -p ${dirs}`, cwd: "/workspace" });
  return id;
}

async function runIn(workspaceId: string, key: string, body: Record<string, unknown>): Promise<Outcome> {
  const exec = await api(`/v1/workspaces/${workspaceId}/exec`, {
    key,
    method: "POST",
    body: JSON.stringify({ executor: "shell", timeoutMs: SCRIPT_TIMEOUT_MS, ...body }),
  });
  await expectOk(exec, `exec ${JSON.stringify(body).slice(0, 80)}`);
  const result = (await exec.json()) as { stdout: string; stderr: string; exitCode: number | null };
  return { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode };
}

function runCubicle(entry: CorpusScript, workspaceId: string, key: string): Promise<Outcome> {
  return runIn(workspaceId, key, {
    command: entry.script,
    cwd: `/workspace/${dirOf(entry)}`,
    ...(entry.stdin !== undefined ? { stdin: entry.stdin } : {}),
    ...(entry.env !== undefined ? { env: entry.env } : {}),
  });
}

/** Runs `work` over `items`, CONCURRENCY at a time. */
async function inBatches<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

beforeAll(async () => {
  const started = performance.now();
  for (const entry of corpus) bash.set(entry.name, runBash(entry));
  const { key } = await signUp(platform.url, "corpus@example.com");
  // Eight runs at once is past the free plan's four; a heavy user like this one is on pro.
  await expectOk(
    await api("/v1/billing/plan", { key, method: "PUT", body: JSON.stringify({ plan: "pro" }) }),
    "upgrade",
  );
  const workspaceId = await corpusWorkspace(key);
  await inBatches(corpus, async (entry) => {
    cubicle.set(entry.name, await runCubicle(entry, workspaceId, key));
  });
  console.log(`shell corpus: ${corpus.length} scripts in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}, 300_000);

function outcomeOf(map: Map<string, Outcome>, name: string): Outcome {
  const outcome = map.get(name);
  if (!outcome) throw new Error(`no outcome for ${name}`);
  return outcome;
}

/** The fields a mode compares, after the difference's normalizer, as one object so a failure prints one diff. */
function view(outcome: Outcome, mode: CompareMode, normalize: (text: string) => string): Partial<Outcome> {
  const fields = comparedFields[mode];
  return {
    ...(fields.includes("stdout") ? { stdout: normalize(outcome.stdout) } : {}),
    ...(fields.includes("stderr") ? { stderr: normalize(outcome.stderr) } : {}),
    ...(fields.includes("exitCode") ? { exitCode: outcome.exitCode } : {}),
  };
}

function identical(a: Outcome, b: Outcome): boolean {
  return a.stdout === b.stdout && a.stderr === b.stderr && a.exitCode === b.exitCode;
}

const allowed = new Map(allowedDifferences.map((d) => [d.name, d]));

describe("the shell corpus matches bash", () => {
  for (const entry of corpus) {
    it(entry.name, () => {
      const expected = outcomeOf(bash, entry.name);
      const actual = outcomeOf(cubicle, entry.name);
      const difference = allowed.get(entry.name);
      const context = `script ${entry.name}:\n${entry.script}\nexpected is bash, received is Cubicle`;
      if (!difference) {
        expect(actual, context).toEqual(expected);
        return;
      }
      expect(
        identical(actual, expected),
        `${entry.name} now matches bash exactly; remove its entry from differences.ts ("${difference.reason}")`,
      ).toBe(false);
      const mode = difference.compare ?? "everything";
      const normalize = difference.normalize ?? ((text: string) => text);
      expect(view(actual, mode, normalize), `${context}\nallowed: ${difference.reason}`).toEqual(
        view(expected, mode, normalize),
      );
    });
  }
});

describe("the corpus itself", () => {
  it("names every script once, and lists differences only for scripts that exist, once each", () => {
    const names = corpus.map((e) => e.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    const listed = allowedDifferences.map((d) => d.name);
    expect(listed.filter((n, i) => listed.indexOf(n) !== i)).toEqual([]);
    expect(listed.filter((n) => !names.includes(n))).toEqual([]);
    expect(corpus.length).toBeGreaterThanOrEqual(600);
  });

  it("gives every script something to compare: bash prints to stdout for each", () => {
    expect(corpus.filter((e) => outcomeOf(bash, e.name).stdout === "").map((e) => e.name)).toEqual([]);
  });

  it(`is at least ${IDENTICAL_MIN * 100}% identical to bash: stdout, stderr and exit code`, () => {
    const fully = corpus.filter((e) => identical(outcomeOf(cubicle, e.name), outcomeOf(bash, e.name)));
    const share = fully.length / corpus.length;
    console.log(`shell corpus: ${fully.length}/${corpus.length} identical (${(share * 100).toFixed(1)}%)`);
    expect(share).toBeGreaterThanOrEqual(IDENTICAL_MIN);
  });
});
