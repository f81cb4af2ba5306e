/**
 * The shell executor against real bash: every script of executors/shell/corpus runs in
 * Cubicle (just-bash in a Dynamic Worker, through `POST …/exec`, in a directory of its own
 * in one workspace) and in a fresh temporary directory under /bin/bash, with the same
 * files, stdin and environment.
 * stdout, stderr and the exit code must be identical unless differences.ts allows a
 * difference for that script — and an allowed difference must still occur, so the list
 * shrinks as just-bash improves instead of hiding regressions.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  allowedDifferences,
  type CompareMode,
  comparedFields,
  type Outcome,
} from "../executors/shell/corpus/differences.ts";
import { type CorpusScript, corpus } from "../executors/shell/corpus/scripts.ts";
import { signUp } from "./platform.ts";
import { sharedPlatform } from "./sharedPlatform.ts";

/** Scripts per exec: a run costs far more than a small script, so the corpus goes in batches. */
const BATCH_SIZE = 40;
/** Batches in flight at once; enough to finish quickly, few enough not to crowd one wrangler dev. */
const LANES = 4;
/** A batch of small scripts; past this one hangs, and its unfinished scripts are reported. */
const BATCH_TIMEOUT_MS = 120_000;
/** bash processes at once. */
const BASH_LANES = 4;
/** Each script is small; a run past this is a hang, reported as such. */
const SCRIPT_TIMEOUT_MS = 20_000;
/** Scripts matching bash byte for byte (stdout, stderr, exit code): 779 of 780 reached; the floor is 99%. */
const IDENTICAL_MIN = 0.99;
/** Each script's directory in the shared workspace (names are kebab-case, so a safe path). */
const dirOf = (entry: CorpusScript) => `corpus/${entry.name}`;

const platform = sharedPlatform();
const bash = new Map<string, Outcome>();
const cubicle = new Map<string, Outcome>();

async function runBash(entry: CorpusScript): Promise<Outcome> {
  const cwd = mkdtempSync(join(tmpdir(), "cubicle-corpus-"));
  try {
    for (const [path, content] of Object.entries(entry.files ?? {})) {
      mkdirSync(dirname(join(cwd, path)), { recursive: true });
      writeFileSync(join(cwd, path), content);
    }
    // argv0 "bash" so bash's own messages read "bash: line 1: …" rather than "/bin/bash: …".
    // HOME is the directory itself, so no ~/.bashrc is sourced (Debian's bash reads it when
    // stdin is a socket, which is what Node gives a child).
    const child = spawn("/bin/bash", ["-c", entry.script], {
      argv0: "bash",
      cwd,
      env: { PATH: process.env.PATH, HOME: cwd, LANG: "C.UTF-8", ...entry.env },
      timeout: SCRIPT_TIMEOUT_MS,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.stdin.on("error", () => {}); // a script that never reads its stdin closes it early
    child.stdin.end(entry.stdin ?? "");
    const [exitCode] = (await once(child, "close")) as [number | null];
    const text = (chunks: Buffer[]) => Buffer.concat(chunks).toString("utf8");
    return { stdout: text(out), stderr: text(err), exitCode };
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

/** A here-document delimiter no corpus text contains. */
const END = "CUBICLE_CORPUS_END_OF_TEXT";

function quoted(text: string): string {
  if (text.includes(END)) throw new Error(`corpus text contains ${END}`);
  return `<<'${END}'\n${text}\n${END}\n`;
}

/**
 * One script's part of a batch: its files made in its own directory (from base64, so every
 * byte survives), the script run by a nested `bash -c` with its stdin and environment, and
 * its stdout, stderr and status printed as one base64 record. The nested shell is the same
 * interpreter as a top-level run; only the output streaming of `POST …/exec` is not
 * exercised per script.
 */
function batchPart(entry: CorpusScript): string {
  const dir = `/workspace/${dirOf(entry)}`;
  const files = Object.entries(entry.files ?? {}).map(
    ([path, content]) =>
      `mkdir -p "$(dirname '${path}')" && base64 -d > '${path}' ${quoted(Buffer.from(content).toString("base64"))}`,
  );
  const env = Object.entries(entry.env ?? {}).map(([k, v]) => `export ${k}='${v.replaceAll("'", "'\\''")}'\n`);
  const stdin = entry.stdin === undefined ? "< /dev/null\n" : quoted(entry.stdin.replace(/\n$/, ""));
  if (entry.stdin !== undefined && !entry.stdin.endsWith("\n"))
    throw new Error(`${entry.name}: stdin must end in a newline`);
  return [
    `mkdir -p '${dir}' && cd '${dir}' || exit 99\n`,
    ...files,
    `s=$(cat ${quoted(entry.script)})`,
    `(${env.join("")}bash -c "$s" > /tmp/corpus.out 2> /tmp/corpus.err ${stdin})`,
    `rc=$?; printf '@@ %s %s %s %s\\n' '${entry.name}' "$rc" "$(base64 -w0 < /tmp/corpus.out)" "$(base64 -w0 < /tmp/corpus.err)"\n`,
  ].join("\n");
}

/** Runs a batch of scripts in one exec and reads back each one's outcome. */
async function runBatch(workspaceId: string, key: string, scripts: readonly CorpusScript[]): Promise<void> {
  const exec = await api(`/v1/workspaces/${workspaceId}/exec`, {
    key,
    method: "POST",
    body: JSON.stringify({
      executor: "shell",
      command: scripts.map(batchPart).join("\n"),
      timeoutMs: BATCH_TIMEOUT_MS,
    }),
  });
  await expectOk(exec, `exec a batch from ${scripts[0]?.name}`);
  const result = (await exec.json()) as { stdout: string; stderr: string; exitCode: number | null };
  for (const line of result.stdout.split("\n")) {
    const [mark, name, rc, out, err] = line.split(" ");
    if (mark !== "@@" || !name) continue;
    const text = (b64 = "") => Buffer.from(b64, "base64").toString("utf8");
    cubicle.set(name, { stdout: text(out), stderr: text(err), exitCode: Number(rc) });
  }
  const lost = scripts.filter((entry) => !cubicle.has(entry.name)).map((entry) => entry.name);
  if (lost.length > 0) {
    console.log(
      `shell corpus: batch ended (${result.exitCode}) before ${lost.join(", ")}: ${result.stderr.slice(0, 500)}`,
    );
  }
}

beforeAll(async () => {
  const started = performance.now();
  const { key } = await signUp(platform.url, "corpus@example.com");
  // Four batches at once is the free plan's limit; a heavy user like this one is on pro.
  await expectOk(
    await api("/v1/billing/plan", { key, method: "PUT", body: JSON.stringify({ plan: "pro" }) }),
    "upgrade",
  );
  const batches: CorpusScript[][] = [];
  for (let i = 0; i < corpus.length; i += BATCH_SIZE) batches.push(corpus.slice(i, i + BATCH_SIZE));
  const created = await expectOk(await api("/v1/workspaces", { key, method: "POST", body: "{}" }), "create workspace");
  const { id } = (await created.json()) as { id: string };
  let next = 0;
  const lane = async () => {
    while (next < batches.length) await runBatch(id, key, batches[next++] as CorpusScript[]);
  };
  const lanes = Promise.all(Array.from({ length: LANES }, lane));
  // bash runs the same scripts meanwhile, a few at a time.
  const bashStarted = performance.now();
  let nextScript = 0;
  const bashLane = async () => {
    while (nextScript < corpus.length) {
      const entry = corpus[nextScript++] as CorpusScript;
      bash.set(entry.name, await runBash(entry));
    }
  };
  await Promise.all(Array.from({ length: BASH_LANES }, bashLane));
  const bashSeconds = (performance.now() - bashStarted) / 1000;
  await lanes;
  const seconds = (performance.now() - started) / 1000;
  console.log(`shell corpus: ${corpus.length} scripts in ${seconds.toFixed(1)} s (bash ${bashSeconds.toFixed(1)} s)`);
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
