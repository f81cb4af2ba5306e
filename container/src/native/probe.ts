/**
 * Can this kernel and filesystem run the native mode? computerd asks once at start, and
 * falls back to FUSE with the reason when not.
 */
import { spawn } from "node:child_process";

/**
 * Can this kernel and filesystem run the native mode? Runs the helper's --probe: the same
 * checks and marks as a real start, then exit. `reason` is the helper's own sentence (not
 * ext4, not a mount root, kernel without pre-content events) or why it could not run.
 */
export async function probeFanotify(
  binary: string,
  mountRoot: string,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  const child = spawn(binary, [mountRoot, "--probe"], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.setEncoding("latin1").on("data", (chunk: string) => {
    out += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    err += chunk;
  });
  const exit = await new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.on("error", (error) => resolve({ code: null, error }));
    child.on("close", (code) => resolve({ code }));
  });
  if (exit.error) return { ok: false, reason: `cannot run ${binary}: ${exit.error.message}` };
  if (exit.code === 0 && out.startsWith('{"t":"ready"')) return { ok: true };
  const reason = err.trim().replace(/^cubicle-fanotify: /, "");
  return { ok: false, reason: reason || `helper exited with ${exit.code}` };
}
