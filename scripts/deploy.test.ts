/**
 * `npm run deploy -- --dry-run`, as the README has a newcomer run it: no Cloudflare account
 * (no token, no login) and no Docker engine, and it still bundles the Worker.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const outdir = mkdtempSync(join(tmpdir(), "cubicle-deploy-"));
const home = mkdtempSync(join(tmpdir(), "cubicle-home-"));

afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

describe("npm run deploy -- --dry-run", () => {
  it("bundles the Worker without an account or Docker, and lists the migrations it would apply", () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("CLOUDFLARE_")));
    const run = spawnSync(process.execPath, [join(root, "scripts/deploy.ts"), "--dry-run", `--outdir=${outdir}`], {
      cwd: root,
      // A home of its own: no wrangler login from this machine can be used.
      env: { ...env, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), WRANGLER_DOCKER_BIN: "/nonexistent/docker" },
      encoding: "utf8",
      timeout: 240_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain("migrations/0000_init.sql");
    expect(run.stdout).toContain("the container image (container/Dockerfile) is left out");
    expect(run.stdout).toContain("--dry-run: exiting now");
    expect(readdirSync(outdir).some((name) => name.endsWith(".js"))).toBe(true);
    // wrangler's bundle and build take over a minute on a loaded 2-core machine.
  }, 240_000);
});
