/** How workspace bytes are labelled on the way out: image types by magic bytes only, download names, peeking. */
import { describe, expect, it } from "vitest";
import { attachmentDisposition, imageType, isPdf, peek } from "./content.ts";

const bytes = (...parts: (string | number[])[]) =>
  Uint8Array.from(
    parts.flatMap((part) => (typeof part === "string" ? Array.from(part, (c) => c.charCodeAt(0)) : part)),
  );

describe("imageType", () => {
  it("recognises the four raster types by their magic bytes", () => {
    expect(imageType(bytes([0x89], "PNG\r\n\x1a\n", [0, 0]))).toBe("image/png");
    expect(imageType(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(imageType(bytes("GIF87a"))).toBe("image/gif");
    expect(imageType(bytes("GIF89a", [1, 0]))).toBe("image/gif");
    expect(imageType(bytes("RIFF", [0x24, 0, 0, 0], "WEBPVP8 "))).toBe("image/webp");
  });

  it("refuses everything else, including SVG, other RIFF files and truncated signatures", () => {
    expect(imageType(bytes('<svg xmlns="http://www.w3.org/2000/svg">'))).toBeNull();
    expect(imageType(bytes("RIFF", [0x24, 0, 0, 0], "WAVEfmt "))).toBeNull();
    expect(imageType(bytes([0x89], "PNG"))).toBeNull();
    expect(imageType(bytes("<!doctype html><script>"))).toBeNull();
    expect(imageType(new Uint8Array())).toBeNull();
  });
});

describe("isPdf", () => {
  it("knows a PDF by its %PDF- header only", () => {
    expect(isPdf(bytes("%PDF-1.7\n%\xe2\xe3"))).toBe(true);
    expect(isPdf(bytes("%PDF"))).toBe(false);
    expect(isPdf(bytes(" %PDF-1.4"))).toBe(false);
    expect(isPdf(bytes("<html>%PDF-1.4"))).toBe(false);
    expect(isPdf(new Uint8Array())).toBe(false);
  });
});

describe("attachmentDisposition", () => {
  it("quotes plain names and adds filename* for anything beyond printable ASCII", () => {
    expect(attachmentDisposition("data.bin")).toBe('attachment; filename="data.bin"');
    expect(attachmentDisposition('a "b" \\c')).toBe('attachment; filename="a \\"b\\" \\\\c"');
    expect(attachmentDisposition("naïve.txt")).toBe(
      `attachment; filename="na_ve.txt"; filename*=UTF-8''na%C3%AFve.txt`,
    );
    expect(attachmentDisposition("line\r\nbreak'(*).txt")).toBe(
      `attachment; filename="line__break'(*).txt"; filename*=UTF-8''line%0D%0Abreak%27%28%2A%29.txt`,
    );
  });
});

describe("peek", () => {
  it("returns the first bytes and the whole stream, across chunk boundaries", async () => {
    const chunks = [bytes("ab"), bytes("cdefgh"), bytes("ij")];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    const { head, body } = await peek(stream, 4);
    expect(new TextDecoder().decode(head)).toBe("abcd");
    expect(await new Response(body).text()).toBe("abcdefghij");
  });

  it("gives a short head for a short stream", async () => {
    const { head, body } = await peek(new Response("xy").body as ReadableStream<Uint8Array>, 12);
    expect(new TextDecoder().decode(head)).toBe("xy");
    expect(await new Response(body).text()).toBe("xy");
  });
});
