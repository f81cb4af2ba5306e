/**
 * The Workspaces pages over HTTP in workerd, with files and runs made through the API: the
 * list, the file browser, previews by magic bytes, downloads byte for byte, content never
 * served as HTML, run pages with both streams, notices for missing scopes, and 404s for
 * another tenant's session.
 */
import { describe, expect, it } from "vitest";
import { call, createKey, createWorkspace, signup } from "../../../../test/client.ts";
import { page, signIn } from "../../../../test/dashboard.ts";

/** A 1×1 PNG: signature, IHDR, IDAT, IEND (CRCs included, so image decoders accept it). */
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (char) => char.charCodeAt(0),
);
/** Not UTF-8 anywhere: every byte value, high ones first. */
const BLOB = Uint8Array.from({ length: 256 }, (_, i) => 255 - i);

/** A signed-in tenant with one workspace and a way to write its files through the API. */
async function tenant() {
  const { key } = await signup();
  const id = await createWorkspace(key, { name: "demo" });
  const cookie = await signIn(key);
  const put = async (path: string, body: BodyInit) => {
    const response = await call("PUT", `/v1/workspaces/${id}/files/${path}`, { key, body });
    expect(response.status, await response.clone().text()).toBe(200);
  };
  return { key, id, cookie, put };
}

describe("the workspace list and file browser", () => {
  it("lists the tenant's workspaces with links to each", async () => {
    const { id, cookie, put } = await tenant();
    await put("notes.txt", "hello\n");
    const response = await page("/dashboard/workspaces", cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`data-workspace-id="${id}"`);
    expect(html).toContain(`href="/dashboard/workspaces/${id}"`);
    expect(html).toContain(">demo</a>");
    expect(html).toMatch(/<th scope="col">Name<\/th>/);
  });

  it("lists a directory's entries, linking directories to browse and files to preview", async () => {
    const { id, cookie, put } = await tenant();
    await put("docs/readme.md", "# Read me\n");
    await put("docs/deep/x.txt", "x");
    await put("top.txt", "top");
    const root = await (await page(`/dashboard/workspaces/${id}`, cookie)).text();
    expect(root).toContain(`href="/dashboard/workspaces/${id}?path=/docs"`);
    expect(root).toContain(`href="/dashboard/workspaces/${id}/file?path=/top.txt"`);
    const docs = await page(`/dashboard/workspaces/${id}?path=/docs`, cookie);
    expect(docs.status).toBe(200);
    const html = await docs.text();
    expect(html).toContain('<nav aria-label="Breadcrumb"');
    expect(html).toContain('data-entry="/docs/readme.md" data-type="file" data-size-bytes="10"');
    expect(html).toContain('data-entry="/docs/deep" data-type="dir"');
    expect(html).not.toContain('data-entry="/top.txt"');
    expect(html).toContain(`href="/dashboard/workspaces/${id}/file?path=/docs/readme.md"`);
  });

  it("pages a long directory with a next link that carries the cursor", async () => {
    const { key, id, cookie } = await tenant();
    const ops = Array.from({ length: 101 }, (_, i) => ({
      op: "write",
      path: `/many/f${String(i).padStart(3, "0")}.txt`,
      content: "x",
    }));
    expect((await call("POST", `/v1/workspaces/${id}/fs/batch`, { key, json: { ops } })).status).toBe(200);
    const first = await (await page(`/dashboard/workspaces/${id}?path=/many`, cookie)).text();
    expect(first.match(/data-entry="/g)).toHaveLength(100);
    const next = /href="([^"]+)" rel="next" data-next-cursor="\/many\/f099.txt"/.exec(first)?.[1];
    expect(next).toBe(`/dashboard/workspaces/${id}?path=/many&amp;cursor=/many/f099.txt`);
    const second = await (await page(next?.replaceAll("&amp;", "&") ?? "", cookie)).text();
    expect(second.match(/data-entry="/g)).toHaveLength(1);
    expect(second).toContain('data-entry="/many/f100.txt"');
    expect(second).not.toContain('rel="next"');
  });

  it("answers 404 for a missing directory and links a file asked as a directory to its preview", async () => {
    const { id, cookie, put } = await tenant();
    await put("a.txt", "a");
    expect((await page(`/dashboard/workspaces/${id}?path=/nope`, cookie)).status).toBe(404);
    const file = await page(`/dashboard/workspaces/${id}?path=/a.txt`, cookie);
    expect(file.status).toBe(409);
    expect(await file.text()).toContain(`href="/dashboard/workspaces/${id}/file?path=/a.txt"`);
    expect((await page("/dashboard/workspaces/ws_doesnotexist", cookie)).status).toBe(404);
  });
});

describe("file previews and raw bytes", () => {
  it("previews UTF-8 text in a <pre>, escaped, with size, etag and a download link", async () => {
    const { id, cookie, put } = await tenant();
    await put("src/hello.txt", "héllo <b>world</b>\n");
    const response = await page(`/dashboard/workspaces/${id}/file?path=/src/hello.txt`, cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("héllo &lt;b&gt;world&lt;/b&gt;");
    expect(html).toMatch(/<pre class="file-preview" data-preview="text"/);
    expect(html).toMatch(/data-size-bytes="20" data-etag="[^"]+"/);
    expect(html).toContain(`href="/dashboard/workspaces/${id}/raw?path=/src/hello.txt&amp;download=1"`);
  });

  it("previews a PNG as an image by its bytes, whatever its name, and serves it as image/png", async () => {
    const { id, cookie, put } = await tenant();
    await put("pixel.dat", PNG);
    const html = await (await page(`/dashboard/workspaces/${id}/file?path=/pixel.dat`, cookie)).text();
    expect(html).toContain(`src="/dashboard/workspaces/${id}/raw?path=/pixel.dat"`);
    expect(html).toMatch(/<img [^>]*data-type="image\/png"[^>]*alt="pixel.dat"/);
    const raw = await page(`/dashboard/workspaces/${id}/raw?path=/pixel.dat`, cookie);
    expect(raw.headers.get("content-type")).toBe("image/png");
    expect(raw.headers.get("x-content-type-options")).toBe("nosniff");
    expect(new Uint8Array(await raw.arrayBuffer())).toEqual(PNG);
  });

  it("shows binary content as its size", async () => {
    const { id, cookie, put } = await tenant();
    await put("blob.bin", BLOB);
    const html = await (await page(`/dashboard/workspaces/${id}/file?path=/blob.bin`, cookie)).text();
    expect(html).toContain("No preview for this kind of file (256 bytes");
    expect(html).not.toContain("<pre");
  });

  it("downloads the exact bytes as an attachment", async () => {
    const { id, cookie, put } = await tenant();
    await put("data/blob.bin", BLOB);
    const raw = await page(`/dashboard/workspaces/${id}/raw?path=/data/blob.bin&download=1`, cookie);
    expect(raw.status).toBe(200);
    expect(raw.headers.get("content-type")).toBe("application/octet-stream");
    expect(raw.headers.get("content-disposition")).toBe('attachment; filename="blob.bin"');
    expect(raw.headers.get("x-content-type-options")).toBe("nosniff");
    expect(new Uint8Array(await raw.arrayBuffer())).toEqual(BLOB);
    // A PNG downloaded is octet-stream too: only previews get an image type.
    await put("pixel.png", PNG);
    const png = await page(`/dashboard/workspaces/${id}/raw?path=/pixel.png&download=1`, cookie);
    expect(png.headers.get("content-type")).toBe("application/octet-stream");
    expect(new Uint8Array(await png.arrayBuffer())).toEqual(PNG);
  });

  it("names a non-ASCII download with filename*", async () => {
    const { id, cookie, put } = await tenant();
    await put(encodeURIComponent('résumé "v2".txt'), "cv");
    const raw = await page(
      `/dashboard/workspaces/${id}/raw?path=${encodeURIComponent('/résumé "v2".txt')}&download=1`,
      cookie,
    );
    expect(raw.status).toBe(200);
    expect(raw.headers.get("content-disposition")).toBe(
      `attachment; filename="r_sum_ \\"v2\\".txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22v2%22.txt`,
    );
  });

  it("never serves an .html file as HTML", async () => {
    const { id, cookie, put } = await tenant();
    const evil = "<!doctype html><script>alert(document.cookie)</script>";
    await put("x.html", evil);
    for (const query of ["", "&download=1"]) {
      const raw = await page(`/dashboard/workspaces/${id}/raw?path=/x.html${query}`, cookie);
      expect(raw.headers.get("content-type")).toBe("application/octet-stream");
      expect(raw.headers.get("x-content-type-options")).toBe("nosniff");
      expect(raw.headers.get("content-security-policy")).toContain("default-src 'none'");
      expect(new TextDecoder().decode(await raw.arrayBuffer())).toBe(evil);
    }
    const preview = await (await page(`/dashboard/workspaces/${id}/file?path=/x.html`, cookie)).text();
    expect(preview).toContain("&lt;script&gt;alert(document.cookie)&lt;/script&gt;");
    expect(preview).not.toContain("<script>alert");
  });

  it("answers 404 for a missing file and links a directory asked as a file to browse it", async () => {
    const { id, cookie, put } = await tenant();
    await put("dir/a.txt", "a");
    expect((await page(`/dashboard/workspaces/${id}/file?path=/missing.txt`, cookie)).status).toBe(404);
    expect((await page(`/dashboard/workspaces/${id}/raw?path=/missing.txt`, cookie)).status).toBe(404);
    for (const kind of ["file", "raw"]) {
      const dir = await page(`/dashboard/workspaces/${id}/${kind}?path=/dir`, cookie);
      expect(dir.status).toBe(409);
      expect(await dir.text()).toContain(`href="/dashboard/workspaces/${id}?path=/dir"`);
    }
  });
});

describe("runs", () => {
  it("lists a run and shows its stdout and stderr in order", async () => {
    const { key, id, cookie } = await tenant();
    const ran = await call("POST", `/v1/workspaces/${id}/exec`, {
      key,
      json: { executor: "shell", command: "echo hello; echo oops >&2" },
    });
    expect(ran.status).toBe(200);
    const { id: execId } = (await ran.json()) as { id: string };
    const browser = await (await page(`/dashboard/workspaces/${id}`, cookie)).text();
    expect(browser).toContain(`data-exec-id="${execId}" data-status="completed" data-exit-code="0"`);
    expect(browser).toContain(`href="/dashboard/workspaces/${id}/runs/${execId}"`);
    expect(browser).toContain("echo hello; echo oops &gt;&amp;2");

    const response = await page(`/dashboard/workspaces/${id}/runs/${execId}`, cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/data-status="completed" data-exit-code="0"/);
    const hello = html.indexOf('data-stream="stdout"');
    const oops = html.indexOf('data-stream="stderr"');
    expect(hello).toBeGreaterThan(0);
    expect(oops).toBeGreaterThan(hello);
    expect(html).toMatch(/data-stream="stdout"[^>]*>hello\n<\/span>/);
    expect(html).toMatch(/data-stream="stderr"[^>]*>oops\n<\/span>/);
    expect(html).not.toContain("data-output-cut");

    expect((await page(`/dashboard/workspaces/${id}/runs/ex_missing`, cookie)).status).toBe(404);
  });

  it("cuts long output at the dashboard's limit and says so", async () => {
    const { key, id, cookie } = await tenant();
    // About 108 KiB of digits and newlines, over the 64 KiB shown.
    const ran = await call("POST", `/v1/workspaces/${id}/exec`, {
      key,
      json: { executor: "shell", command: "seq 1 20000" },
    });
    const { id: execId, status } = (await ran.json()) as { id: string; status: string };
    expect(status).toBe("completed");
    const html = await (await page(`/dashboard/workspaces/${id}/runs/${execId}`, cookie)).text();
    expect(html).toContain("data-output-cut");
    expect(html).toContain(">1\n2\n3\n");
    expect(html).not.toContain("\n20000\n");
  });
});

describe("scopes and tenants", () => {
  it("shows notices in place of files and runs for a key without their scopes", async () => {
    const { key, id, put } = await tenant();
    await put("a.txt", "a");
    const narrow = await createKey(key, { scopes: ["billing:read"] });
    const cookie = await signIn(narrow.key);
    const browser = await page(`/dashboard/workspaces/${id}`, cookie);
    expect(browser.status).toBe(200);
    const html = await browser.text();
    expect(html).toContain('data-missing-scope="workspaces:read"');
    expect(html).toContain('data-missing-scope="exec"');
    expect(html).not.toContain("a.txt");
    expect((await page("/dashboard/workspaces", cookie)).status).toBe(403);
    expect((await page(`/dashboard/workspaces/${id}/file?path=/a.txt`, cookie)).status).toBe(403);
    expect((await page(`/dashboard/workspaces/${id}/raw?path=/a.txt`, cookie)).status).toBe(403);
  });

  it("gives another tenant's session 404 for every page of this workspace", async () => {
    const { key, id, put } = await tenant();
    await put("secret.txt", "the owner's\n");
    const ran = await call("POST", `/v1/workspaces/${id}/exec`, { key, json: { executor: "shell", command: "true" } });
    const { id: execId } = (await ran.json()) as { id: string };
    const stranger = await tenant();
    for (const path of [
      `/dashboard/workspaces/${id}`,
      `/dashboard/workspaces/${id}?path=/`,
      `/dashboard/workspaces/${id}/file?path=/secret.txt`,
      `/dashboard/workspaces/${id}/raw?path=/secret.txt`,
      `/dashboard/workspaces/${id}/raw?path=/secret.txt&download=1`,
      `/dashboard/workspaces/${id}/runs/${execId}`,
    ]) {
      const response = await page(path, stranger.cookie);
      expect(response.status, path).toBe(404);
      const html = await response.text();
      expect(html, path).not.toContain("the owner's");
      expect(html, path).not.toContain("secret.txt");
    }
    const list = await (await page("/dashboard/workspaces", stranger.cookie)).text();
    expect(list).not.toContain(id);
  });
});
