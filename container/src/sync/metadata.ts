/**
 * Owners and modification times between the box's view (the wire's) and the replica, each
 * in one place so the mapping can change without touching pull, push or hydration.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { BOX_DEFAULT_OWNER } from "../../wire/index.ts";

/** How box ids (the wire's) and the replica's ids translate, for the mode that runs. */
export interface IdMap {
  toReplica(boxId: number): number;
  toBox(replicaId: number): number;
}

/** Ids one user namespace maps (sandbox/userns.ts): box ids 0..65535. */
const idsMapped = 65_536;
/** What an id outside the computer's range shows as in the box: the overflow id, nobody. */
const overflowId = 65_534;

/**
 * The native mode's map: the box reads the replica's filesystem directly, through its user
 * namespace, where box id n is host id `base + n` (sandbox/userns.ts). So the replica holds
 * host ids, and an id outside the range (none should be) shows as the box's nobody.
 */
export function nativeIds(base: number): IdMap {
  return {
    toReplica: (boxId) => base + boxId,
    toBox: (replicaId) => (replicaId >= base && replicaId - base < idsMapped ? replicaId - base : overflowId),
  };
}

/**
 * The FUSE mode's map. The daemon writes the replica as root and the mount shows root's
 * files as the box user's (fs/ops.ts: a pulled file needs no chown, and git in the box must
 * own its tree), so the box's default user is the replica's root; every other box id is
 * stored as its host id, `base + n`, as in the native mode.
 */
export function fuseIds(base: number): IdMap {
  const native = nativeIds(base);
  return {
    toReplica: (boxId) => (boxId === BOX_DEFAULT_OWNER.uid ? 0 : native.toReplica(boxId)),
    toBox: (replicaId) => (replicaId === 0 ? BOX_DEFAULT_OWNER.uid : native.toBox(replicaId)),
  };
}

const NS_PER_MS = 1_000_000n;

/** A bigint stat's nanoseconds as the wire's whole milliseconds (rounded down) and the nanoseconds past them. */
export function wireTime(ns: bigint): { mtimeMs: number; mtimeNsec: number } {
  let ms = ns / NS_PER_MS;
  if (ns < 0n && ms * NS_PER_MS !== ns) ms -= 1n;
  return { mtimeMs: Number(ms), mtimeNsec: Number(ns - ms * NS_PER_MS) };
}

/** The wire's time as nanoseconds since 1970. */
export function nsOf(mtimeMs: number, mtimeNsec = 0): bigint {
  return BigInt(mtimeMs) * NS_PER_MS + BigInt(mtimeNsec);
}

/**
 * Sets a replica entry's access and modification times to the wire's time (a symlink's own,
 * not its target's); access time equals mtime, as the object keeps none.
 *
 * Node's utimes takes seconds as a double, and libuv splits that into seconds and
 * nanoseconds with float arithmetic: 1700000000.123 lands as .122999906. So a time whose
 * nanoseconds are whole microseconds (every time the object made itself: those are whole
 * milliseconds) is given half a microsecond late, which lands within 0.3 µs of that and
 * reads back exact to the microsecond (and to the millisecond through the FUSE mount, which
 * shows milliseconds). A time with sub-microsecond nanoseconds (set on purpose, by
 * utimensat in the box or the API) or before 1970 (where libuv's split goes wrong) is set
 * exactly by coreutils' touch, at the cost of a process: those are rare.
 */
export function setTimes(file: string, mtimeMs: number, mtimeNsec = 0): void {
  if (mtimeMs >= 0 && mtimeNsec % 1000 === 0) {
    const seconds = Math.floor(mtimeMs / 1000);
    const nsWithin = (mtimeMs - seconds * 1000) * 1_000_000 + mtimeNsec + 500;
    const at = seconds + nsWithin / 1e9;
    fs.lutimesSync(file, at, at);
    return;
  }
  const ns = nsOf(mtimeMs, mtimeNsec);
  const negative = ns < 0n;
  const magnitude = negative ? -ns : ns;
  const text = `@${negative ? "-" : ""}${magnitude / 1_000_000_000n}.${String(magnitude % 1_000_000_000n).padStart(9, "0")}`;
  const touched = spawnSync("touch", ["-h", "-d", text, "--", file], { encoding: "utf8" });
  if (touched.status !== 0) throw new Error(`touch ${file}: ${touched.stderr || touched.error?.message}`);
}

/** Whether `stat`'s mtime is the wire's time, to the microsecond that setTimes guarantees. */
export function sameTime(mtimeNs: bigint, mtimeMs: number, mtimeNsec = 0): boolean {
  const want = nsOf(mtimeMs, mtimeNsec);
  if (mtimeNsec % 1000 !== 0 || mtimeMs < 0) return mtimeNs === want;
  return mtimeNs / 1000n === want / 1000n;
}

/**
 * Gives `file` the time another replica entry has (`ns`, from a bigint stat), as hydration
 * does when it installs content over a placeholder. A time setTimes placed late on purpose
 * (300–700 ns past a whole microsecond) is that microsecond, set the fast way again; any
 * other is copied exactly.
 */
export function copyTimes(file: string, ns: bigint): void {
  const residue = ((ns % 1000n) + 1000n) % 1000n;
  const { mtimeMs, mtimeNsec } = wireTime(residue >= 300n && residue <= 700n ? ns - residue : ns);
  setTimes(file, mtimeMs, mtimeNsec);
}
