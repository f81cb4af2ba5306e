/**
 * The three demos, run for real against the platform started by the start script: each
 * example's own function, as `npm run example <name>` calls it (and one through that very
 * command), then the output checked
 * the way a user would — the PDF's text read by a PDF text extractor (ghostscript's
 * txtwrite), the PNG decoded, the published Worker asked a request in workerd.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { crc32, inflateSync } from "node:zlib";
import { Cubicle } from "@cubicle/sdk";
import { describe, expect, it } from "vitest";
import { HEIGHT, imageLink, WIDTH } from "../examples/image-link/main.ts";
import { HEADINGS, markdownToPdf } from "../examples/markdown-to-pdf/main.ts";
import { workerProject } from "../examples/worker-project/main.ts";
import { signUp } from "./platform.ts";
import { sharedPlatform } from "./sharedPlatform.ts";

const platform = sharedPlatform();
const root = join(dirname(fileURLToPath(import.meta.url)), "..");

async function account(name: string): Promise<Cubicle> {
  const { key } = await signUp(platform.url, `${name}@example.com`);
  return new Cubicle({ baseUrl: platform.url, apiKey: key });
}

/** The text of a PDF as ghostscript extracts it. */
function pdfText(pdf: Uint8Array): string {
  const file = join(mkdtempSync(join(tmpdir(), "cubicle-pdf-")), "report.pdf");
  writeFileSync(file, pdf);
  return execFileSync("gs", ["-q", "-dNOPAUSE", "-dBATCH", "-sDEVICE=txtwrite", "-sOutputFile=-", file], {
    encoding: "utf8",
  });
}

/** A PNG's chunks, each CRC-checked, and its pixels inflated. */
function decodePng(png: Uint8Array) {
  expect([...png.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const chunks: { type: string; data: Uint8Array }[] = [];
  for (let offset = 8; offset < png.length; ) {
    const length = view.getUint32(offset);
    const type = new TextDecoder().decode(png.subarray(offset + 4, offset + 8));
    chunks.push({ type, data: png.subarray(offset + 8, offset + 8 + length) });
    expect(view.getUint32(offset + 8 + length), `${type} CRC`).toBe(
      crc32(png.subarray(offset + 4, offset + 8 + length)),
    );
    offset += 12 + length;
  }
  const header = chunks.find((chunk) => chunk.type === "IHDR")?.data as Uint8Array;
  const headerView = new DataView(header.buffer, header.byteOffset, header.byteLength);
  const idat = Buffer.concat(chunks.filter((chunk) => chunk.type === "IDAT").map((chunk) => chunk.data));
  return {
    types: chunks.map((chunk) => chunk.type),
    width: headerView.getUint32(0),
    height: headerView.getUint32(4),
    pixels: inflateSync(idat),
  };
}

describe("the demos", () => {
  it("turns markdown into a PDF with pandoc and shares it by a public link", async () => {
    const { pdf, contentType, url } = await markdownToPdf(await account("pdf"));
    expect(url).toMatch(/\/s\//);
    expect(contentType).toBe("application/pdf");
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe("%PDF-");
    const text = pdfText(pdf).replace(/\s+/g, " ");
    for (const heading of HEADINGS) expect(text).toContain(heading);
    expect(text).toContain("Tasks done");
  });

  it("draws a PNG in a javascript run and serves it as image/png by a public link", async () => {
    const { png, contentType, source } = await imageLink(await account("image"));
    // `npm start` has no Workers AI (scripts/localDev.ts), so the module drew the picture itself.
    expect(source).toBe("local");
    expect(contentType).toBe("image/png");
    const decoded = decodePng(png);
    expect(decoded.types).toEqual(["IHDR", "IDAT", "IEND"]);
    expect([decoded.width, decoded.height]).toEqual([WIDTH, HEIGHT]);
    expect(decoded.pixels.length).toBe(HEIGHT * (1 + WIDTH * 4));
  });

  it("builds and tests a Worker in a container, publishes it, and the published Worker answers", async () => {
    const { answer, testOutput } = await workerProject(await account("worker"));
    // node --test prints "# pass 1" (tap, Node 20) or "ℹ pass 1" (spec, Node 22 and later).
    expect(testOutput).toMatch(/^[#ℹ] pass 1$/m);
    expect(answer).toBe("Hello, Grace, from a Worker built in Cubicle!");
  });

  it("runs as the README says, `npm run example image-link`, with Node alone", async () => {
    // Node strips the examples' and the SDK's types itself; vitest's transform above would hide
    // syntax Node refuses (it once did: the SDK's parameter properties).
    const { key } = await signUp(platform.url, `cli-${Date.now()}@example.com`);
    const run = spawnSync(process.execPath, [join(root, "examples/run.ts"), "image-link"], {
      env: { ...process.env, CUBICLE_BASE_URL: platform.url, CUBICLE_API_KEY: key },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const link = /public link \(1 hour\): (\S+)/.exec(run.stdout)?.[1];
    expect(link, run.stdout).toMatch(/\/s\//);
    const response = await fetch(link as string);
    expect(response.headers.get("content-type")).toBe("image/png");
    const decoded = decodePng(new Uint8Array(await response.arrayBuffer()));
    expect([decoded.width, decoded.height]).toEqual([WIDTH, HEIGHT]);
  });
});
