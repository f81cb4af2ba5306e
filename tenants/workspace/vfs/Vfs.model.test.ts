/**
 * Model-based randomized test of the workspace filesystem. Seeded sequences of operations
 * over a tiny path universe (names a–d, up to three deep, so collisions, links through
 * links and moves onto existing entries are common) run against the real SQLite-backed
 * `Vfs` and the in-memory `FsModel` side by side. After every step the result code, the
 * whole tree (type, size, mode, owner, link count, the exact mtime where the model knows
 * it, link target), which paths are hard links of one inode, the counters and the content of every
 * changed file must agree; every few steps garbage is collected and everything is
 * compared, with the ETags and the chunk reference counts. A failure names the seed and
 * step and lists the operations so far: the seed alone replays it.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { workspaceLimits } from "../limits.ts";
import type { WorkspaceDO } from "../WorkspaceDO.ts";
import { type ChunkRef, chunkHash, contentEtag } from "./content.ts";
import type { FsCode } from "./errors.ts";
import {
  FsModel,
  type ModelBatchOp,
  type ModelEntry,
  type ModelNode,
  type ModelOp,
  type ModelResult,
} from "./model.ts";
import type { Stat } from "./store.ts";
import { type PreciseTime, parseNs } from "./times.ts";
import type { Vfs } from "./Vfs.ts";

/** 40 blocks × 25 seeds × 40 steps: 1,000 sequences, 40,000 operations, about 30 s on two busy cores. */
const BLOCKS = 40;
const SEEDS_PER_BLOCK = 25;
const STEPS_PER_SEED = 40;
/** Every this many steps: collect garbage, then compare all content and the storage invariants. */
const FULL_CHECK_EVERY = 8;

const NAMES = ["a", "b", "c", "d"] as const;
const CHUNK = workspaceLimits.chunkBytes;

// ── generation ──────────────────────────────────────────────────────────────────────────

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Draws operations from a seed. It looks at the model's current tree (never at the real
 * one) to aim most sources at entries that exist, so a seed always yields the same sequence.
 */
class Generator {
  private readonly random: () => number;
  private existing: string[] = [];

  constructor(seed: number) {
    this.random = mulberry32(seed);
  }

  next(model: FsModel): ModelOp {
    this.existing = [...model.nodes.keys()].filter((path) => path !== "/").sort();
    return this.op();
  }

  private int(n: number): number {
    return Math.floor(this.random() * n);
  }

  private chance(p: number): boolean {
    return this.random() < p;
  }

  private pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  /** Mostly an entry that exists (following it or not is the operation's business). */
  private source(): string {
    return this.existing.length > 0 && this.chance(0.7) ? this.spelled(this.pick(this.existing)) : this.path();
  }

  /** A fresh path, an existing entry, or a new name below an existing entry. */
  private destination(): string {
    const roll = this.random();
    if (roll < 0.5 || this.existing.length === 0) return this.path();
    if (roll < 0.75) return this.spelled(this.pick(this.existing));
    return this.spelled(`${this.pick(this.existing)}/${this.pick(NAMES)}`);
  }

  private path(): string {
    if (this.chance(0.02)) return "/";
    const depth = this.pick([1, 1, 2, 2, 3]);
    return this.spelled(`/${Array.from({ length: depth }, () => this.pick(NAMES)).join("/")}`);
  }

  /** Now and then the same path spelled differently, or a spelling the filesystem refuses. */
  private spelled(path: string): string {
    if (!this.chance(0.08)) return path;
    return this.pick([
      path.slice(1),
      `${path}/`,
      path.replace(/\/([^/]*)$/, "/./$1"),
      path.replace(/\/([^/]*)$/, "//$1"),
      `${path}/..`,
    ]);
  }

  /** Mostly tiny texts over a four-letter alphabet, so equal content (shared chunks) is common. */
  private content(): Uint8Array {
    const roll = this.random();
    if (roll < 0.1) return new Uint8Array();
    if (roll < 0.8)
      return new TextEncoder().encode(
        Array.from({ length: 1 + this.int(12) }, () => this.pick(["a", "b", "c", "\n"])).join(""),
      );
    if (roll < 0.99) return Uint8Array.from({ length: 13 + this.int(3000) }, () => this.int(256));
    // Rare and big: past a chunk boundary, built from a repeated 4 KiB block so chunks repeat too.
    const block = Uint8Array.from({ length: 4096 }, () => this.int(256));
    const out = new Uint8Array(this.pick([CHUNK, CHUNK + 1, 2 * CHUNK, CHUNK + 1 + this.int(CHUNK)]));
    for (let offset = 0; offset < out.byteLength; offset += block.byteLength)
      out.set(block.subarray(0, out.byteLength - offset), offset);
    return out;
  }

  private target(): string {
    const name = this.pick(NAMES);
    return this.pick([
      name,
      `${name}/${this.pick(NAMES)}`,
      `../${name}`,
      "..",
      ".",
      `../../${name}/${this.pick(NAMES)}`,
      this.path(),
      this.path(),
      this.chance(0.2) ? "" : name,
    ]);
  }

  private op(): ModelOp {
    const roll = this.int(100);
    if (roll < 22) return this.write();
    if (roll < 28) return { op: "truncate", path: this.source(), size: this.size() };
    if (roll < 38)
      return {
        op: "mkdir",
        path: this.destination(),
        recursive: this.chance(0.5),
        ...(this.chance(0.3) ? { mode: 0o700 } : {}),
      };
    if (roll < 47) return { op: "remove", path: this.source(), recursive: this.chance(0.5) };
    if (roll < 58) return { op: "move", ...this.fromTo(), ...(this.chance(0.2) ? { overwrite: false } : {}) };
    if (roll < 65) return { op: "copy", ...this.fromTo(), overwrite: this.chance(0.4) };
    if (roll < 74) return { op: "symlink", target: this.target(), path: this.destination() };
    if (roll < 78)
      return {
        op: "chmod",
        path: this.source(),
        mode: this.chance(0.05) ? 0o10000 : this.pick([0, 0o600, 0o644, 0o700, 0o755, 0o777]),
      };
    if (roll < 84) return { op: "link", existing: this.source(), path: this.destination() };
    if (roll < 86) return this.chown();
    if (roll < 89)
      return {
        op: "utimes",
        path: this.source(),
        // Before 1970, the epoch, nanosecond-exact times, and now.
        mtime: this.pick(["-1500000000999999999", "-1", "0", "1700000000123456789", "1700000000000000001", "now"]),
        follow: this.chance(0.7),
      };
    if (roll < 94) return { op: "batch", ops: Array.from({ length: 2 + this.int(4) }, () => this.batchOp()) };
    if (roll < 97) return { op: "stat", path: this.source(), follow: this.chance(0.5) };
    return { op: "read", path: this.source(), ...(this.chance(0.6) ? this.range() : {}) };
  }

  /** Owners from the box: its root, its user, nobody; now and then one out of range. */
  private chown(): ModelOp {
    const id = () => (this.chance(0.03) ? this.pick([-1, 2 ** 32, 1.5]) : this.pick([0, 1000, 65534]));
    return {
      op: "chown",
      path: this.source(),
      ...(this.chance(0.8) ? { uid: id() } : {}),
      ...(this.chance(0.6) ? { gid: id() } : {}),
      follow: this.chance(0.7),
    };
  }

  private write(): ModelOp {
    const roll = this.random();
    const mode = roll < 0.55 ? undefined : roll < 0.8 ? "append" : roll < 0.95 ? "exclusive" : undefined;
    return {
      op: "write",
      path: this.chance(0.4) ? this.source() : this.destination(),
      content: this.content(),
      ...(mode ? { mode } : {}),
      ...(roll >= 0.95 ? { ifNoneMatch: "*" as const } : {}),
      ...(this.chance(0.1) ? { parents: false } : {}),
    };
  }

  private size(): number {
    if (this.chance(0.02)) return -1;
    if (this.chance(0.04)) return this.pick([CHUNK - 1, CHUNK, CHUNK + 5, 2 * CHUNK + 7]);
    return this.pick([0, 1, 3, 10, this.int(40)]);
  }

  /** Ranges that start and end on both sides of a chunk boundary, and a few invalid ones. */
  private range(): { offset: number; length?: number } {
    const offset = this.pick([0, 1, 2, 5, this.int(20), CHUNK - 1, CHUNK, CHUNK + 1, -1]);
    return this.chance(0.3) ? { offset } : { offset, length: this.pick([0, 1, 3, 10, 2, CHUNK, -1]) };
  }

  /** Sometimes the destination is below the source, to provoke "into itself". */
  private fromTo(): { from: string; to: string } {
    const from = this.source();
    const to = this.chance(0.15) && from !== "/" ? `${from}/${this.pick(NAMES)}` : this.destination();
    return { from, to };
  }

  private batchOp(): ModelBatchOp {
    const roll = this.random();
    if (roll < 0.5)
      return {
        op: "write",
        path: this.destination(),
        content: this.content(),
        ...(this.chance(0.2) ? { exclusive: true } : {}),
      };
    if (roll < 0.75) return { op: "delete", path: this.source(), recursive: this.chance(0.5) };
    return { op: "move", ...this.fromTo(), ...(this.chance(0.2) ? { overwrite: false } : {}) };
  }
}

// ── running an operation on the real filesystem ─────────────────────────────────────────

/** Some writes arrive as a stream in up to three pieces, as an HTTP body would. */
function body(content: Uint8Array, step: number): Uint8Array | ReadableStream<Uint8Array> {
  if (step % 3 !== 0 || content.byteLength === 0) return content;
  const cuts = [0, Math.floor(content.byteLength / 3), Math.floor((content.byteLength * 2) / 3), content.byteLength];
  return new ReadableStream({
    start(controller) {
      for (let i = 0; i < 3; i++) if (cuts[i + 1] !== cuts[i]) controller.enqueue(content.slice(cuts[i], cuts[i + 1]));
      controller.close();
    },
  });
}

/** What the model can compare of a stat; the exact mtime only where `expected` knows it. */
function entryOf(stat: Stat, expected?: ModelEntry): ModelEntry {
  const entry: ModelEntry = {
    path: stat.path,
    type: stat.type,
    size: stat.size,
    mode: stat.mode,
    nlink: stat.nlink,
    uid: stat.uid,
    gid: stat.gid,
  };
  if (expected?.mtimeNs !== undefined) entry.mtimeNs = stat.mtimeNs;
  if (stat.target !== undefined) entry.target = stat.target;
  return entry;
}

async function runReal(vfs: Vfs, op: ModelOp, step: number, expected: ModelResult): Promise<ModelResult> {
  const result = await dispatch(vfs, op, step);
  if (!result.ok)
    return result.index === undefined
      ? { ok: false, code: result.code }
      : { ok: false, code: result.code, index: result.index };
  if ("stat" in result && op.op === "stat")
    return { ok: true, entry: entryOf(result.stat, expected.ok ? expected.entry : undefined) };
  if ("bytes" in result) return { ok: true, bytes: result.bytes };
  return { ok: true };
}

function dispatch(vfs: Vfs, op: ModelOp, step: number) {
  switch (op.op) {
    case "write": {
      const { mode, parents, ifNoneMatch } = op;
      return vfs.write(op.path, body(op.content, step), {
        ...(mode ? { mode } : {}),
        ...(parents === false ? { parents } : {}),
        ...(ifNoneMatch ? { ifNoneMatch } : {}),
      });
    }
    case "truncate":
      return vfs.truncate(op.path, op.size);
    case "mkdir":
      return vfs.mkdir(op.path, {
        ...(op.recursive ? { recursive: true } : {}),
        ...(op.mode !== undefined ? { mode: op.mode } : {}),
      });
    case "remove":
      return vfs.remove(op.path, { ...(op.recursive ? { recursive: true } : {}) });
    case "move":
      return vfs.move(op.from, op.to, op.overwrite === undefined ? {} : { overwrite: op.overwrite });
    case "copy":
      return vfs.copy(op.from, op.to, op.overwrite === undefined ? {} : { overwrite: op.overwrite });
    case "symlink":
      return vfs.symlink(op.target, op.path);
    case "chmod":
      return vfs.chmod(op.path, op.mode);
    case "chown":
      return vfs.chown(
        op.path,
        { ...(op.uid !== undefined ? { uid: op.uid } : {}), ...(op.gid !== undefined ? { gid: op.gid } : {}) },
        { follow: op.follow },
      );
    case "utimes":
      return vfs.utimes(op.path, op.mtime === "now" ? "now" : (parseNs(op.mtime) as PreciseTime), {
        follow: op.follow,
      });
    case "link":
      return vfs.link(op.existing, op.path);
    case "batch":
      return vfs.batch(op.ops);
    case "stat":
      return op.follow ? vfs.stat(op.path) : vfs.lstat(op.path);
    case "read":
      return readRange(vfs, op.path, op.offset, op.length);
  }
}

async function readRange(vfs: Vfs, path: string, offset?: number, length?: number) {
  const read = vfs.read(path, {
    ...(offset !== undefined ? { offset } : {}),
    ...(length !== undefined ? { length } : {}),
  });
  if (!read.ok) return read;
  return { ok: true as const, bytes: new Uint8Array(await new Response(read.body).arrayBuffer()) };
}

// ── comparing ───────────────────────────────────────────────────────────────────────────

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameResult(real: ModelResult, expected: ModelResult): boolean {
  if (real.ok !== expected.ok) return false;
  if (!real.ok || !expected.ok) return JSON.stringify(real) === JSON.stringify(expected);
  if (expected.bytes && !(real.bytes && sameBytes(real.bytes, expected.bytes))) return false;
  return JSON.stringify(real.entry) === JSON.stringify(expected.entry);
}

/** Returns what differs between the real tree and the model, or null. */
async function compareTree(vfs: Vfs, model: FsModel, memory: Memory, everything: boolean): Promise<string | null> {
  const listed = vfs.list("/", { recursive: true, limit: workspaceLimits.listPageMax });
  if (!listed.ok) return `list failed: ${listed.code}`;
  const modelEntries = model.entries();
  const real = JSON.stringify(listed.entries.map((stat, i) => entryOf(stat, modelEntries[i])));
  const expected = JSON.stringify(modelEntries);
  if (real !== expected) return `tree differs\n  real:  ${real}\n  model: ${expected}`;
  const root = vfs.stat("/");
  const rootEntry = model.entry("/", model.nodes.get("/") as ModelNode);
  if (!root.ok || JSON.stringify(entryOf(root.stat)) !== JSON.stringify(rootEntry))
    return `root differs: real ${JSON.stringify(root.ok && entryOf(root.stat))}, model ${JSON.stringify(rootEntry)}`;
  // Hard links: paths share an inode number exactly when the model says they are one inode.
  const inoOf = new Map<number, number>();
  const idOf = new Map<number, number>();
  for (const stat of listed.entries) {
    const id = (model.nodes.get(stat.path) as ModelNode).id;
    if ((inoOf.get(id) ?? stat.ino) !== stat.ino || (idOf.get(stat.ino) ?? id) !== id)
      return `${stat.path}: inode ${stat.ino} does not match the model's hard links`;
    inoOf.set(id, stat.ino);
    idOf.set(stat.ino, id);
  }
  const counters = vfs.counters();
  if (JSON.stringify(counters) !== JSON.stringify(model.counters())) {
    return `counters differ: real ${JSON.stringify(counters)}, model ${JSON.stringify(model.counters())}`;
  }
  if (vfs.stats().entryCount !== model.inodes().size - 1)
    return `entryCount ${vfs.stats().entryCount}, model ${model.inodes().size - 1}`;
  const seen = new Map<string, Uint8Array>();
  for (const [path, node] of model.nodes) {
    if (node.type !== "file") continue;
    seen.set(path, node.content);
    // Content arrays are never mutated, so an unchanged reference means an unchanged file.
    if (!everything && memory.contents.get(path) === node.content) continue;
    const read = await vfs.readBytes(path);
    if (!read.ok) return `reading ${path} failed: ${read.code}`;
    if (!sameBytes(read.bytes, node.content))
      return `content of ${path} differs: real ${read.bytes.byteLength} bytes, model ${node.content.byteLength}`;
  }
  memory.contents = seen;
  if (!everything) return null;
  return (await canonicalEtags(listed.entries, model)) ?? storageInvariants(vfs);
}

/** What a sequence remembers between checks: the content last compared, per path. */
interface Memory {
  contents: Map<string, Uint8Array>;
}

/**
 * A file's ETag is the one its content gets when written whole, however it was made
 * (append, truncate, copy, batch): content is always cut into chunks the same way, so
 * equal content shares chunks and compares equal.
 */
async function canonicalEtags(entries: readonly Stat[], model: FsModel): Promise<string | null> {
  for (const entry of entries) {
    const node = model.nodes.get(entry.path);
    if (node?.type !== "file") continue;
    const chunks: ChunkRef[] = [];
    for (let offset = 0; offset < node.content.byteLength; offset += CHUNK) {
      const bytes = node.content.subarray(offset, offset + CHUNK);
      chunks.push({ hash: await chunkHash(bytes), size: bytes.byteLength });
    }
    const expected = await contentEtag(chunks, node.content.byteLength);
    if (entry.etag !== expected) return `ETag of ${entry.path} is ${entry.etag}, its content's is ${expected}`;
  }
  return null;
}

/** Reference counts match the chunk lists, sizes match the chunks, and nothing is orphaned. */
function storageInvariants(vfs: Vfs): string | null {
  const checks: Record<string, string> = {
    // A reference counts a row version, live or kept in history for a snapshot or the window.
    "blob refs differ from chunk uses": `SELECT count(*) AS n FROM blobs b WHERE refs !=
       (SELECT count(*) FROM file_chunks f WHERE f.hash = b.hash) + (SELECT count(*) FROM file_chunks_hist h WHERE h.hash = b.hash)`,
    // What storage bills (schema.ts, 5): uses by live rows and by history a snapshot pins.
    "blob held counts differ from live and snapshot-pinned uses": `SELECT count(*) AS n FROM blobs b WHERE held !=
       (SELECT count(*) FROM file_chunks f WHERE f.hash = b.hash) + (SELECT count(*) FROM file_chunks_hist h
       WHERE h.hash = b.hash AND EXISTS (SELECT 1 FROM snapshots s WHERE s.rev >= h.born_rev AND s.rev < h.died_rev))`,
    "unique bytes differ from the held chunks' sizes": `SELECT count(*) AS n FROM meta WHERE key = 'unique_bytes'
       AND value != (SELECT coalesce(sum(size), 0) FROM blobs WHERE held > 0)`,
    "kept chunks point at missing blobs":
      "SELECT count(*) AS n FROM file_chunks_hist f WHERE f.hash NOT IN (SELECT hash FROM blobs)",
    "chunks point at missing blobs":
      "SELECT count(*) AS n FROM file_chunks f WHERE f.hash NOT IN (SELECT hash FROM blobs)",
    "file sizes differ from their chunks": `SELECT count(*) AS n FROM inodes i WHERE type = 'file'
       AND size != (SELECT coalesce(sum(size), 0) FROM file_chunks f WHERE f.ino = i.ino)`,
    "inodes no entry names": "SELECT count(*) AS n FROM inodes WHERE ino != 1 AND ino NOT IN (SELECT ino FROM dirents)",
    "link counts differ from names": `SELECT count(*) AS n FROM inodes i WHERE type != 'dir'
       AND nlink != (SELECT count(*) FROM dirents d WHERE d.ino = i.ino)`,
    "directory link counts differ from 2 + subdirectories": `SELECT count(*) AS n FROM inodes i WHERE type = 'dir'
       AND nlink != 2 + (SELECT count(*) FROM dirents d JOIN inodes c ON c.ino = d.ino WHERE d.parent = i.ino AND c.type = 'dir')`,
    "directories with two names": `SELECT count(*) AS n FROM (SELECT d.ino FROM dirents d JOIN inodes i ON i.ino = d.ino
       WHERE i.type = 'dir' GROUP BY d.ino HAVING count(*) > 1)`,
    "chunk lists of missing inodes": "SELECT count(*) AS n FROM file_chunks WHERE ino NOT IN (SELECT ino FROM inodes)",
    "entries under non-directories":
      "SELECT count(*) AS n FROM dirents d LEFT JOIN inodes p ON p.ino = d.parent WHERE p.type IS NOT 'dir'",
  };
  for (const [problem, query] of Object.entries(checks)) {
    const n = vfs.store.sql.exec<{ n: number }>(query).one().n;
    if (n !== 0) return `${problem}: ${n}`;
  }
  return null;
}

// ── sequences ───────────────────────────────────────────────────────────────────────────

function describeOp(subject: ModelOp | ModelResult): string {
  return JSON.stringify(subject, (_key, value) => {
    if (!(value instanceof Uint8Array)) return value;
    return value.byteLength <= 32
      ? `<${JSON.stringify(new TextDecoder().decode(value))}>`
      : `<${value.byteLength} bytes>`;
  });
}

type Failure = { step: number; problem: string };

/**
 * Runs `steps` operations drawn by `next` on a fresh workspace and on the model, checking
 * after each; returns the operations run and the first disagreement, if any.
 */
async function runSequence(
  steps: number,
  next: (model: FsModel, step: number) => ModelOp,
  versions?: Versions,
): Promise<{ ops: ModelOp[]; codes: string[]; failure: Failure | null }> {
  // Named as the gateway names a workspace object, so the versions run can fork it.
  const sourceName = `model:ws-${crypto.randomUUID()}`;
  const stub = env.WORKSPACE.getByName(sourceName);
  if (versions) versions.sourceName = sourceName;
  const ops: ModelOp[] = [];
  const codes: string[] = [];
  const failure = await runInDurableObject(stub, async (instance: WorkspaceDO): Promise<Failure | null> => {
    const vfs = instance.vfs;
    const model = new FsModel();
    const memory: Memory = { contents: new Map() };
    // Set explicitly, so the tenant's plan (this object's name parses as a workspace's) does not.
    await vfs.setHistoryWindow(versions?.windowMs ?? 0);
    for (let step = 0; step < steps; step++) {
      if (versions) {
        const problem = await versions.step(vfs, model, ops);
        if (problem) return { step, problem };
      }
      const op = next(model, step);
      ops.push(op);
      const expected = model.apply(op);
      let real: ModelResult;
      try {
        // With versions, some stretches of steps are a run's: one history version per row each.
        real = versions
          ? await vfs.actingAs(versions.actor(step), () => runReal(vfs, op, step, expected))
          : await runReal(vfs, op, step, expected);
      } catch (error) {
        return { step, problem: `threw ${(error as Error).stack ?? error}` };
      }
      versions?.recorded(vfs, model);
      codes.push(real.ok ? "ok" : real.code);
      if (!sameResult(real, expected)) {
        return {
          step,
          problem: `result differs: real ${describeOp(real)}, model ${describeOp(expected)}`,
        };
      }
      const everything = step % FULL_CHECK_EVERY === FULL_CHECK_EVERY - 1 || step === steps - 1;
      if (everything) await vfs.maintain();
      const problem = (await compareTree(vfs, model, memory, everything)) ?? (await versions?.check(vfs));
      if (problem) return { step, problem };
    }
    const end = await versions?.finish(vfs, () => instance.destroy());
    return end ? { step: steps, problem: end } : null;
  });
  return { ops, codes, failure };
}

function report(label: string, ops: readonly ModelOp[], failure: Failure): string {
  const listing = ops.map((op, i) => `  ${i}: ${describeOp(op)}`);
  return `${label}, step ${failure.step}: ${failure.problem}\nOperations so far:\n${listing.join("\n")}`;
}

describe("Vfs against the in-memory model", () => {
  for (let block = 0; block < BLOCKS; block++) {
    const first = block * SEEDS_PER_BLOCK;
    it(`agrees on seeds ${first}–${first + SEEDS_PER_BLOCK - 1}`, { timeout: 60_000 }, async () => {
      for (let seed = first; seed < first + SEEDS_PER_BLOCK; seed++) {
        const generator = new Generator(seed);
        const { ops, failure } = await runSequence(STEPS_PER_SEED, (model) => generator.next(model));
        if (failure) expect.fail(report(`seed ${seed}`, ops, failure));
      }
    });
  }
});

const text = (value: string) => new TextEncoder().encode(value);

/** Sequences that broke the filesystem before, with the codes they must give now. */
const REGRESSIONS: { name: string; steps: [ModelOp, "ok" | FsCode][] }[] = [
  {
    name: "a dangling link where mkdir -p or a write must make a directory is EEXIST, not a constraint error",
    steps: [
      [{ op: "symlink", target: "/nowhere", path: "/a" }, "ok"],
      [{ op: "write", path: "/a/b/f", content: text("x") }, "EEXIST"],
      [{ op: "mkdir", path: "/a", recursive: true }, "EEXIST"],
      [{ op: "mkdir", path: "/a/b", recursive: true }, "EEXIST"],
      [
        {
          op: "batch",
          ops: [
            { op: "write", path: "/c", content: text("1") },
            { op: "write", path: "/a/f/g", content: text("2") },
          ],
        },
        "EEXIST",
      ],
      [{ op: "mkdir", path: "/nowhere" }, "ok"],
      [{ op: "write", path: "/a/b/f", content: text("x") }, "ok"],
    ],
  },
  {
    name: "copying the root, by any name, is copying it into itself (EINVAL), not a crash",
    steps: [
      [{ op: "mkdir", path: "/a" }, "ok"],
      [{ op: "copy", from: "/", to: "/a/b" }, "EINVAL"],
      [{ op: "symlink", target: "/", path: "/l" }, "ok"],
      [{ op: "copy", from: "/l", to: "/a/c" }, "EINVAL"],
      [{ op: "symlink", target: "..", path: "/a/up" }, "ok"],
      [{ op: "copy", from: "/a/up", to: "/a/d" }, "EINVAL"],
    ],
  },
  {
    name: "copying a file onto itself is refused and leaves its content whole",
    steps: [
      [{ op: "write", path: "/f", content: text("abc") }, "ok"],
      [{ op: "copy", from: "/f", to: "/f", overwrite: true }, "EINVAL"],
      [{ op: "symlink", target: "f", path: "/l" }, "ok"],
      [{ op: "copy", from: "/l", to: "/f", overwrite: true }, "EINVAL"],
      [{ op: "copy", from: "/f", to: "/f" }, "EEXIST"],
      [{ op: "read", path: "/f" }, "ok"],
    ],
  },
  {
    name: "a write spelled with a trailing slash makes the file, not a directory holding a nameless file",
    steps: [
      [{ op: "write", path: "/x/y/", content: text("z") }, "ok"],
      [{ op: "stat", path: "/x/y", follow: false }, "ok"],
      [{ op: "write", path: "x/z", content: text("w") }, "ok"],
    ],
  },
];

describe("Vfs regressions the model found", () => {
  for (const { name, steps } of REGRESSIONS) {
    it(name, async () => {
      const { ops, codes, failure } = await runSequence(
        steps.length,
        (_model, step) => (steps[step] as [ModelOp, string])[0],
      );
      if (failure) expect.fail(report(name, ops, failure));
      expect(codes).toEqual(steps.map(([, code]) => code));
    });
  }
});

// ── versions: snapshots, restores and the history window ────────────────────────────────

/** The whole tree at a version, as `list` would show it live: walked with `listAt`. */
function treeAt(vfs: Vfs, ref: string): Stat[] | string {
  const out: Stat[] = [];
  const visit = (path: string): string | null => {
    const listed = vfs.listAt(ref, path, { limit: workspaceLimits.listPageMax });
    if (!listed.ok) return `listing ${path} at ${ref} failed: ${listed.code} ${listed.message}`;
    for (const stat of listed.entries) {
      out.push(stat);
      if (stat.type === "dir") {
        const problem = visit(stat.path);
        if (problem) return problem;
      }
    }
    return null;
  };
  return visit("/") ?? out.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** Whether the tree at `ref` is exactly `nodes`: every entry, and each file's bytes. */
async function readsBack(vfs: Vfs, ref: string | number, nodes: Map<string, ModelNode>, label: string) {
  const picture = new FsModel();
  picture.nodes = nodes;
  const real = treeAt(vfs, String(ref));
  if (typeof real === "string") return real;
  const expected = picture.entries();
  const listed = JSON.stringify(real.map((stat, i) => entryOf(stat, expected[i])));
  if (listed !== JSON.stringify(expected))
    return `${label} differs\n  real:  ${listed}\n  model: ${JSON.stringify(expected)}`;
  for (const [path, node] of nodes) {
    if (node.type !== "file") continue;
    const read = vfs.readAt(ref, path);
    if (!read.ok) return `reading ${path} at ${label} failed: ${read.code}`;
    const bytes = new Uint8Array(await new Response(read.body).arrayBuffer());
    if (!sameBytes(bytes, node.content)) return `content of ${path} at ${label} differs`;
  }
  return null;
}

/**
 * Takes snapshots at random steps (remembering the model's tree then: its nodes are never
 * mutated, so a copy of the map is the picture), restores and deletes some, and after every
 * step reads every pinned version back whole: the tree, each file's bytes. It also forks (the
 * live tree, a snapshot, or another fork) into workspace objects of their own, each of
 * which must read back exactly its version whatever the source does next, its deletion
 * included. At the end every pin and fork goes, the window closes, and storage must return
 * to its floor: no kept version, every blob referenced by a live chunk list alone, and the
 * unique bytes billed equal to those chunks' sizes.
 */
class Versions {
  private readonly random: () => number;
  private readonly pinned: { id: string; nodes: Map<string, ModelNode> }[] = [];
  /** Forks made (of the live tree, of a snapshot, or of another fork), each with the picture it must keep. */
  private readonly forks: { name: string; from: string; nodes: Map<string, ModelNode> }[] = [];
  private checks = 0;
  /** Forks made by every sequence so far: each block checks its seeds made some. */
  static forksMade = 0;
  /** The workspace object the sequence runs in (set by runSequence), named as the gateway names one. */
  sourceName = "";

  constructor(
    seed: number,
    readonly windowMs = 0,
    readonly withForks = false,
  ) {
    this.random = mulberry32(seed ^ 0x5eed);
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)] as T;
  }

  /**
   * Forks the live tree, a pinned snapshot or another fork into a new workspace object; or
   * has a fork copy everything now, as its alarm would. The fork must keep its picture
   * whatever the source does next: changes, restores, snapshot deletions, deletion.
   */
  private async fork(model: FsModel, ops: ModelOp[]): Promise<string | null> {
    const choice = this.random();
    let from = this.sourceName;
    let ref = "live";
    let nodes = new Map(model.nodes);
    if (choice < 0.3 && this.pinned.length > 0) {
      const pin = this.pick(this.pinned);
      ref = pin.id;
      nodes = pin.nodes;
    } else if (choice < 0.5 && this.forks.length > 0) {
      const parent = this.pick(this.forks);
      from = parent.name;
      nodes = parent.nodes;
    }
    const name = `model:fork-${crypto.randomUUID()}`;
    const made = await env.WORKSPACE.getByName(name).forkFrom(from, ref);
    if (!made.ok) return `fork of ${from} at ${ref} failed: ${made.code} ${made.message}`;
    this.forks.push({ name, from, nodes });
    Versions.forksMade++;
    ops.push({ op: "stat", path: `/#fork ${from === this.sourceName ? "source" : from} at ${ref}`, follow: true });
    return null;
  }

  /** Every fork reads back exactly its picture: the tree and each file's bytes, through RPC as the gateway reads. */
  private async checkForks(): Promise<string | null> {
    for (const { name, nodes } of this.forks) {
      const stub = env.WORKSPACE.getByName(name);
      const picture = new FsModel();
      picture.nodes = nodes;
      const listed = await stub.list("/", { recursive: true, limit: workspaceLimits.listPageMax });
      if (!listed.ok) return `listing fork ${name} failed: ${listed.code}`;
      const expected = picture.entries();
      const real = JSON.stringify(listed.entries.map((stat, i) => entryOf(stat as Stat, expected[i])));
      if (real !== JSON.stringify(expected))
        return `fork ${name} differs\n  real:  ${real}\n  model: ${JSON.stringify(expected)}`;
      for (const [path, node] of nodes) {
        if (node.type !== "file") continue;
        const read = await stub.readFile(path);
        if (!read.ok) return `reading ${path} in fork ${name} failed: ${read.code}`;
        const bytes = new Uint8Array(await new Response(read.body).arrayBuffer());
        if (!sameBytes(bytes, node.content)) return `content of ${path} in fork ${name} differs`;
      }
    }
    return null;
  }

  /** A fork on its own: nothing absent, no source, reference counts exact. */
  private async forkFloor(name: string): Promise<string | null> {
    return runInDurableObject(env.WORKSPACE.getByName(name), (instance: WorkspaceDO) => {
      const absent = instance.vfs.store.sql.exec<{ n: number }>("SELECT count(*) AS n FROM blobs WHERE absent = 1");
      if (absent.one().n !== 0) return `fork ${name} still lacks chunks after its source was deleted`;
      if (instance.vfs.forkOrigin() !== null) return `fork ${name} still names a source after its source was deleted`;
      return storageInvariants(instance.vfs);
    });
  }

  async step(vfs: Vfs, model: FsModel, ops: ModelOp[]): Promise<string | null> {
    const roll = this.random();
    if (roll < 0.12) {
      const snap = await vfs.snapshot();
      this.pinned.push({ id: snap.id, nodes: new Map(model.nodes) });
      ops.push({ op: "stat", path: `/#snapshot ${snap.id}`, follow: true });
    } else if (roll < 0.18 && this.pinned.length > 0) {
      const target = this.pinned[Math.floor(this.random() * this.pinned.length)] as (typeof this.pinned)[number];
      const restored = await vfs.restore(target.id);
      if (!restored.ok) return `restore to ${target.id} failed: ${restored.code} ${restored.message}`;
      model.nodes = new Map(target.nodes);
      ops.push({ op: "stat", path: `/#restore ${target.id}`, follow: true });
    } else if (roll < 0.22 && this.pinned.length > 0) {
      const [gone] = this.pinned.splice(Math.floor(this.random() * this.pinned.length), 1);
      if (gone) await vfs.deleteSnapshot(gone.id);
      ops.push({ op: "stat", path: `/#delete ${gone?.id}`, follow: true });
    } else if (roll < 0.26 && this.withForks && this.forks.length < 3) {
      return this.fork(model, ops);
    } else if (roll < 0.28 && this.forks.length > 0) {
      const fork = this.pick(this.forks);
      await env.WORKSPACE.getByName(fork.name).adoptSource(fork.from);
      ops.push({ op: "stat", path: `/#copied ${fork.name}`, follow: true });
    }
    return null;
  }

  /**
   * Who the next operation is made by: stretches of steps are a run's (`exec:…`), whose
   * versions of a row collapse into one (store.ts `collapses`), the rest a key's.
   */
  actor(step: number): string {
    if (step % 5 === 0) this.currentActor = this.random() < 0.5 ? `exec:ex_model${step}` : "key:key_model";
    return this.currentActor;
  }
  private currentActor = "key:key_model";

  /** The model's picture at each revision the sequence reached, to read back any the workspace still keeps. */
  private readonly revisions = new Map<number, Map<string, ModelNode>>();

  recorded(vfs: Vfs, model: FsModel): void {
    this.revisions.set(vfs.revision(), new Map(model.nodes));
  }

  async check(vfs: Vfs): Promise<string | null> {
    // Forks are read through RPC, which costs more than a local read: every fourth step.
    if (++this.checks % 4 === 0) {
      const problem = await this.checkForks();
      if (problem) return problem;
    }
    for (const { id, nodes } of this.pinned) {
      const problem = await readsBack(vfs, id, nodes, `snapshot ${id}`);
      if (problem) return problem;
    }
    // Any past revision the workspace says it keeps reads back exactly, a run's passing states refused.
    const revisions = [...this.revisions.keys()];
    for (let sample = 0; sample < 2 && revisions.length > 0; sample++) {
      const rev = this.pick(revisions);
      if (!vfs.revisionOf(rev).ok) continue;
      const problem = await readsBack(vfs, rev, this.revisions.get(rev) as Map<string, ModelNode>, `revision ${rev}`);
      if (problem) return problem;
    }
    return null;
  }

  /**
   * Ends the sequence. With forks, half the time the source is deleted while they may still
   * read through from it (it hands its chunks over), and every fork must read back whole and
   * stand on its own; the other half the forks go first, and the source returns to its
   * floor as below.
   */
  async finish(vfs: Vfs, destroySource: () => Promise<void>): Promise<string | null> {
    const forksProblem = await this.checkForks();
    if (forksProblem) return forksProblem;
    if (this.forks.length > 0 && this.random() < 0.5) {
      await destroySource();
      const after = await this.checkForks();
      if (after) return `after the source was deleted: ${after}`;
      // Oldest first: each fork's source (the workspace, or an older fork) is gone by its
      // turn, so it must stand on its own; deleting it hands over to its own forks.
      for (let oldest = this.forks.shift(); oldest; oldest = this.forks.shift()) {
        const { name } = oldest;
        const floor = await this.forkFloor(name);
        if (floor) return floor;
        await env.WORKSPACE.getByName(name).destroy();
        const rest = await this.checkForks();
        if (rest) return `after fork ${name} was deleted: ${rest}`;
      }
      return null;
    }
    for (const { name } of this.forks.splice(0).reverse()) await env.WORKSPACE.getByName(name).destroy();
    if (vfs.forkPins().length > 0) return `${vfs.forkPins().length} fork pins outlive their forks`;
    for (const { id } of this.pinned.splice(0)) await vfs.deleteSnapshot(id);
    await vfs.setHistoryWindow(0);
    for (let pass = 0; pass < 1_000; pass++) if (!(await vfs.maintain()).remaining) break;
    const kept = vfs.store.sql
      .exec<{ n: number }>(
        `SELECT (SELECT count(*) FROM inodes_hist) + (SELECT count(*) FROM dirents_hist)
         + (SELECT count(*) FROM file_chunks_hist) AS n`,
      )
      .one().n;
    if (kept !== 0) return `${kept} versions kept with no pin and no window`;
    const orphans = vfs.store.sql
      .exec<{ n: number }>("SELECT count(*) AS n FROM blobs WHERE hash NOT IN (SELECT hash FROM file_chunks)")
      .one().n;
    if (orphans !== 0) return `${orphans} blobs outlive every version that used them`;
    // Unique bytes (what storage bills) are the live tree's distinct chunks, and nothing more.
    const unique = vfs.store.sql
      .exec<{ n: number }>("SELECT coalesce(sum(size), 0) AS n FROM blobs WHERE hash IN (SELECT hash FROM file_chunks)")
      .one().n;
    if (vfs.uniqueBytes() !== unique) return `unique bytes are ${vfs.uniqueBytes()}, the live chunks hold ${unique}`;
    return storageInvariants(vfs);
  }
}

/** 8 blocks × 10 seeds × 30 steps, half of them with the history window on, forking as they go. */
describe("Vfs versions against the model", () => {
  for (let block = 0; block < 8; block++) {
    const first = 10_000 + block * 10;
    it(`pinned versions and forks read back exactly, seeds ${first}–${first + 9}`, { timeout: 120_000 }, async () => {
      const forksBefore = Versions.forksMade;
      for (let seed = first; seed < first + 10; seed++) {
        const generator = new Generator(seed);
        const versions = new Versions(seed, seed % 2 === 0 ? 3_600_000 : 0, true);
        const { ops, failure } = await runSequence(30, (model) => generator.next(model), versions);
        if (failure) expect.fail(report(`seed ${seed}`, ops, failure));
      }
      // The seeds are fixed, so this only guards against the forks silently dropping out.
      expect(Versions.forksMade - forksBefore).toBeGreaterThan(3);
    });
  }
});
