/**
 * Conflicts the pusher met (the object kept its version of a path and saved the container's
 * beside it, or dropped a removal), kept until a command's outcome reports them. Each command
 * reports those met while it ran, and those met since the last command answered: after a
 * daemon restart, the first push (at `hello`) meets the conflicts of the command the crash
 * cut short, and the next command to answer is the one that can tell.
 */
import { daemonLimits } from "../limits.ts";

export interface ConflictReport {
  path: string;
  savedAs: string | null;
}

export class ConflictLog {
  private readonly entries: (ConflictReport & { seq: number })[] = [];
  private seq = 0;
  private reportedThrough = 0;

  add(path: string, savedAs: string | null): void {
    this.entries.push({ seq: ++this.seq, path, savedAs });
    if (this.entries.length > daemonLimits.conflictsKeptMax) this.entries.shift();
  }

  /** Taken when a command starts: it will report every conflict after this mark. */
  mark(): number {
    return this.reportedThrough;
  }

  /** The conflicts after `mark`, oldest first (at most conflictsKeptMax), now reported. */
  since(mark: number): ConflictReport[] {
    const found = this.entries.filter((e) => e.seq > mark).map(({ path, savedAs }) => ({ path, savedAs }));
    this.reportedThrough = Math.max(this.reportedThrough, this.seq);
    return found;
  }
}
