/**
 * How every example reaches Cubicle: `CUBICLE_BASE_URL` (default: `npm start`'s address)
 * and `CUBICLE_API_KEY`. Without a key it signs up a fresh account, so a first run needs
 * nothing but a running platform.
 */
import { Cubicle } from "@cubicle/sdk";

export async function connect(example: string): Promise<Cubicle> {
  const baseUrl = process.env.CUBICLE_BASE_URL ?? "http://127.0.0.1:8787";
  const apiKey = process.env.CUBICLE_API_KEY;
  if (apiKey) return new Cubicle({ baseUrl, apiKey });
  const email = `${example}-${Date.now()}@example.com`;
  const signed = await new Cubicle({ baseUrl }).signup({ email });
  console.log(`signed up ${email} (set CUBICLE_API_KEY to reuse an account)`);
  return new Cubicle({ baseUrl, apiKey: signed.apiKey.key });
}

/** Throws with the run's output when it did not complete, so a failed step reads plainly. */
export function ensureCompleted(
  step: string,
  run: { status: string; exitCode: number | null; stdout: string; stderr: string },
) {
  if (run.status === "completed" && run.exitCode === 0) return;
  throw new Error(`${step} ${run.status} (exit ${run.exitCode})\n${run.stdout}\n${run.stderr}`);
}
