/**
 * Signing in: paste an API key, get a session cookie. The key is checked once and never
 * stored, in the cookie or anywhere else in the browser; the form turns off autocomplete.
 */
import type { ApiKeys } from "../../../../tenants/account/apiKeys.ts";
import type { Principal } from "../../../../tenants/account/scopes.ts";
import { Layout } from "../ui/Layout.tsx";

export function LoginPage({ error }: { error?: string }) {
  return (
    <Layout title="Sign in">
      <p>
        Paste an API key with the <code>billing:read</code> scope. It is exchanged for a one-hour session; the key
        itself is not kept.
      </p>
      {error && (
        <p class="notice error" role="alert">
          {error}
        </p>
      )}
      <form method="post" action="/dashboard/login">
        <label for="apiKey">API key</label>
        <input
          id="apiKey"
          name="apiKey"
          type="password"
          autocomplete="off"
          spellcheck={false}
          required
          placeholder="cub_…"
        />
        <p>
          <button type="submit">Sign in</button>
        </p>
      </form>
      <p class="muted">
        No key yet? <code>POST /v1/signup</code> answers with one (see the <a href="/docs">API reference</a>).
      </p>
    </Layout>
  );
}

/** The principal of a pasted key fit for the dashboard, or why it is not. */
export async function checkKey(
  apiKeys: ApiKeys,
  pasted: string,
): Promise<{ ok: true; principal: Principal } | { ok: false; error: string }> {
  const result = await apiKeys.verify(pasted.trim());
  if (!result.ok) {
    const why = { revoked: "has been revoked", expired: "has expired" } as Record<string, string>;
    return { ok: false, error: `That API key ${why[result.reason] ?? "is not valid"}.` };
  }
  const { principal } = result;
  if (!principal.scopes.includes("billing:read")) {
    return { ok: false, error: "That API key lacks the billing:read scope the dashboard needs." };
  }
  if (principal.workspaceIds !== null) {
    return { ok: false, error: "That API key is limited to some workspaces; the dashboard needs an account-wide key." };
  }
  return { ok: true, principal };
}
