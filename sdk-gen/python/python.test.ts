/**
 * The Python SDK's offline unit tests, in `npm test`. Its type check (pyright, strict on the
 * package) and the drift of its generated files run in `npm run check`.
 */
import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const run = promisify(execFile);

async function outcome(command: string, args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(command, args, {
      cwd: root,
      maxBuffer: 16 * 1024 * 1024,
      // No __pycache__ beside the sources (the generated directory is compared file by file).
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, output: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
  }
}

describe("the Python SDK", () => {
  it("passes its unit tests", async () => {
    const { code, output } = await outcome("python3", [
      "-m",
      "unittest",
      "discover",
      "-s",
      "sdk-gen/python/tests/unit",
      "-t",
      "sdk-gen/python",
    ]);
    expect(code, output).toBe(0);
  });
});
