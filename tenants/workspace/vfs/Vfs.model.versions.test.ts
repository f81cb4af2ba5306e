/**
 * The model test with versions: seeded sequences as in Vfs.model.test.ts, taking snapshots,
 * restoring, deleting them and forking as they go; every pinned version must read back
 * exactly, and garbage collection must never free a chunk a pinned version reaches.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { workspaceLimits } from "../limits.ts";
import type { WorkspaceDO } from "../WorkspaceDO.ts";
import { BILLED_BYTES } from "./schema.ts";
import type { Stat } from "./store.ts";
import { FsModel, type ModelNode, type ModelOp } from "./test/model.ts";
import { Generator, mulberry32 } from "./test/modelGen.ts";
import { entryOf, report, runSequence, type SequenceVersions, sameBytes, storageInvariants } from "./test/modelRun.ts";
import type { Vfs } from "./Vfs.ts";

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
  // find at the version walks the same tree in one statement: the same entries, the same stats.
  const found = vfs.findAt(ref, "/", { limit: workspaceLimits.listPageMax });
  if (!found.ok) return `find at ${label} failed: ${found.code} ${found.message}`;
  const byPath = (a: Stat, b: Stat) => (a.path < b.path ? -1 : 1);
  const foundShown = JSON.stringify([...found.entries].sort(byPath));
  if (foundShown !== JSON.stringify(real)) return `find at ${label} differs from its listing\n  find: ${foundShown}`;
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
class Versions implements SequenceVersions {
  private readonly random: () => number;
  private readonly pinned: { id: string; nodes: Map<string, ModelNode> }[] = [];
  /** Forks made (of the live tree, of a snapshot, or of another fork), each with the picture it must keep. */
  private readonly forks: { name: string; from: string; nodes: Map<string, ModelNode> }[] = [];
  private checks = 0;
  /** Forks made by every sequence so far: each block checks its seeds made some. */
  static forksMade = 0;
  /** Packed chunks seen by the checks so far: each block checks some pinned reads rebuilt one. */
  static packedSeen = 0;
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
   * versions of a row collapse into one (store/history.ts `collapses`), the rest a key's.
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
    Versions.packedSeen += vfs.store.sql
      .exec<{ n: number }>("SELECT count(*) AS n FROM blobs WHERE base IS NOT NULL")
      .one().n;
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
    // Unique bytes (what storage bills) are what the live tree's distinct chunks keep, and nothing more.
    const unique = vfs.store.sql
      .exec<{ n: number }>(
        `SELECT coalesce(sum(${BILLED_BYTES}), 0) AS n FROM blobs WHERE hash IN (SELECT hash FROM file_chunks)`,
      )
      .one().n;
    if (vfs.uniqueBytes() !== unique) return `unique bytes are ${vfs.uniqueBytes()}, the live chunks hold ${unique}`;
    return storageInvariants(vfs);
  }
}

/**
 * Edits as an agent makes them, a quarter of the steps: a file of a few KiB rewritten with
 * a range replaced, inserted, deleted or appended, so the versions the past keeps are the
 * ones maintenance packs against their successors (pack.ts) and then must read back.
 */
function withEdits(generator: Generator, seed: number): (model: FsModel) => ModelOp {
  const random = mulberry32(seed ^ 0xed17);
  const int = (n: number) => Math.floor(random() * n);
  return (model) => {
    if (random() >= 0.25) return generator.next(model);
    const files = [...model.nodes].filter(([, node]) => node.type === "file" && node.content.byteLength >= 2_048);
    const picked = files[int(files.length)];
    if (!picked || random() < 0.2) {
      const content = Uint8Array.from({ length: 2_048 + int(6_000) }, () => int(256));
      return { op: "write", path: `/edited${int(3)}`, content };
    }
    const [path, node] = picked;
    const old = (node as { content: Uint8Array }).content;
    const at = int(old.byteLength);
    const cut = int(Math.min(300, old.byteLength - at) + 1);
    const added = Uint8Array.from({ length: int(3) === 0 ? 0 : 1 + int(300) }, () => int(256));
    const content = new Uint8Array([...old.subarray(0, at), ...added, ...old.subarray(at + cut)]);
    return { op: "write", path, content };
  };
}

/** 8 blocks × 10 seeds × 30 steps, half of them with the history window on, forking as they go. */
describe("Vfs versions against the model", () => {
  for (let block = 0; block < 8; block++) {
    const first = 10_000 + block * 10;
    it(`pinned versions and forks read back exactly, seeds ${first}–${first + 9}`, { timeout: 120_000 }, async () => {
      const forksBefore = Versions.forksMade;
      const packedBefore = Versions.packedSeen;
      for (let seed = first; seed < first + 10; seed++) {
        const generator = new Generator(seed);
        const versions = new Versions(seed, seed % 2 === 0 ? 3_600_000 : 0, true);
        const { ops, failure } = await runSequence(30, withEdits(generator, seed), versions);
        if (failure) expect.fail(report(`seed ${seed}`, ops, failure));
      }
      // The seeds are fixed, so this only guards against the forks silently dropping out.
      expect(Versions.forksMade - forksBefore).toBeGreaterThan(3);
      expect(Versions.packedSeen - packedBefore).toBeGreaterThan(0);
    });
  }
});
