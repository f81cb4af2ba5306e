/**
 * The state the fuzzer's requests point into, so ids and paths resolve and handlers run
 * past their lookups: a tenant on the Scale plan (its rate bucket never gets in the way), a
 * workspace with files, a directory, a symlink, a finished run, a share link, an artifact
 * and a second key. Destructive operations get ids of their own, made on demand
 * (`disposable`), so a fuzzed DELETE can never take away what the rest of the run uses.
 */
import { clientAddress } from "../platform.ts";

/** Who a request is sent as: the account's own key, a narrower key, or a token confined to `/dir`. */
export type CredentialName = "key" | "readOnlyKey" | "confinedToken";

export interface Fixture {
  url: string;
  key: string;
  credentials: Record<CredentialName, string>;
  keyId: string;
  workspaceId: string;
  otherKeyId: string;
  execId: string;
  shareId: string;
  artifactId: string;
  /** The ETag of /hello.txt when the fixture was made (it may have changed since). */
  helloEtag: string;
  /** Puts the files back, after a run of requests may have moved or deleted them. */
  restoreFiles: () => Promise<void>;
  /** A fresh id of a kind destructive operations may take: a workspace, a key or a share. */
  disposable: (kind: "workspace" | "key" | "share") => Promise<string>;
}

const FILES = [
  { op: "write", path: "/hello.txt", content: "hello world\nsecond line\n" },
  { op: "write", path: "/dir/a.txt", content: "alpha\n" },
  { op: "write", path: "/dir/sub/b.bin", contentBase64: "AAECAwQ=" },
  { op: "write", path: "/src/main.ts", content: "export const x = 1;\n" },
];

export async function createFixture(url: string): Promise<Fixture> {
  const signup = await call(
    url,
    "",
    "POST",
    "/v1/signup",
    { email: `fuzz-${crypto.randomUUID()}@example.com` },
    {
      "cf-connecting-ip": clientAddress(),
    },
  );
  const key = signup.apiKey.key as string;
  const api = (method: string, path: string, body?: unknown) => call(url, key, method, path, body);
  await api("PUT", "/v1/billing/plan", { plan: "scale" });
  const workspaceId = (await api("POST", "/v1/workspaces", { name: "fuzz" })).id as string;
  const ws = `/v1/workspaces/${workspaceId}`;
  const restoreFiles = async () => {
    // Fuzzed calls may have turned any of these into something else (a file into a
    // directory, a link into a file): clear them first, whatever they are now.
    for (const path of ["hello.txt", "dir", "src", "link"]) {
      await call(url, key, "DELETE", `${ws}/files/${path}?recursive=true`, undefined, {}, [200, 404]);
    }
    await api("POST", `${ws}/fs/batch`, { ops: FILES });
    await api("POST", `${ws}/fs/symlink`, { target: "hello.txt", path: "/link" });
  };
  await restoreFiles();
  const helloEtag = (await api("POST", `${ws}/fs/stat`, { path: "/hello.txt" })).etag as string;
  const execId = (await api("POST", `${ws}/exec`, { executor: "shell", command: "echo fixture" })).id as string;
  const shareId = (await api("POST", `${ws}/shares`, { path: "/hello.txt" })).id as string;
  const artifactId = (await call(url, key, "POST", `${ws}/artifacts`, { path: "/dir" }, {}, [200, 201])).id as string;
  const other = await api("POST", "/v1/keys", { name: "other", scopes: ["workspaces:read"] });
  const otherKeyId = other.id as string;
  const token = await api("POST", "/v1/tokens", {
    scopes: ["workspaces:read", "workspaces:write", "exec"],
    workspaceId,
    pathPrefix: "/dir",
    ttlSeconds: 3600,
  });
  const credentials = { key, readOnlyKey: other.key as string, confinedToken: token.token as string };
  const keyId = signup.apiKey.id as string;
  const disposable = async (kind: "workspace" | "key" | "share") => {
    if (kind === "workspace") return (await api("POST", "/v1/workspaces", { name: "disposable" })).id as string;
    if (kind === "key")
      return (await api("POST", "/v1/keys", { name: "disposable", scopes: ["workspaces:read"] })).id as string;
    // A file of its own at the root, which always exists, so no fuzzed move or delete is in the way.
    const path = `/disposable-${crypto.randomUUID()}.txt`;
    await call(url, key, "PUT", `${ws}/files${path}`, undefined, {}, [200]);
    return (await api("POST", `${ws}/shares`, { path })).id as string;
  };
  return {
    url,
    key,
    credentials,
    keyId,
    workspaceId,
    otherKeyId,
    execId,
    shareId,
    artifactId,
    helloEtag,
    restoreFiles,
    disposable,
  };
}

async function call(
  url: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  expected: number[] = [200, 201],
  // biome-ignore lint/suspicious/noExplicitAny: fixture answers are read field by field where they are used.
): Promise<any> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...headers,
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  if (!expected.includes(response.status)) {
    throw new Error(`fixture: ${method} ${path} answered ${response.status}: ${text}`);
  }
  return text ? JSON.parse(text) : null;
}
