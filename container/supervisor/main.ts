/**
 * `node container/supervisor/main.ts`: runs the local supervisor until SIGTERM or SIGINT,
 * then stops every daemon and exits. Once listening it prints one JSON line on stdout,
 * `{"ready":true,"port":…,"url":"http://127.0.0.1:…"}`, which is how `npm start` learns a
 * port it let the kernel pick. Then it finds or builds the box image (container/image) and
 * prints a line `{"image":ImageStatus}` at each step of that (image.ts), for `npm start` to
 * show; computers start once the image is ready.
 *
 * Environment (flags of the same meaning win):
 *   COMPUTERD_SECRET                       required; the API's bearer and every daemon's secret
 *   COMPUTERD_SUPERVISOR_PORT   --port     default 0: any free port
 *   CUBICLE_STATE_DIR           --state-root   daemon state in <root>/computers (default .wrangler/state)
 *   CUBICLE_IMAGES_DIR          --images-dir   box images (default <state root>/images)
 *   COMPUTERD_SUPERVISOR_DAEMON --daemon   the script run by this Node as computerd
 *                                          (default .build/computerd/computerd.mjs)
 *   COMPUTERD_SUPERVISOR_IDLE_MS       --idle-ms        idle stop (default limits.ts)
 *   COMPUTERD_SUPERVISOR_COMPUTERS_MAX --computers-max  daemons at once (default limits.ts)
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { ensureImage } from "../image/build.ts";
import { imageLimits } from "../image/limits.ts";
import { lastBuildMs } from "../image/store.ts";
import { ensureFanotifyBinary } from "../native/build.ts";
import { ensureMknodBinary } from "../native/mknod/build.ts";
import { createSupervisorServer } from "./http.ts";
import { BoxImage } from "./image.ts";
import { daemonNodeFlags } from "./limits.ts";
import { Supervisor } from "./supervisor.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const { values: flags } = parseArgs({
  options: {
    port: { type: "string" },
    "state-root": { type: "string" },
    "images-dir": { type: "string" },
    daemon: { type: "string" },
    "idle-ms": { type: "string" },
    "computers-max": { type: "string" },
  },
});
const env = process.env;
const secret = env.COMPUTERD_SECRET;
if (!secret) {
  console.error("supervisor: set COMPUTERD_SECRET");
  process.exit(2);
}
const daemon = resolve(root, flags.daemon ?? env.COMPUTERD_SUPERVISOR_DAEMON ?? ".build/computerd/computerd.mjs");
if (!existsSync(daemon)) console.error(`supervisor: ${daemon} does not exist yet; starting a computer will fail`);

// `||`: an empty variable means unset, never the repo root (which resolve would make of "").
const stateRoot = resolve(root, flags["state-root"] || env.CUBICLE_STATE_DIR || ".wrangler/state");
const imagesDir = resolve(root, flags["images-dir"] || env.CUBICLE_IMAGES_DIR || join(stateRoot, "images"));
const image = new BoxImage({
  build: (onProgress) => ensureImage({ imagesDir, onProgress }),
  estimateMs: () => lastBuildMs(imagesDir) ?? imageLimits.buildMsEstimate,
  onStatus: (status) => console.log(JSON.stringify({ image: status })),
});
// The native mount mode's helper: built here (seconds, once) so every daemon gets its path;
// without a C compiler the daemons run the FUSE mode and say why.
const fanotify = await ensureFanotifyBinary();
if (!fanotify.ok) console.error(`supervisor: no native mount mode: ${fanotify.reason}`);
// Device nodes in the box (container/native/mknod): without it, mknod of a device gets EPERM.
const mknod = await ensureMknodBinary();
if (!mknod.ok) console.error(`supervisor: no device nodes in the box: ${mknod.reason}`);
const supervisor = new Supervisor({
  command: [process.execPath, ...daemonNodeFlags, daemon],
  secret,
  stateRoot,
  image,
  ...(fanotify.ok ? { fanotifyBin: fanotify.path } : {}),
  ...(mknod.ok ? { mknodBin: mknod.path } : {}),
  ...numberOption("idleMsMax", flags["idle-ms"] ?? env.COMPUTERD_SUPERVISOR_IDLE_MS),
  ...numberOption("computersMax", flags["computers-max"] ?? env.COMPUTERD_SUPERVISOR_COMPUTERS_MAX),
});
const server = createSupervisorServer(supervisor, secret);
server.listen(Number(flags.port ?? env.COMPUTERD_SUPERVISOR_PORT ?? 0), "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  console.log(JSON.stringify({ ready: true, port, url: `http://127.0.0.1:${port}` }));
  // After the ready line, which must be the first: the image's lines follow it.
  image.start();
});

let signals = 0;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    // A second signal means "now": the daemons die with us anyway (their pdeathsig chain).
    if (++signals > 1) process.exit(1);
    server.close();
    supervisor.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

function numberOption(key: string, text: string | undefined): Record<string, number> {
  if (text === undefined) return {};
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`supervisor: ${key} must be a positive number, not ${text}`);
    process.exit(2);
  }
  return { [key]: value };
}
