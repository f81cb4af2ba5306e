/**
 * What `cubicle shell` carries from one command to the next: the working directory and the
 * environment variables the user set. Each line runs as its own exec; a trailer appended to
 * it prints, after a marker no command would print, `pwd` and `env`, which the next exec
 * receives as its `cwd` and `env`. The marker and what follows never reach the terminal.
 */

/** Variables a shell sets for itself: never carried, they would pin the next run's own values. */
const VOLATILE = new Set(["PWD", "OLDPWD", "SHLVL", "_", "__cubicle_status"]);
const ENV_LINE = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/;
const CWD_ROOTS = ["/workspace", "/tmp"];

export class ShellState {
  cwd = "/workspace";
  /** Variables that differ from a fresh run's (the baseline). */
  env: Record<string, string> = {};
  private baseline: Record<string, string> = {};
  readonly marker = `__CUBICLE_STATE_${crypto.randomUUID().replaceAll("-", "")}__`;

  /** The line as a script that ends with the trailer and exits with the line's own status. */
  wrap(line: string): string {
    return `${line}\n__cubicle_status=$?\nprintf '\\n%s\\n' '${this.marker}'\npwd\nenv\nexit $__cubicle_status\n`;
  }

  /** Takes a fresh run's trailer as the baseline the session's variables are told apart from. */
  setBaseline(trailer: string): void {
    this.baseline = parseTrailer(trailer).env;
  }

  /** Takes a run's trailer; answers a warning when its directory cannot be kept. */
  absorb(trailer: string): string | null {
    const { cwd, env } = parseTrailer(trailer);
    this.env = Object.fromEntries(
      Object.entries(env).filter(([name, value]) => !VOLATILE.has(name) && this.baseline[name] !== value),
    );
    if (!cwd || cwd === this.cwd) return null;
    if (!CWD_ROOTS.some((root) => cwd === root || cwd.startsWith(`${root}/`))) {
      return `${cwd} is outside /workspace and /tmp, where runs may start; staying in ${this.cwd}`;
    }
    this.cwd = cwd;
    return null;
  }
}

function parseTrailer(trailer: string): { cwd: string | null; env: Record<string, string> } {
  const [cwd, ...lines] = trailer.split("\n");
  const env: Record<string, string> = {};
  for (const line of lines) {
    const match = ENV_LINE.exec(line);
    if (match) env[match[1] as string] = match[2] as string;
  }
  return { cwd: cwd?.trim() || null, env };
}

/**
 * Splits a run's stdout into what the user sees and the trailer after the marker, as it
 * streams: text that could be the start of the marker is held back until it is not.
 */
export class MarkerSplitter {
  private held = "";
  private trailer: string | null = null;
  private readonly needle: string;

  constructor(marker: string) {
    this.needle = `\n${marker}\n`;
  }

  /** The part of `text` that can be shown now. */
  push(text: string): string {
    if (this.trailer !== null) {
      this.trailer += text;
      return "";
    }
    const all = this.held + text;
    const at = all.indexOf(this.needle);
    if (at !== -1) {
      this.trailer = all.slice(at + this.needle.length);
      this.held = "";
      return all.slice(0, at);
    }
    const keep = longestPrefixSuffix(all, this.needle);
    this.held = all.slice(all.length - keep);
    return all.slice(0, all.length - keep);
  }

  /** What was held back, and the trailer (null when the run ended before printing it). */
  end(): { rest: string; trailer: string | null } {
    const rest = this.held;
    this.held = "";
    return { rest, trailer: this.trailer };
  }
}

/** The length of the longest end of `text` that is a start of `needle`. */
function longestPrefixSuffix(text: string, needle: string): number {
  for (let length = Math.min(text.length, needle.length - 1); length > 0; length--) {
    if (needle.startsWith(text.slice(text.length - length))) return length;
  }
  return 0;
}
