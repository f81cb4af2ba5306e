/** `ws.files`: a workspace's files by path, as bytes or text. */
import {
  copy,
  deleteFile,
  find,
  getFile,
  grep,
  listPath,
  mkdir,
  move,
  putFile,
  statPath,
} from "../generated/sdk.gen.ts";
import type { FileInfo, FindData, GrepData } from "../generated/types.gen.ts";
import type { Core, RequestOptions } from "./core.ts";
import { Pager } from "./pagination.ts";

/** What a file's content may be given as; strings are written as UTF-8. */
export type FileData = string | Uint8Array | ArrayBuffer | Blob;

type BlobParts = NonNullable<ConstructorParameters<typeof Blob>[0]>;

/** The files routes take the path without its leading `/`; the SDK accepts it either way. */
const routePath = (path: string) => path.replace(/^\/+/, "");

export class Files {
  private readonly core: Core;
  private readonly workspaceId: string;
  /** @internal Made by the client; not constructed directly. */
  constructor(core: Core, workspaceId: string) {
    this.core = core;
    this.workspaceId = workspaceId;
  }

  private get path() {
    return { workspaceId: this.workspaceId };
  }

  /** Writes a whole file, creating parent directories. `ifNoneMatch: "*"` refuses to overwrite. */
  async write(
    path: string,
    data: FileData,
    options: RequestOptions & { ifMatch?: string; ifNoneMatch?: string } = {},
  ): Promise<FileInfo> {
    const headers: Record<string, string> = {};
    if (options.ifMatch !== undefined) headers["if-match"] = options.ifMatch;
    if (options.ifNoneMatch !== undefined) headers["if-none-match"] = options.ifNoneMatch;
    const body = data instanceof Blob ? data : new Blob([data] as BlobParts);
    const { data: info } = await putFile({
      ...this.core.options(options),
      path: { ...this.path, path: routePath(path) },
      body,
      headers: { "content-type": "application/octet-stream", ...headers },
    });
    return info as FileInfo;
  }

  /** A file's bytes; `at` (a snapshot id or a kept revision) reads a past version. */
  async read(path: string, options: RequestOptions & { at?: string | number } = {}): Promise<Uint8Array> {
    const { data } = await getFile({
      ...this.core.options(options),
      path: { ...this.path, path: routePath(path) },
      ...(options.at === undefined ? {} : { query: { at: String(options.at) } }),
      parseAs: "arrayBuffer",
    });
    return new Uint8Array(data as unknown as ArrayBuffer);
  }

  /** A file's content decoded as UTF-8. */
  async readText(path: string, options: RequestOptions & { at?: string | number } = {}): Promise<string> {
    return new TextDecoder().decode(await this.read(path, options));
  }

  /** A path's stat; `at` (a snapshot id or a kept revision) as it was then. */
  async stat(path: string, options: RequestOptions & { at?: string | number } = {}): Promise<FileInfo> {
    const body = options.at === undefined ? { path } : { path, at: String(options.at) };
    const { data } = await statPath({ ...this.core.options(options), path: this.path, body });
    return data as FileInfo;
  }

  /** A directory's entries, page by page; `recursive` walks the whole subtree; `at` lists a past version. */
  list(
    path = "/",
    options: RequestOptions & { recursive?: boolean; limit?: number; at?: string | number } = {},
  ): Pager<FileInfo> {
    return new Pager(async (cursor) => {
      const { data } = await listPath({
        ...this.core.options(options),
        path: this.path,
        query: {
          path,
          recursive: options.recursive ? "true" : "false",
          limit: options.limit,
          cursor,
          ...(options.at === undefined ? {} : { at: String(options.at) }),
        },
      });
      return { items: data.entries, nextCursor: data.nextCursor };
    });
  }

  async delete(path: string, options: RequestOptions & { recursive?: boolean } = {}): Promise<void> {
    await deleteFile({
      ...this.core.options(options),
      path: { ...this.path, path: routePath(path) },
      query: { recursive: options.recursive ? "true" : "false" },
    });
  }

  async mkdir(path: string, options: RequestOptions & { recursive?: boolean } = {}): Promise<FileInfo> {
    const { data } = await mkdir({
      ...this.core.options(options),
      path: this.path,
      body: { path, recursive: options.recursive ?? false },
    });
    return data as FileInfo;
  }

  async move(from: string, to: string, options: RequestOptions & { overwrite?: boolean } = {}): Promise<FileInfo> {
    const { data } = await move({
      ...this.core.options(options),
      path: this.path,
      // Left out, the server's default applies: a move replaces a file at `to`.
      body: { from, to, ...(options.overwrite === undefined ? {} : { overwrite: options.overwrite }) },
    });
    return data as FileInfo;
  }

  async copy(from: string, to: string, options: RequestOptions = {}): Promise<FileInfo> {
    const { data } = await copy({ ...this.core.options(options), path: this.path, body: { from, to } });
    return data as FileInfo;
  }

  async grep(body: GrepData["body"], options: RequestOptions = {}) {
    const { data } = await grep({ ...this.core.options(options), path: this.path, body });
    return data;
  }

  async find(body: FindData["body"], options: RequestOptions = {}) {
    const { data } = await find({ ...this.core.options(options), path: this.path, body });
    return data;
  }
}
