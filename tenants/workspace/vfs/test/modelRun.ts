/**
 * Running a sequence of operations on the real filesystem and on the model side by side,
 * and comparing them after every step (Vfs.model.test.ts, Vfs.model.versions.test.ts).
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { workspaceLimits } from "../../limits.ts";
import type { WorkspaceDO } from "../../WorkspaceDO.ts";
import { type ChunkRef, chunkHash, contentEtag } from "../content.ts";
import { BILLED_BYTES } from "../schema.ts";
import type { Stat } from "../store.ts";
import { type PreciseTime, parseNs } from "../times.ts";
import type { Vfs } from "../Vfs.ts";
import { FsModel, type ModelEntry, type ModelNode, type ModelOp, type ModelResult } from "./model.ts";

const CHUNK = workspaceLimits.chunkBytes;
/** Every this many steps: collect garbage, then compare all content and the storage invariants. */
const FULL_CHECK_EVERY = 8;

/** What a sequence with versions does around each step (Vfs.model.versions.test.ts). */
export interface SequenceVersions {
  sourceName: string;
  windowMs: number;
  step(vfs: Vfs, model: FsModel, ops: ModelOp[]): Promise<string | null>;
  actor(step: number): string;
  recorded(vfs: Vfs, model: FsModel): void;
  check(vfs: Vfs): Promise<string | null>;
  finish(vfs: Vfs, destroySource: () => Promise<void>): Promise<string | null>;
}

// ── running an operation on the real filesystem ─────────────────────────────────────────

/** Some writes arrive as a stream in up to three pieces, as an HTTP body would. */
export function body(content: Uint8Array, step: number): Uint8Array | ReadableStream<Uint8Array> {
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
export function entryOf(stat: Stat, expected?: ModelEntry): ModelEntry {
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

export async function runReal(vfs: Vfs, op: ModelOp, step: number, expected: ModelResult): Promise<ModelResult> {
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

export function dispatch(vfs: Vfs, op: ModelOp, step: number) {
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

export async function readRange(vfs: Vfs, path: string, offset?: number, length?: number) {
  const read = vfs.read(path, {
    ...(offset !== undefined ? { offset } : {}),
    ...(length !== undefined ? { length } : {}),
  });
  if (!read.ok) return read;
  return { ok: true as const, bytes: new Uint8Array(await new Response(read.body).arrayBuffer()) };
}

// ── comparing ───────────────────────────────────────────────────────────────────────────

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function sameResult(real: ModelResult, expected: ModelResult): boolean {
  if (real.ok !== expected.ok) return false;
  if (!real.ok || !expected.ok) return JSON.stringify(real) === JSON.stringify(expected);
  if (expected.bytes && !(real.bytes && sameBytes(real.bytes, expected.bytes))) return false;
  return JSON.stringify(real.entry) === JSON.stringify(expected.entry);
}

/** Returns what differs between the real tree and the model, or null. */
export async function compareTree(
  vfs: Vfs,
  model: FsModel,
  memory: Memory,
  everything: boolean,
): Promise<string | null> {
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
export interface Memory {
  contents: Map<string, Uint8Array>;
}

/**
 * A file's ETag is the one its content gets when written whole, however it was made
 * (append, truncate, copy, batch): content is always cut into chunks the same way, so
 * equal content shares chunks and compares equal.
 */
export async function canonicalEtags(entries: readonly Stat[], model: FsModel): Promise<string | null> {
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
export function storageInvariants(vfs: Vfs): string | null {
  const checks: Record<string, string> = {
    // A reference counts a row version, live or kept in history for a snapshot or the window,
    // and a chunk packed against this one (pack.ts).
    "blob refs differ from chunk uses": `SELECT count(*) AS n FROM blobs b WHERE refs !=
       (SELECT count(*) FROM file_chunks f WHERE f.hash = b.hash) + (SELECT count(*) FROM file_chunks_hist h WHERE h.hash = b.hash)
       + (SELECT count(*) FROM blobs p WHERE p.base = b.hash)`,
    "packed chunks rest on packed, absent or missing ones": `SELECT count(*) AS n FROM blobs p WHERE p.base IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM blobs b WHERE b.hash = p.base AND b.base IS NULL AND b.absent = 0)`,
    // What storage bills (schema.ts, 5): uses by live rows and by history a snapshot pins.
    "blob held counts differ from live and snapshot-pinned uses": `SELECT count(*) AS n FROM blobs b WHERE held !=
       (SELECT count(*) FROM file_chunks f WHERE f.hash = b.hash) + (SELECT count(*) FROM file_chunks_hist h
       WHERE h.hash = b.hash AND EXISTS (SELECT 1 FROM snapshots s WHERE s.rev >= h.born_rev AND s.rev < h.died_rev))`,
    "unique bytes differ from what the held chunks keep": `SELECT count(*) AS n FROM meta WHERE key = 'unique_bytes'
       AND value != (SELECT coalesce(sum(${BILLED_BYTES}), 0) FROM blobs WHERE held > 0)`,
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

export function describeOp(subject: ModelOp | ModelResult): string {
  return JSON.stringify(subject, (_key, value) => {
    if (!(value instanceof Uint8Array)) return value;
    return value.byteLength <= 32
      ? `<${JSON.stringify(new TextDecoder().decode(value))}>`
      : `<${value.byteLength} bytes>`;
  });
}

export type Failure = { step: number; problem: string };

/**
 * Runs `steps` operations drawn by `next` on a fresh workspace and on the model, checking
 * after each; returns the operations run and the first disagreement, if any.
 */
export async function runSequence(
  steps: number,
  next: (model: FsModel, step: number) => ModelOp,
  versions?: SequenceVersions,
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

export function report(label: string, ops: readonly ModelOp[], failure: Failure): string {
  const listing = ops.map((op, i) => `  ${i}: ${describeOp(op)}`);
  return `${label}, step ${failure.step}: ${failure.problem}\nOperations so far:\n${listing.join("\n")}`;
}
