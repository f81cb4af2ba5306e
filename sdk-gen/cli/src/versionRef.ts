/**
 * The version arguments of the time-machine commands, checked before any request so a typo
 * is a usage error (exit 2) rather than a round trip: a snapshot id, a revision number, or
 * `live` where the live tree is meant. The server checks again; this only answers sooner.
 */
import { CliError } from "./output.ts";

const SNAPSHOT_ID = /^snap_[0-9a-z]{1,40}$/;
const REVISION = /^\d{1,15}$/;

export function parseRevision(value: string): number {
  if (!REVISION.test(value)) throw new CliError(`a revision is a whole number, got ${value}`, 2);
  return Number(value);
}

export function parseSnapshotId(value: string): string {
  if (!SNAPSHOT_ID.test(value)) throw new CliError(`a snapshot id looks like snap_…, got ${value}`, 2);
  return value;
}

/** A snapshot id or a revision; `live` too when `allowLive`. */
export function parseVersion(value: string, allowLive: boolean): string {
  if (SNAPSHOT_ID.test(value) || REVISION.test(value) || (allowLive && value === "live")) return value;
  const what = allowLive ? "a snapshot id, a revision number or live" : "a snapshot id or a revision number";
  throw new CliError(`expected ${what}, got ${value}`, 2);
}
