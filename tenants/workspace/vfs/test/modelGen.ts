import { workspaceLimits } from "../../limits.ts";
import type { FsModel, ModelBatchOp, ModelOp } from "./model.ts";

const NAMES = ["a", "b", "c", "d"] as const;
const CHUNK = workspaceLimits.chunkBytes;

// ── generation ──────────────────────────────────────────────────────────────────────────

export function mulberry32(seed: number): () => number {
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
export class Generator {
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
