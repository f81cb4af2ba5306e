/**
 * The box image as the supervisor holds it: every computerd gets its path (COMPUTERD_ROOTFS),
 * so no computer starts before the image is ready. The supervisor starts the build when it
 * starts (`start`), and the platform serves everything else meanwhile.
 *
 * While the image builds, `require` throws `image_building` with an honest Retry-After: the
 * last build's duration on this machine (or a measured cold build) minus the time spent so
 * far. After a failed build it throws `image_failed` once, with the last lines of the log,
 * and starts the build again, so the next request finds it building rather than failed for
 * good. An image deleted under a running supervisor is built again the same way.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type EnsuredImage, ImageBuildError, type ImageProgress } from "../image/build.ts";
import { imageLimits } from "../image/limits.ts";
import { META_FILE, readMeta } from "../image/store.ts";
import { SupervisorError } from "./errors.ts";

export type ImageStatus =
  | { state: "building"; phase: string; elapsedMs: number; retryAfterSeconds: number }
  | { state: "ready"; path: string; hash: string; built: boolean }
  | { state: "failed"; error: string; logTail: string[] };

/** What the supervisor needs of its image: the path, or a typed refusal to start a computer. */
export interface RootImage {
  /** The image's path when it is ready; otherwise throws SupervisorError `image_building` or `image_failed`. */
  require(): string;
  status(): ImageStatus;
}

export interface BoxImageOptions {
  /** Builds or finds the image (container/image/build.ts `ensureImage`). */
  build: (onProgress: (progress: ImageProgress) => void) => Promise<EnsuredImage>;
  /** How long a build is expected to take, in ms. */
  estimateMs: () => number;
  /** Told of every status change and progress report (the supervisor prints them for `npm start`). */
  onStatus?: (status: ImageStatus) => void;
}

export class BoxImage implements RootImage {
  private current: ImageStatus | null = null;
  private startedAtMs = 0;
  private phase = "starting";

  private readonly options: BoxImageOptions;

  constructor(options: BoxImageOptions) {
    this.options = options;
  }

  /** Starts the build unless one runs or the image is ready. */
  start(): void {
    if (this.current?.state === "building" || this.ready()) return;
    this.startedAtMs = Date.now();
    this.phase = "starting";
    // Not reported: a ready image answers within milliseconds, and its start is no news.
    this.current = this.building();
    this.options
      .build((progress) => {
        this.phase = progress.phase;
        this.set(this.building());
      })
      .then(
        (image) => this.set({ state: "ready", path: image.path, hash: image.hash, built: image.built }),
        (error: unknown) =>
          this.set({
            state: "failed",
            error: error instanceof Error ? error.message : String(error),
            logTail: error instanceof ImageBuildError ? error.logTail : [],
          }),
      );
  }

  require(): string {
    const ready = this.ready();
    if (ready) return ready;
    const failed = this.current?.state === "failed" ? this.current : null;
    this.start();
    const retry = { retryAfterSeconds: this.retryAfterSeconds() };
    if (failed) {
      const log = failed.logTail.length ? `; its log ended with:\n${failed.logTail.join("\n")}` : "";
      throw new SupervisorError("image_failed", `building the box image failed (${failed.error})${log}`, retry);
    }
    const status = this.building();
    const seconds = Math.round(status.elapsedMs / 1000);
    throw new SupervisorError(
      "image_building",
      `the box image is being built (${status.phase}, ${seconds} s so far); retry in ${retry.retryAfterSeconds} s`,
      retry,
    );
  }

  status(): ImageStatus {
    if (this.current?.state === "building") return this.building();
    return this.current ?? { state: "building", phase: "not started", elapsedMs: 0, retryAfterSeconds: 0 };
  }

  /** The path of a ready image that is still on disk; a vanished one is forgotten. */
  private ready(): string | null {
    if (this.current?.state !== "ready") return null;
    if (existsSync(join(this.current.path, META_FILE))) return this.current.path;
    this.current = null;
    return null;
  }

  private building(): ImageStatus & { state: "building" } {
    const elapsedMs = Date.now() - this.startedAtMs;
    return { state: "building", phase: this.phase, elapsedMs, retryAfterSeconds: this.retryAfterSeconds() };
  }

  /** What is left of the expected build time, within the bounds a client should wait. */
  private retryAfterSeconds(): number {
    const leftMs = this.options.estimateMs() - (Date.now() - this.startedAtMs);
    const seconds = Math.ceil(leftMs / 1000);
    return Math.min(imageLimits.retryAfterSecondsMax, Math.max(imageLimits.retryAfterSecondsMin, seconds));
  }

  private set(status: ImageStatus) {
    this.current = status;
    this.options.onStatus?.(status);
  }
}

/** An image that is there already (COMPUTERD_ROOTFS given), for tests that start the supervisor. */
export function readyImage(path: string): RootImage {
  return {
    require: () => path,
    status: () => ({ state: "ready", path, hash: readMetaHash(path), built: false }),
  };
}

function readMetaHash(path: string): string {
  return readMeta(path)?.hash ?? "";
}
