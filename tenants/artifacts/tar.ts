/**
 * A streaming tar writer (POSIX ustar, with a pax `path` record for names that do not fit),
 * for artifact downloads. nanotar, which the project also carries, builds the whole archive
 * in memory from byte arrays; an artifact may hold 512 MiB, far past a Worker's 128 MB, so
 * here each file's bytes are streamed from storage straight into the archive.
 *
 * Entries are regular files only (extractors create parent directories), with fixed owner,
 * mode 0644 and one mtime for all, so the tar bytes depend only on the artifact.
 */

export interface TarEntry {
  path: string;
  size: number;
  /** The file's bytes; exactly `size` of them, or the archive stream errors. */
  open(): Promise<ReadableStream<Uint8Array>>;
}

const BLOCK = 512;
const encoder = new TextEncoder();

export function tarStream(entries: Iterable<TarEntry>, mtimeS: number): ReadableStream<Uint8Array> {
  const chunks = archive(entries, mtimeS);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}

async function* archive(entries: Iterable<TarEntry>, mtimeS: number): AsyncGenerator<Uint8Array> {
  for (const entry of entries) {
    const name = encoder.encode(entry.path);
    if (name.length > 100 || /[^\x20-\x7e]/.test(entry.path)) {
      // Long or non-ASCII names travel in a pax record; the ustar name is only a fallback.
      const record = paxRecord("path", entry.path);
      yield header({ name: "PaxHeader", size: record.length, mtimeS, type: "x" });
      yield* padded(record);
    }
    yield header({ name: entry.path, size: entry.size, mtimeS, type: "0" });
    let written = 0;
    const reader = (await entry.open()).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        written += value.byteLength;
        if (written > entry.size) throw new Error(`${entry.path} is longer than its recorded ${entry.size} bytes`);
        yield value;
      }
    } finally {
      reader.releaseLock();
    }
    if (written !== entry.size) throw new Error(`${entry.path} has ${written} bytes, not its recorded ${entry.size}`);
    if (entry.size % BLOCK !== 0) yield new Uint8Array(BLOCK - (entry.size % BLOCK));
  }
  // Two zero blocks end the archive.
  yield new Uint8Array(2 * BLOCK);
}

function* padded(bytes: Uint8Array): Generator<Uint8Array> {
  yield bytes;
  if (bytes.length % BLOCK !== 0) yield new Uint8Array(BLOCK - (bytes.length % BLOCK));
}

/** `"<length> <key>=<value>\n"`, where the length counts itself (POSIX pax). */
function paxRecord(key: string, value: string): Uint8Array {
  const body = ` ${key}=${value}\n`;
  const bodyBytes = encoder.encode(body).length;
  let length = bodyBytes + 1;
  while (String(length).length + bodyBytes !== length) length++;
  return encoder.encode(`${length}${body}`);
}

function header(fields: { name: string; size: number; mtimeS: number; type: "0" | "x" }): Uint8Array {
  const block = new Uint8Array(BLOCK);
  const put = (offset: number, length: number, value: string) => {
    const bytes = encoder.encode(value).subarray(0, length);
    block.set(bytes, offset);
  };
  const octal = (offset: number, length: number, value: number) =>
    put(offset, length, `${value.toString(8).padStart(length - 1, "0")}\0`);
  put(0, 100, fields.name);
  octal(100, 8, 0o644);
  octal(108, 8, 0);
  octal(116, 8, 0);
  octal(124, 12, fields.size);
  octal(136, 12, fields.mtimeS);
  put(148, 8, "        ");
  put(156, 1, fields.type);
  put(257, 6, "ustar\0");
  put(263, 2, "00");
  let sum = 0;
  for (const byte of block) sum += byte;
  put(148, 8, `${sum.toString(8).padStart(6, "0")}\0 `);
  return block;
}
