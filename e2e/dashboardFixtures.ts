/**
 * What the dashboard's browser test and its screenshot script share: a Chromium launch,
 * signing in through the form, and files to preview made here from nothing (a PDF and a
 * PNG), so no binary fixture sits in the repository.
 */
import { crc32, deflateSync } from "node:zlib";
import chromium from "@sparticuz/chromium";
import { type Browser, type BrowserContext, type Page, chromium as playwright } from "playwright-core";

export async function launchChromium(): Promise<Browser> {
  return playwright.launch({
    executablePath: await chromium.executablePath(),
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
}

/** Signs in through the form and answers the tab, on the overview. */
export async function signIn(context: BrowserContext, url: string, key: string): Promise<Page> {
  const tab = await context.newPage();
  tab.on("dialog", (dialog) => dialog.accept());
  await tab.goto(`${url}/dashboard/login`);
  await tab.getByLabel("API key").fill(key);
  await tab.getByRole("button", { name: "Sign in" }).click();
  await tab.waitForURL(`${url}/dashboard`);
  return tab;
}

/**
 * A one-page PDF 1.4: a heading in Helvetica (one of the 14 standard fonts, so nothing is
 * embedded) over a filled blue bar, with the cross-reference table's offsets computed.
 */
export function samplePdf(heading = "Quarterly report"): Uint8Array {
  const content = `0.04 0.35 0.79 rg 72 640 468 40 re f\nBT /F1 28 Tf 72 700 Td (${heading}) Tj ET\nBT /F1 14 Tf 72 600 Td (All green.) Tj ET\n`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< /Length ${content.length} >>\nstream\n${content}endstream`,
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(body);
}

/** An RGB PNG of `width` × `height`, a diagonal gradient, for the image preview. */
export function samplePng(width = 240, height = 120): Uint8Array {
  const chunk = (type: string, data: Uint8Array) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, "ascii");
    out.set(data, 8);
    out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 3);
    for (let x = 0; x < width; x++) {
      rows.set([Math.round((x / width) * 255), Math.round((y / height) * 200), 160], row + 1 + x * 3);
    }
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", new Uint8Array()),
  ]);
}
