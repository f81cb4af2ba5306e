/**
 * `npm run deploy`: applies the D1 migrations to the remote database, then `wrangler deploy`
 * (which builds the container image from container/Dockerfile with Docker). Arguments after
 * `--` go to `wrangler deploy`.
 *
 * `npm run deploy -- --dry-run` needs no Cloudflare account and no Docker: it lists the
 * migrations a deploy would apply (remotely it would skip those already applied) instead of
 * applying them, and runs `wrangler deploy --dry-run`, which builds and bundles everything
 * into .build/deploy without uploading. Without a working Docker it leaves the container
 * image out (`--containers-rollout=none`) and says so: wrangler builds that image even for a
 * dry run.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, join } from "node:path";

const root = join(import.meta.dirname, "..");
const wrangler = join(dirname(createRequire(import.meta.url).resolve("wrangler/package.json")), "bin/wrangler.js");
const args = process.argv.slice(2);
const dryRun = args.includes("--dry-run");

function wranglerRun(wranglerArgs: string[]): number {
  // wrangler's [build] step runs `node`: make that this same Node (24), however we were started.
  const PATH = [dirname(process.execPath), join(root, "node_modules/.bin"), process.env.PATH].join(delimiter);
  const result = spawnSync(process.execPath, [wrangler, ...wranglerArgs], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, PATH },
  });
  return result.status ?? 1;
}

/** Whether a Docker engine answers, which `wrangler deploy` needs to build the container image. */
function dockerWorks(): boolean {
  const docker = process.env.WRANGLER_DOCKER_BIN ?? "docker";
  return spawnSync(docker, ["info"], { stdio: "ignore", timeout: 10_000 }).status === 0;
}

if (!dryRun) {
  const migrated = wranglerRun(["d1", "migrations", "apply", "DB", "--remote"]);
  if (migrated !== 0) process.exit(migrated);
  process.exit(wranglerRun(["deploy", ...args]));
}

const migrations = readdirSync(join(root, "migrations")).filter((name) => name.endsWith(".sql"));
console.log(`deploy --dry-run: a deploy applies these D1 migrations remotely first (those not yet applied):`);
for (const name of migrations.sort()) console.log(`  migrations/${name}`);
const extra: string[] = [];
if (!args.some((arg) => arg.startsWith("--outdir"))) extra.push("--outdir", join(root, ".build/deploy"));
if (!args.some((arg) => arg.startsWith("--containers-rollout")) && !dockerWorks()) {
  console.log(
    "deploy --dry-run: no Docker engine answers, so the container image (container/Dockerfile) is left out; a real deploy needs Docker to build it",
  );
  extra.push("--containers-rollout=none");
}
process.exit(wranglerRun(["deploy", ...args, ...extra]));
