/**
 * Two write-only files, `stdout` and `stderr`, whose writes go straight to the run's
 * OutputPump. Mounted at `outputDevicePath`; streamTransform.ts points the script's own
 * output at them, which is how output leaves the guest while the script is still running.
 *
 * just-bash appends with the encoding "binary" for byte output (cat, base64 -d, gzip) and
 * "utf8" for text; text goes through `shellTextBytes` to undo what just-bash turned into text.
 */
import type { FsStat, IFileSystem } from "just-bash";
import type { OutputPump } from "../../../container/wire/outputPump.ts";
import type { OutputStream } from "../../contract.ts";
import { latin1Bytes, shellTextBytes } from "./bytes.ts";
import { FixedFs } from "./fixedFs.ts";
import { ShellFsError } from "./fsErrors.ts";
import { explainMissingCommands } from "./missingCommand.ts";

export const outputDevicePath = "/dev/.cubicle";
export const outputPaths = { stdout: `${outputDevicePath}/stdout`, stderr: `${outputDevicePath}/stderr` } as const;

const streams: Record<string, OutputStream> = { "/stdout": "stdout", "/stderr": "stderr" };

function encodingOf(options: unknown): unknown {
  return typeof options === "object" && options !== null && "encoding" in options ? options.encoding : options;
}

export class OutputDevice extends FixedFs implements IFileSystem {
  constructor(private readonly pump: OutputPump) {
    super(outputDevicePath, "EPERM");
  }

  protected statOf(path: string): FsStat {
    const isDirectory = path === "/";
    if (!isDirectory && !(path in streams)) throw new ShellFsError("ENOENT", "stat", this.shown(path));
    return {
      isFile: !isDirectory,
      isDirectory,
      isSymbolicLink: false,
      mode: isDirectory ? 0o755 : 0o222,
      size: 0,
      mtime: new Date(0),
    };
  }

  async appendFile(path: string, content: string | Uint8Array, options?: unknown): Promise<void> {
    const stream = streams[path];
    if (!stream) return this.refuse("open", path);
    if (typeof content !== "string") return this.pump.write(stream, content);
    const encoding = encodingOf(options);
    const text = stream === "stderr" ? explainMissingCommands(content) : content;
    const bytes = encoding === "binary" || encoding === "latin1" ? latin1Bytes(text) : shellTextBytes(text);
    return this.pump.write(stream, bytes);
  }

  /** A stream has nothing to truncate: `>` appends like `>>`. */
  writeFile(path: string, content: string | Uint8Array, options?: unknown): Promise<void> {
    return this.appendFile(path, content, options);
  }

  async readFile(): Promise<string> {
    return "";
  }
  async readFileBuffer(): Promise<Uint8Array> {
    return new Uint8Array(0);
  }
  async exists(path: string): Promise<boolean> {
    return path === "/" || path in streams;
  }
  async readdir(path: string): Promise<string[]> {
    if (path !== "/") return this.refuse("scandir", path);
    return Object.keys(streams).map((name) => name.slice(1));
  }
  getAllPaths(): string[] {
    return [];
  }
  async readlink(path: string): Promise<string> {
    return this.refuse("readlink", path);
  }
  async utimes(path: string): Promise<void> {
    this.statOf(path);
  }
}
