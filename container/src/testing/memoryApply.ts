/**
 * The workspace object's apply algorithm (tenants/workspace/execs/syncApply.ts), over the
 * test twin's tree (./memoryTree.ts): the same conflict rule (container/wire/conflict.ts),
 * the same conflict copies, and the same memory of the container's last push per path
 * (tenants/workspace/execs/syncPushed.ts), so computerd's side of sync is tested against it.
 */
import {
  ancestorsOf,
  conflictLimits,
  conflictName,
  conflictStamp,
  type SyncWant,
  sameState,
  syncVerdict,
} from "../../wire/conflict.ts";
import type { SyncAttrs, SyncBase, SyncOp } from "../../wire/index.ts";
import { etagOf, type MemoryTree, type Node, under } from "./memoryTree.ts";

/** The last state a push gave each path, and the base it carried. */
export type Pushed = Map<string, { base: SyncBase; state: SyncBase }>;

/** An op the twin refuses as the object would (a link to nothing, an unknown upload): a failure of that op alone. */
export class Refused extends Error {
  readonly code: string;
  // A plain field, not a parameter property: bench scripts load this file with Node's type stripping.
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

export type Outcome = { conflict: false; unchanged?: true } | { conflict: true; savedAs: string | null };

/**
 * The object's algorithm (tenants/workspace/execs/syncApply.ts) for one op, over `tree`;
 * `pushes` is the twin's memory of the container's last push per path.
 */
export function applyChecked(tree: MemoryTree, pushes: Pushed, op: SyncOp, content: Uint8Array | null): Outcome {
  if (op.base === undefined) {
    applyOp(tree, op, content);
    return { conflict: false };
  }
  const shadow = ancestorsOf(op.path)
    .map((path) => ({ path, node: tree.nodes.get(path) }))
    .find(({ node }) => node && node.type !== "dir");
  if (shadow) {
    if (op.op === "remove" || metadataOnly(op)) return { conflict: false };
    const stamp = conflictStamp(tree.state(shadow.path));
    let root = "";
    for (let attempt = 1; attempt <= conflictLimits.namesTriedMax && !root; attempt++) {
      const name = conflictName(shadow.path, stamp, attempt);
      const there = tree.nodes.get(name);
      if (!there || there.type === "dir") root = name;
    }
    if (!root) throw new Refused("EEXIST", `every name tried for the container's copy of ${shadow.path} is taken`);
    const target = root + op.path.slice(shadow.path.length);
    const inner = applyChecked(tree, pushes, { ...op, path: target, base: null }, content);
    return { conflict: true, savedAs: inner.conflict ? inner.savedAs : target };
  }
  const current = tree.state(op.path);
  const want = wantOf(tree, op, content);
  const empty = ![...tree.nodes.keys()].some((p) => p !== op.path && under(p, op.path));
  // The object remembers its last push per path with the base it carried (syncPushed.ts).
  const last = pushes.get(op.path);
  const pushed = last && sameState(last.base, op.base) ? last.state : undefined;
  const base = pushed !== undefined && sameState(current, pushed) ? current : op.base;
  let verdict = syncVerdict(base, current, want, empty);
  if (verdict === "conflict" && pushed !== undefined && want !== "attrs" && sameState(want, pushed)) {
    verdict = "unchanged";
  }
  switch (verdict) {
    // Already what the op wants: applying it only brings the metadata in line (and makes a
    // link one node with its file, or gives a file the box replaced a node of its own).
    case "same":
    case "apply":
      applyOp(tree, op, content);
      if (want !== "attrs") pushes.set(op.path, { base: op.base, state: want });
      return { conflict: false };
    case "unchanged":
      return { conflict: false, unchanged: true };
    case "conflict": {
      if (op.op === "remove" || metadataOnly(op)) return { conflict: true, savedAs: null };
      const stamp = conflictStamp(current);
      for (let attempt = 1; attempt <= conflictLimits.namesTriedMax; attempt++) {
        const name = conflictName(op.path, stamp, attempt);
        const there = tree.state(name);
        if (there === null) applyOp(tree, { ...op, path: name }, content);
        else if (want === "attrs" || !sameState(there, want)) continue;
        else attrsOn(tree, name, op);
        return { conflict: true, savedAs: name };
      }
      throw new Refused("EEXIST", `every name tried for the container's copy of ${op.path} is taken`);
    }
  }
}

/** What `op` makes its path hold; for a link, what the file it names holds. */
function wantOf(tree: MemoryTree, op: SyncOp, content: Uint8Array | null): SyncWant {
  if (op.op === "remove") return null;
  if (op.op === "chmod" || op.op === "setattr") return "attrs";
  if (op.op === "mkdir") return { type: "dir" };
  if (op.op === "symlink") return { type: "symlink", target: op.target };
  if (op.op === "link") {
    linkSource(tree, op.existing);
    return tree.state(op.existing);
  }
  return { type: "file", etag: etagOf(content ?? new Uint8Array()) };
}

/** The file or link a `link` op names, refused as the object refuses it (link(2)'s codes). */
function linkSource(tree: MemoryTree, existing: string): Node {
  const node = tree.nodes.get(existing);
  if (!node) throw new Refused("ENOENT", `no such file or directory: ${existing}`);
  if (node.type === "dir") throw new Refused("EPERM", `${existing} is a directory`);
  return node;
}

/**
 * A pushed file: written through an existing file (all its names see it) unless the box's
 * file has this name only (`nlink` 1) while the twin's has others, as the object does. The
 * same content again only brings the metadata in line.
 */
function putFile(
  tree: MemoryTree,
  path: string,
  op: { mode: number; nlink?: number } & SyncAttrs,
  content: Uint8Array,
): void {
  const existing = tree.nodes.get(path);
  const through = existing?.type === "file" && !(op.nlink === 1 && tree.namesOf(existing).length > 1);
  if (through && existing.etag === etagOf(content)) {
    existing.mode = op.mode;
    tree.assignAttrs(existing, op);
    return;
  }
  const node: Node = through ? (existing as Node) : { type: "file", mode: op.mode, mtimeMs: Date.now() };
  Object.assign(node, { content, etag: etagOf(content), mode: op.mode, mtimeMs: Date.now(), mtimeNsec: 0 });
  tree.assignAttrs(node, op);
  if (!through) tree.putNode(path, node);
}

/** The op's mode, owner and time on what is already at `path` (a conflict copy made before). */
function attrsOn(tree: MemoryTree, path: string, op: SyncOp): void {
  const node = tree.nodes.get(path);
  if (!node || op.op === "remove" || op.op === "link") return;
  const before = JSON.stringify(tree.entry(path));
  if ("mode" in op && op.mode !== undefined && node.type !== "symlink") node.mode = op.mode;
  if (op.op !== "chmod") tree.assignAttrs(node, op);
  if (JSON.stringify(tree.entry(path)) !== before) tree.record(tree.namesOf(node));
}

/** Makes `op.path` what the op says, as the object's `replace` does; one change when anything changed. */
function applyOp(tree: MemoryTree, op: SyncOp, content: Uint8Array | null): void {
  const before = JSON.stringify(tree.entry(op.path));
  switch (op.op) {
    case "write":
    case "commitUpload":
      putFile(tree, op.path, op, content ?? new Uint8Array());
      break;
    case "mkdir": {
      const dir = tree.nodes.get(op.path);
      if (dir?.type === "dir") dir.mode = op.mode;
      else {
        // As the object does: the directory is made (one change), then its owner and
        // times are set (another), so one op logs two revisions.
        tree.putNode(op.path, { type: "dir", mode: op.mode, mtimeMs: Date.now() });
        tree.record([op.path]);
      }
      tree.assignAttrs(tree.nodes.get(op.path) as Node, op);
      break;
    }
    case "symlink": {
      const there = tree.nodes.get(op.path);
      if (there?.type === "symlink" && there.target === op.target) {
        tree.assignAttrs(there, op);
        break;
      }
      const node: Node = { type: "symlink", mode: 0o777, mtimeMs: Date.now(), target: op.target };
      tree.assignAttrs(node, op);
      tree.putNode(op.path, node);
      break;
    }
    case "link": {
      const node = linkSource(tree, op.existing);
      if (tree.nodes.get(op.path) !== node) {
        tree.removeTree(op.path);
        tree.putNode(op.path, node);
      }
      break;
    }
    case "remove":
      tree.removeTree(op.path);
      break;
    case "chmod": {
      const node = tree.nodes.get(op.path);
      if (node) node.mode = op.mode;
      break;
    }
    case "setattr": {
      const node = tree.nodes.get(op.path);
      if (!node) break;
      if (op.mode !== undefined && node.type !== "symlink") node.mode = op.mode;
      tree.assignAttrs(node, op);
      break;
    }
  }
  if (JSON.stringify(tree.entry(op.path)) === before) return;
  // A change to a file shows under every name of it, as the object's change log lists them.
  const node = tree.nodes.get(op.path);
  tree.record(node && node.type !== "dir" ? tree.namesOf(node) : [op.path]);
}

/** A mode or metadata change, which has no version of its own to save when it conflicts. */
function metadataOnly(op: SyncOp): boolean {
  return op.op === "chmod" || op.op === "setattr";
}
