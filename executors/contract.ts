/**
 * The executor contract: what the workspace object asks of every executor (shell,
 * javascript, container), and what it gives them. Documented field by field because three
 * implementations and one shared test suite depend on it.
 *
 * Ownership: the workspace object owns the exec record and its durable output. An executor
 * owns nothing durable: it runs one request, pushes output through `OutputSink` as it is
 * produced (the object stores each piece before acknowledging it), and returns an outcome.
 * If the caller goes away, the object keeps the run going (background runs) or aborts it
 * through `kill` — the executor never decides alone that nobody is listening.
 */

import type {
  ContainerResources,
  ExecStatus,
  ExecStopReason,
  MountMode,
  OutputPiece,
  OutputStream,
} from "../container/wire/exec.ts";

// How a run ends and what its output is, named once for every side (computerd too, so it
// lives in container/wire).
export {
  EXEC_STATUSES,
  EXEC_STOP_REASONS,
  type ExecStatus,
  type ExecStopReason,
  exitCodes,
  MOUNT_MODES,
  type OutputPiece,
  type OutputStream,
} from "../container/wire/exec.ts";

/** The executors, in the order the API documents them. */
export const EXECUTORS = ["shell", "javascript", "container"] as const;
export type ExecutorName = (typeof EXECUTORS)[number];

/**
 * The Workers compatibility date of the gateway (wrangler.toml's `compatibility_date`) and of
 * every Dynamic Worker the executors load, so module code sees the runtime the gateway does.
 * scripts/compatibilityDate.test.ts holds wrangler.toml to it.
 */
export const COMPATIBILITY_DATE = "2026-11-01";

/** What crosses the API as a structured value: JSON. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** One run, as the workspace object hands it to an executor. */
export interface ExecRequest {
  /** `ex_…`, unique per run; also the usage event id. */
  execId: string;
  /** shell: the script, run by just-bash; container: the script, run by `/bin/sh -c`. */
  command?: string;
  /** javascript: the ES module source whose default export is called with `input`. */
  code?: string;
  /** javascript: the structured value passed to the module. */
  input?: JsonValue;
  /** Working directory, an absolute path as the executor sees it (`/workspace/...`). */
  cwd: string;
  /** Extra environment variables; the executor adds its defaults (HOME, PATH, PWD). */
  env: Record<string, string>;
  /** Bytes fed to standard input, then EOF. Empty when absent. */
  stdin: Uint8Array;
  /** Wall-clock limit; past it the run ends with status `timed_out` and `exitCodes.timedOut` (124). */
  timeoutMs: number;
  /** Output (stdout + stderr) the executor need not produce past; the object also caps what it stores. */
  outputBytesMax: number;
  /** Whether the run may reach the network. Off unless the request asked and the plan allows. */
  egress: boolean;
  /** container: the computer's memory, process, CPU and tmp limits under the tenant's plan (the run's grant). Others ignore it. */
  resources?: ContainerResources;
  /** container: who the command runs as in its box, the user 1000 (also when absent) or root. Others ignore it. */
  user?: "user" | "root";
}

/**
 * Where an executor sends output while the run goes on. Implemented by the workspace
 * object (an RpcTarget passed as a method argument). `write` resolves once the piece is
 * durable; an executor should await it, which is the back-pressure that keeps a fast
 * producer from outrunning storage.
 */
export interface OutputSink {
  write(stream: OutputStream, data: Uint8Array): Promise<void>;
}

/** How a run ended. */
export interface ExecOutcome {
  /** `completed`: exit code 0; `failed`: non-zero; `timed_out`: 124; `cancelled`: killed (137). See `exitCodes`. */
  status: ExecStatus;
  exitCode: number;
  /** javascript: the module's return value, as JSON. */
  result?: JsonValue;
  /** Why the executor itself failed or stopped the run (a limit, a crash), for the record; not user output. */
  error?: string;
  /** Which resource limit of the sandbox ended the run, when one did (exit 137). */
  reason?: ExecStopReason;
  /** container: how the workspace was mounted in the box (docs/container-sync.md). */
  mount?: WorkspaceMount;
  /**
   * container: changes of the box that met a newer version on the workspace (docs/container-sync.md,
   * "Conflicts"): the workspace's version stayed at `path`, the box's was saved at `savedAs`
   * (null: a removal or mode change, dropped).
   */
  conflicts?: ExecConflict[];
  /**
   * Output the executor kept for its answer rather than sending it through the sink: it
   * comes after everything the sink took. A short run's output then costs no call of its
   * own (docs/rooms.md, the path of an exec).
   */
  tail?: OutputPiece[];
}

/** One path both the box and the workspace changed; neither version was lost. */
export interface ExecConflict {
  path: string;
  savedAs: string | null;
}

/** How the container executor's box saw the workspace: a native local filesystem, or the FUSE fallback. */
export type WorkspaceMount = MountMode;

/**
 * The file capability an executor's sandbox gets: the workspace tree and nothing else.
 * Paths are workspace paths (`/src/a.ts`), not `/workspace/...`; expected failures come
 * back as values with POSIX codes, as the workspace object returns them.
 */
export interface WorkspaceFsApi {
  readFile(path: string): Promise<{ ok: true; bytes: Uint8Array } | FsError>;
  writeFile(path: string, bytes: Uint8Array, options?: { append?: boolean }): Promise<{ ok: true } | FsError>;
  stat(path: string): Promise<{ ok: true; stat: FsStat } | FsError>;
  lstat(path: string): Promise<{ ok: true; stat: FsStat } | FsError>;
  readdir(path: string): Promise<{ ok: true; entries: { name: string; type: FsStat["type"] }[] } | FsError>;
  mkdir(path: string, options?: { recursive?: boolean }): Promise<{ ok: true } | FsError>;
  rm(path: string, options?: { recursive?: boolean; force?: boolean }): Promise<{ ok: true } | FsError>;
  mv(from: string, to: string): Promise<{ ok: true } | FsError>;
  cp(from: string, to: string, options?: { recursive?: boolean }): Promise<{ ok: true } | FsError>;
  symlink(target: string, path: string): Promise<{ ok: true } | FsError>;
  readlink(path: string): Promise<{ ok: true; target: string } | FsError>;
  chmod(path: string, mode: number): Promise<{ ok: true } | FsError>;
  truncate(path: string, size: number): Promise<{ ok: true } | FsError>;
  /** A hard link: `path` becomes another name of the file at `existing` (not followed); EPERM for a directory. */
  link(existing: string, path: string): Promise<{ ok: true } | FsError>;
  /** Owner and group in the box's ids (1000 its user, 0 its root); one left out is kept. `follow: false` is lchown. */
  chown(
    path: string,
    owner: { uid?: number; gid?: number },
    options?: { follow?: boolean },
  ): Promise<{ ok: true } | FsError>;
  /**
   * The modification time: nanoseconds since 1970 as a decimal string (exact), or null for
   * now. There is no access time to set (none is kept). `follow: false` sets a link's own.
   */
  utimes(path: string, mtimeNs: string | null, options?: { follow?: boolean }): Promise<{ ok: true } | FsError>;
}

export interface FsError {
  ok: false;
  code: string;
  message: string;
}

export interface FsStat {
  type: "file" | "dir" | "symlink";
  size: number;
  mode: number;
  /** RFC 3339, to the millisecond. */
  mtime: string;
  /** The exact mtime: nanoseconds since 1970 as a decimal string. Access time reads as this too. */
  mtimeNs?: string;
  /** Names of a file (hard links); 2 + subdirectories for a directory. */
  nlink?: number;
  /** Owner and group, in the box's ids. */
  uid?: number;
  gid?: number;
  /**
   * Equal for two paths that name the same file (the inode number), so tools can tell
   * "same file" from "same name" — `cp`/`mv` onto an existing target need it.
   */
  identity?: string;
}

/**
 * Publishing from inside a run: what the shell's `publish` and `share` commands and the
 * javascript executor's `ws:artifacts` module call. Implemented by the workspace object
 * (an RpcTarget handed to the executor beside the file capability), bound to this
 * workspace, the run's credential limits (path prefix) and the request's public base URL.
 * Paths are workspace paths (`/dist`), as in WorkspaceFsApi.
 */
export interface WorkspaceToolsApi {
  /** Publishes a file or directory as an immutable, content-addressed artifact. */
  publish(path: string): Promise<{ ok: true; artifact: ArtifactInfo } | FsError>;
  /** A public, expiring, revocable link that serves one file. */
  share(path: string, ttlSeconds: number): Promise<{ ok: true; share: ShareInfo } | FsError>;
  /**
   * An image from the deployment's text-to-image model (Workers AI), metered as one
   * `ai_images` unit. ENOTSUP where no model is configured (local `npm start`), EDQUOT past
   * the plan's quota or spend cap, EINVAL for a request the model cannot take, EIO when the
   * model fails or answers with something that is not a PNG.
   */
  generateImage(request: ImageRequest): Promise<{ ok: true; image: GeneratedImage } | FsError>;
}

export interface ImageRequest {
  /** What to draw, 1–2,048 characters. */
  prompt: string;
  /** What to keep out of the picture. */
  negativePrompt?: string;
  /** Pixels, 256–2,048 each; the model's default (1,024) when left out. */
  width?: number;
  height?: number;
  /** Diffusion steps, 1–20; fewer is faster. */
  steps?: number;
  /** The same seed and request give the same picture. */
  seed?: number;
}

export interface GeneratedImage {
  /** A PNG file, as the model made it. */
  bytes: Uint8Array;
  contentType: "image/png";
  /** Read from the PNG's header, not the request. */
  width: number;
  height: number;
  /** The Workers AI model that drew it (`@cf/…`). */
  model: string;
}

export interface ArtifactInfo {
  /** `art_…`, derived from the digest: publishing the same content again gives the same id. */
  id: string;
  /** `sha256:<hex>` over the artifact's canonical file list and contents. */
  digest: string;
  files: { path: string; size: number }[];
  bytes: number;
  createdAt: string;
  /** Where `GET` answers the artifact's record; `downloadUrl` answers a tar.gz. */
  url: string;
  downloadUrl: string;
}

export interface ShareInfo {
  id: string;
  path: string;
  /** `<base>/s/<token>`: anyone holding it may GET the file until it expires or is revoked. */
  url: string;
  expiresAt: string;
}

/**
 * An executor as the workspace object drives it. `run` resolves when the run has ended
 * (all output already written to the sink); `kill` asks a running run to stop and
 * resolves at once — the run's own `run` promise then resolves as `cancelled`.
 */
export interface Executor {
  run(request: ExecRequest, sink: OutputSink): Promise<ExecOutcome>;
  kill(execId: string): Promise<void>;
  /**
   * Asked before a run is recorded, by executors whose sandbox can be not there yet (the
   * container's, while its root image builds on a fresh machine). `starting` turns the
   * request into 503 `executor_starting` with Retry-After: no record, no charge, the
   * concurrency slot freed. Any other trouble is the run's to report, as before.
   */
  ready?(): Promise<ExecutorReadiness>;
}

export type ExecutorReadiness = { ok: true } | { ok: false; retryAfterSeconds: number; message: string };
