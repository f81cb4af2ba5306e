/**
 * API keys: the tenant's live keys, a form to create one and a button to revoke each.
 * Creating goes through `createKeyAs`, the function `POST /v1/keys` calls, so a key made
 * here is narrowed exactly like one made through the API. Its secret appears once, in the
 * answer to the form; it is never put in a URL, a cookie or a redirect, and pages are
 * served with `cache-control: no-store`.
 */
import type { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Tenant } from "../../../../tenants/account/accounts.ts";
import type { ApiKey, NewApiKey } from "../../../../tenants/account/apiKeys.ts";
import { keyManagementRefusal } from "../../../../tenants/account/keyRules.ts";
import { accountLimits } from "../../../../tenants/account/limits.ts";
import { SCOPES, type Scope } from "../../../../tenants/account/scopes.ts";
import { ApiError } from "../../errors.ts";
import { CreateKeyBody, createKeyAs, revokeKeyAs } from "../../routes/keysShared.ts";
import { Id } from "../../schemas.ts";
import { type DashboardContext, type DashboardEnv, hasScope } from "../context.ts";
import { accountOf } from "../data.ts";
import { date } from "../format.ts";
import { dashboardLimits } from "../limits.ts";
import { clearSessionCookie } from "../middleware.ts";
import { Layout } from "../ui/Layout.tsx";
import { TableHead } from "../ui/TableHead.tsx";
import { TableWrap } from "../ui/TableWrap.tsx";

const KeyId = Id("key");

interface Notice {
  kind: "error" | "info";
  text: string;
}

/** What the create form held, so a refused form comes back filled in (never with a secret). */
interface KeyForm {
  name: string;
  scopes: string[];
  expires: string;
}

const LACKS_KEYS_MANAGE: Notice = {
  kind: "info",
  text: "This session's API key lacks the keys:manage scope, so it can neither list, create nor revoke keys. Sign in with a key that has it.",
};

const FIELD_LABELS: Record<string, string> = { name: "Name", scopes: "Scopes", expiresAt: "Expiry date" };

export function registerKeysPages(dashboard: Hono<DashboardEnv>) {
  dashboard.get("/keys", (c) => renderKeys(c, 200, { cursor: c.req.query("cursor") }));

  dashboard.post("/keys", async (c) => {
    const refused = keyManagementNotice(c);
    if (refused) return renderKeys(c, 403, { notice: refused });
    const form = await readKeyForm(c);
    const parsed = CreateKeyBody.safeParse({
      name: form.name,
      scopes: form.scopes.length > 0 ? form.scopes : undefined,
      // A date picker gives a day; the key stops working as that day begins (UTC).
      expiresAt: form.expires ? `${form.expires}T00:00:00.000Z` : undefined,
    });
    if (!parsed.success) {
      const text = parsed.error.issues
        .map((issue) => `${FIELD_LABELS[String(issue.path[0])] ?? "Form"}: ${issue.message}`)
        .join("; ");
      return renderKeys(c, 400, { notice: { kind: "error", text }, form });
    }
    try {
      const created = await createKeyAs(c.var.services.apiKeys, c.get("principal"), parsed.data);
      return renderKeys(c, 201, { created });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return renderKeys(c, error.status as ContentfulStatusCode, {
        notice: { kind: "error", text: error.detail },
        form,
      });
    }
  });

  dashboard.post("/keys/:id/revoke", async (c) => {
    const refused = keyManagementNotice(c);
    if (refused) return renderKeys(c, 403, { notice: refused });
    const id = c.req.param("id");
    const principal = c.get("principal");
    // Another tenant's key is as unknown here as one that never existed.
    if (!KeyId.safeParse(id).success) {
      return renderKeys(c, 404, { notice: { kind: "error", text: `There is no live key ${id}.` } });
    }
    try {
      // The API's own rule: only keys this session's key could have created (keyRules.ts).
      await revokeKeyAs(c.var.services.apiKeys, principal, id);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const text = error.code === "not_found" ? `There is no live key ${id}.` : error.detail;
      return renderKeys(c, error.status as ContentfulStatusCode, { notice: { kind: "error", text } });
    }
    const { keyId } = principal;
    if (id === keyId) {
      // The session was this key; it has ended, so say so now rather than on the next page.
      clearSessionCookie(c);
      return c.redirect("/dashboard/login", 303);
    }
    return c.redirect("/dashboard/keys", 303);
  });
}

/** Why this session may not manage keys (no `keys:manage`, or a key confined to some workspaces), or null. */
function keyManagementNotice(c: DashboardContext): Notice | null {
  if (!hasScope(c, "keys:manage")) return LACKS_KEYS_MANAGE;
  const refused = keyManagementRefusal(c.get("principal"));
  return refused ? { kind: "info", text: `${refused}. Sign in with an account-wide key to manage keys.` } : null;
}

async function readKeyForm(c: DashboardContext): Promise<KeyForm> {
  const form = await c.req.parseBody({ all: true });
  const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");
  const scopes = [form.scopes ?? []].flat().filter((scope): scope is string => typeof scope === "string");
  return { name: text(form.name), scopes, expires: text(form.expires) };
}

interface RenderOptions {
  cursor?: string | undefined;
  created?: NewApiKey;
  notice?: Notice;
  form?: KeyForm;
}

async function renderKeys(c: DashboardContext, status: ContentfulStatusCode, options: RenderOptions) {
  const principal = c.get("principal");
  const refused = keyManagementNotice(c);
  const canManage = refused === null;
  // A cursor is a key id; anything else starts from the newest key.
  const cursor = options.cursor && KeyId.safeParse(options.cursor).success ? options.cursor : undefined;
  const [account, keys] = await Promise.all([
    accountOf(c.var.services.accounts, principal.tenantId),
    canManage ? c.var.services.apiKeys.list(principal.tenantId, dashboardLimits.pageRowsMax, cursor) : null,
  ]);
  const notice = options.notice ?? refused ?? undefined;
  return c.html(
    <KeysPage
      account={account}
      csrf={c.get("csrf")}
      sessionKeyId={principal.keyId}
      sessionScopes={principal.scopes}
      keys={keys}
      created={options.created}
      notice={notice}
      form={options.form}
    />,
    status,
  );
}

interface KeysPageProps {
  account: Tenant;
  csrf: string;
  sessionKeyId: string;
  sessionScopes: readonly Scope[];
  /** Null when the session's key lacks keys:manage: the page shows the notice instead. */
  keys: { data: ApiKey[]; nextCursor: string | null } | null;
  created?: NewApiKey | undefined;
  notice?: Notice | undefined;
  form?: KeyForm | undefined;
}

export function KeysPage(props: KeysPageProps) {
  const { account, csrf, keys, created, notice } = props;
  return (
    <Layout title="API keys" section="keys" account={account} csrf={csrf}>
      {notice && (
        <p
          class={notice.kind === "error" ? "notice error" : "notice"}
          role={notice.kind === "error" ? "alert" : "status"}
        >
          {notice.text}
        </p>
      )}
      {created && <CreatedKey created={created} />}
      {keys && (
        <>
          <KeyTable keys={keys} csrf={csrf} sessionKeyId={props.sessionKeyId} />
          <CreateKeyForm csrf={csrf} sessionScopes={props.sessionScopes} form={props.form} />
        </>
      )}
    </Layout>
  );
}

function CreatedKey({ created }: { created: NewApiKey }) {
  return (
    <section class="notice" aria-labelledby="created-heading" data-created-key-id={created.id}>
      <h2 id="created-heading">Key “{created.name}” created</h2>
      <p>
        <strong>Copy this secret now: it will not be shown again.</strong> Cubicle keeps only a hash of it; if it is
        lost, revoke the key and create another.
      </p>
      <p class="secret-row">
        <code class="secret" data-secret>
          {created.key}
        </code>
        <button type="button" class="secondary" data-copy={created.key}>
          Copy
        </button>
      </p>
    </section>
  );
}

function KeyTable(props: { keys: NonNullable<KeysPageProps["keys"]>; csrf: string; sessionKeyId: string }) {
  const { keys, csrf, sessionKeyId } = props;
  return (
    <>
      <h2 id="live-keys">Live keys</h2>
      <TableWrap label="API keys">
        <table aria-labelledby="live-keys" id="key-table">
          <TableHead
            columns={[
              "Name",
              "Prefix",
              "Scopes",
              "Workspaces",
              "Created",
              "Expires",
              { label: <span class="visually-hidden">Actions</span> },
            ]}
          />
          <tbody>
            {keys.data.map((key) => (
              <KeyRow apiKey={key} csrf={csrf} current={key.id === sessionKeyId} />
            ))}
          </tbody>
        </table>
      </TableWrap>
      {keys.nextCursor && (
        <p>
          <a href={`/dashboard/keys?cursor=${keys.nextCursor}`}>Older keys</a>
        </p>
      )}
    </>
  );
}

function KeyRow({ apiKey, csrf, current }: { apiKey: ApiKey; csrf: string; current: boolean }) {
  const question = current
    ? `Revoke “${apiKey.name}”? It is the key of this session, so you will be signed out.`
    : `Revoke “${apiKey.name}”? Anything using it stops working within 10 seconds.`;
  return (
    <tr data-key-id={apiKey.id} data-session-key={current ? "" : undefined}>
      <th scope="row">
        {apiKey.name}
        {current && <span class="tag">this session</span>}
      </th>
      <td>
        <code data-key-prefix={apiKey.prefix}>{apiKey.prefix}…</code>
      </td>
      <td>
        <ul class="scopes">
          {apiKey.scopes.map((scope) => (
            <li>{scope}</li>
          ))}
        </ul>
      </td>
      <td>{apiKey.workspaceIds ? apiKey.workspaceIds.join(", ") : "all"}</td>
      <td>{date(apiKey.createdAt)}</td>
      <td>{apiKey.expiresAt ? date(apiKey.expiresAt) : "never"}</td>
      <td>
        <form class="inline" method="post" action={`/dashboard/keys/${apiKey.id}/revoke`} data-confirm={question}>
          <input type="hidden" name="_csrf" value={csrf} />
          <button type="submit" class="danger" aria-label={`Revoke ${apiKey.name}`}>
            Revoke
          </button>
        </form>
      </td>
    </tr>
  );
}

function CreateKeyForm(props: { csrf: string; sessionScopes: readonly Scope[]; form?: KeyForm | undefined }) {
  const { csrf, sessionScopes, form } = props;
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  return (
    <>
      <h2 id="create-key">Create a key</h2>
      <form method="post" action="/dashboard/keys" aria-labelledby="create-key">
        <input type="hidden" name="_csrf" value={csrf} />
        <label for="key-name">Name</label>
        <input
          id="key-name"
          name="name"
          type="text"
          required
          maxlength={accountLimits.nameLengthMax}
          value={form?.name ?? ""}
        />
        <fieldset>
          <legend>Scopes</legend>
          <p class="hint">
            Leave all unchecked to give the new key every scope this session's key has. A key can never have a scope its
            creator lacks.
          </p>
          {SCOPES.map((scope) => {
            const held = sessionScopes.includes(scope);
            return (
              <label class={held ? undefined : "unavailable"}>
                <input
                  type="checkbox"
                  name="scopes"
                  value={scope}
                  checked={form?.scopes.includes(scope) ?? false}
                  disabled={!held}
                />
                {scope}
                {!held && <span class="hint"> (this session lacks it)</span>}
              </label>
            );
          })}
        </fieldset>
        <label for="key-expires">
          Expires on <span class="hint">Optional; the key stops working as the day begins (UTC).</span>
        </label>
        <input id="key-expires" name="expires" type="date" min={tomorrow} value={form?.expires ?? ""} />
        <p>
          <button type="submit">Create key</button>
        </p>
      </form>
    </>
  );
}
