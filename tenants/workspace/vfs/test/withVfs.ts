/** Test helpers: a real Vfs inside a fresh WorkspaceDO in workerd, and byte/text shorthands. */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { WorkspaceDO } from "../../WorkspaceDO.ts";
import type { Vfs } from "../Vfs.ts";

export async function withVfs<T>(fn: (vfs: Vfs, stub: DurableObjectStub<WorkspaceDO>) => Promise<T>): Promise<T> {
  const stub = env.WORKSPACE.getByName(`test-${crypto.randomUUID()}`);
  return runInDurableObject(stub, (instance: WorkspaceDO) => fn(instance.vfs, stub));
}

export const bytes = (text: string) => new TextEncoder().encode(text);

export async function readText(vfs: Pick<Vfs, "readBytes">, path: string): Promise<string> {
  const result = await vfs.readBytes(path);
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return new TextDecoder().decode(result.bytes);
}

/** Unwraps an ok result, failing the test with the filesystem error otherwise. */
export function ok<T extends { ok: boolean }>(result: T): Extract<T, { ok: true }> {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result)}`);
  return result as Extract<T, { ok: true }>;
}

export function streamOf(...parts: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}
