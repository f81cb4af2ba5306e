/**
 * Markdown to PDF: an agent writes a markdown report into a workspace, a container run turns
 * it into a PDF with pandoc, and the PDF is shared by a public link anyone can download.
 *
 *   npm start                                  # in one terminal
 *   npm run example markdown-to-pdf            # in another
 */
import type { Cubicle } from "@cubicle/sdk";
import { connect, ensureCompleted } from "../connect.ts";

export const REPORT = `# Quarterly agent report

## Results

| Metric       | Q3    | Q4    |
|--------------|------:|------:|
| Tasks done   | 1,204 | 1,877 |
| Median time  | 41 s  | 29 s  |

## How it ran

\`\`\`sh
pandoc report.md -o report.pdf
\`\`\`

## Next steps

Ship the PDF to everyone who asked.
`;

/** The headings a reader of the PDF must find in its text. */
export const HEADINGS = ["Quarterly agent report", "Results", "How it ran", "Next steps"];

export async function markdownToPdf(cubicle: Cubicle) {
  const ws = await cubicle.workspaces.create({ name: "markdown-to-pdf" });
  await ws.files.write("/report.md", REPORT);
  // groff's pdfroff is the PDF engine here: small, and on both the image and the local host.
  const run = await ws.exec({
    executor: "container",
    command: "pandoc report.md --standalone --pdf-engine=pdfroff -o report.pdf && ls -l report.pdf",
    timeoutMs: 120_000,
  });
  ensureCompleted("pandoc", run);
  const share = await ws.share({ path: "/report.pdf", ttlSeconds: 3600 });
  const response = await fetch(share.url);
  const pdf = new Uint8Array(await response.arrayBuffer());
  return { workspaceId: ws.id, url: share.url, contentType: response.headers.get("content-type"), pdf };
}

if (import.meta.main) {
  const { url, pdf, contentType } = await markdownToPdf(await connect("markdown-to-pdf"));
  console.log(`report.pdf: ${pdf.length} bytes, ${contentType}`);
  console.log(`public link (1 hour): ${url}`);
}
