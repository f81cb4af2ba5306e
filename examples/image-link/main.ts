/**
 * An image behind a public link: a `javascript` run makes a PNG (with Workers AI where the
 * platform is deployed with it, otherwise a deterministic local drawing; see draw.ts),
 * writes it into the workspace, and the file is shared by a public link that serves it as
 * image/png.
 *
 *   npm start                        # in one terminal
 *   npm run example image-link       # in another
 */
import type { Cubicle } from "@cubicle/sdk";
import { connect, ensureCompleted } from "../connect.ts";
import { DRAW_PNG, HEIGHT, PROMPT, WIDTH } from "./draw.ts";

export { HEIGHT, WIDTH };

/** What the run answers: where the PNG is, and who drew it (a model's name, or "local" and why). */
interface Drawn {
  path: string;
  bytes: number;
  source: string;
  fallback: string | null;
}

export async function imageLink(cubicle: Cubicle) {
  const ws = await cubicle.workspaces.create({ name: "image-link" });
  const input = { prompt: PROMPT, width: WIDTH, height: HEIGHT };
  const run = await ws.exec({ executor: "javascript", code: DRAW_PNG, input });
  ensureCompleted("draw", run);
  const { path, source, fallback } = run.result as Drawn;
  const share = await ws.share({ path, ttlSeconds: 3600 });
  const response = await fetch(share.url);
  const png = new Uint8Array(await response.arrayBuffer());
  return {
    workspaceId: ws.id,
    url: share.url,
    contentType: response.headers.get("content-type"),
    png,
    source,
    fallback,
  };
}

if (import.meta.main) {
  const { url, png, contentType, source, fallback } = await imageLink(await connect("image-link"));
  console.log(`sunset.png: ${png.length} bytes, ${contentType}, drawn by ${source}${fallback ? ` (${fallback})` : ""}`);
  console.log(`public link (1 hour): ${url}`);
}
