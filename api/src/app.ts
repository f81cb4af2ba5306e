/**
 * The gateway app factory. Order matters and reads top to bottom: request id, the request's
 * services (built once, read as `c.var.services`), refusals the headers alone decide (too
 * many headers, a declared body over the limit), error mapping, public routes, then for
 * everything else under /v1: body limit, authentication, admission (rate, quotas, spend and
 * storage caps; the request is counted there), text checks, and the routes themselves (each
 * declares its scope and, with `admits`, what admission checks for it).
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { App, AppEnv } from "./context.ts";
import { registerDashboard } from "./dashboard/index.tsx";
import { onError, validationHook } from "./handleErrors.ts";
import { registerMcp } from "./mcp/route.ts";
import { admit } from "./middleware/admit.ts";
import { authenticate } from "./middleware/authenticate.ts";
import { bodyLimit } from "./middleware/bodyLimit.ts";
import { settleIdempotency } from "./middleware/idempotency.ts";
import { refuseByHeaders } from "./middleware/refuseByHeaders.ts";
import { requestId } from "./middleware/requestId.ts";
import { provideServices } from "./middleware/services.ts";
import { wellFormedText } from "./middleware/wellFormedText.ts";
import { notFoundOrWrongMethod } from "./notFound.ts";
import { isFileUpload } from "./requestShape.ts";
import { registerAccountGet } from "./routes/account.get.ts";
import { registerArtifactsCreate } from "./routes/artifacts.create.ts";
import { registerArtifactsDownload } from "./routes/artifacts.download.ts";
import { registerArtifactsGet } from "./routes/artifacts.get.ts";
import { registerArtifactsList } from "./routes/artifacts.list.ts";
import { registerBillingGet } from "./routes/billing.get.ts";
import { registerBillingInvoices } from "./routes/billing.invoices.ts";
import { registerBillingPlan } from "./routes/billing.plan.ts";
import { registerBillingSpendCap } from "./routes/billing.spendCap.ts";
import { registerBillingUpcoming } from "./routes/billing.upcoming.ts";
import { registerDocs } from "./routes/docs.ts";
import { registerExecCreate } from "./routes/exec.create.ts";
import { registerExecsGet } from "./routes/execs.get.ts";
import { registerExecsKill } from "./routes/execs.kill.ts";
import { registerExecsList } from "./routes/execs.list.ts";
import { registerExecsOutput } from "./routes/execs.output.ts";
import { registerFilesDelete } from "./routes/files.delete.ts";
import { registerFilesGet } from "./routes/files.get.ts";
import { registerFilesHead } from "./routes/files.head.ts";
import { registerFilesPut } from "./routes/files.put.ts";
import { registerFsBatch } from "./routes/fs.batch.ts";
import { registerFsChanges } from "./routes/fs.changes.ts";
import { registerFsChmod } from "./routes/fs.chmod.ts";
import { registerFsChown } from "./routes/fs.chown.ts";
import { registerFsCopy } from "./routes/fs.copy.ts";
import { registerFsFind } from "./routes/fs.find.ts";
import { registerFsGrep } from "./routes/fs.grep.ts";
import { registerFsLink } from "./routes/fs.link.ts";
import { registerFsList } from "./routes/fs.list.ts";
import { registerFsMkdir } from "./routes/fs.mkdir.ts";
import { registerFsMove } from "./routes/fs.move.ts";
import { registerFsReadlink } from "./routes/fs.readlink.ts";
import { registerFsStat } from "./routes/fs.stat.ts";
import { registerFsSymlink } from "./routes/fs.symlink.ts";
import { registerFsTruncate } from "./routes/fs.truncate.ts";
import { registerFsUtimes } from "./routes/fs.utimes.ts";
import { registerHealthz } from "./routes/healthz.ts";
import { registerKeysCreate } from "./routes/keys.create.ts";
import { registerKeysDelete } from "./routes/keys.delete.ts";
import { registerKeysList } from "./routes/keys.list.ts";
import { registerOpenApi } from "./routes/openapi.ts";
import { registerQuotasGet } from "./routes/quotas.get.ts";
import { registerShareLinkGet } from "./routes/shareLink.get.ts";
import { registerSharesCreate } from "./routes/shares.create.ts";
import { registerSharesDelete } from "./routes/shares.delete.ts";
import { registerSharesList } from "./routes/shares.list.ts";
import { registerSignup } from "./routes/signup.ts";
import { registerSnapshots } from "./routes/snapshots.ts";
import { registerTokensCreate } from "./routes/tokens.create.ts";
import { registerUsageEvents } from "./routes/usage.events.ts";
import { registerUsageGet } from "./routes/usage.get.ts";
import { registerVersions } from "./routes/versions.ts";
import { registerWorkspacesCreate } from "./routes/workspaces.create.ts";
import { registerWorkspacesDelete } from "./routes/workspaces.delete.ts";
import { registerWorkspacesFork } from "./routes/workspaces.fork.ts";
import { registerWorkspacesGet } from "./routes/workspaces.get.ts";
import { registerWorkspacesList } from "./routes/workspaces.list.ts";
import { registerWorkspacesUpdate } from "./routes/workspaces.update.ts";

export interface AppOptions {
  /**
   * The stage that turns a credential into a principal and admits the request. Production
   * uses authentication then admission; only the benchmark build (bench/gateway) passes a
   * stand-in, to measure what the real stage costs.
   */
  gate?: MiddlewareHandler<AppEnv>[];
}

export function createApp(options: AppOptions = {}): App {
  const app: App = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.use("*", requestId());
  app.use("*", provideServices());
  // Before anything reads a credential or a body: too many headers, or a declared body over the limit.
  app.use("*", refuseByHeaders());
  app.onError(onError);
  app.notFound(notFoundOrWrongMethod(app));

  registerHealthz(app);
  registerOpenApi(app);
  registerDocs(app);
  // The dashboard has its own session (a cookie), checked by its own middleware.
  registerDashboard(app);
  // Share links carry their own credential (the token in the path) and answer anyone.
  registerShareLinkGet(app);
  // MCP checks the credential itself and sends each tool call through /v1 below (mcp/route.ts).
  registerMcp(app);

  app.use("/v1/*", bodyLimit({ except: (c) => isFileUpload(c.req.method, c.req.path) }));
  // Signup is registered before authentication: it answers without calling the rest.
  registerSignup(app);
  for (const stage of options.gate ?? [authenticate(), admit()]) app.use("/v1/*", stage);
  // Text is stored well-formed or not at all; then a handler's Idempotency-Key claim is settled.
  // A file upload's body is the file's bytes, whatever its Content-Type says, and streams to the workspace unread.
  app.use("/v1/*", wellFormedText({ except: (c) => isFileUpload(c.req.method, c.req.path) }));
  app.use("/v1/*", settleIdempotency());

  registerAccountGet(app);
  registerKeysList(app);
  registerKeysCreate(app);
  registerKeysDelete(app);
  registerTokensCreate(app);
  registerWorkspacesCreate(app);
  registerWorkspacesFork(app);
  registerWorkspacesList(app);
  registerWorkspacesGet(app);
  registerWorkspacesUpdate(app);
  registerWorkspacesDelete(app);
  registerFilesHead(app);
  registerFilesPut(app);
  registerFilesGet(app);
  registerFilesDelete(app);
  registerFsList(app);
  registerFsChanges(app);
  registerFsStat(app);
  registerFsMkdir(app);
  registerFsMove(app);
  registerFsCopy(app);
  registerFsSymlink(app);
  registerFsReadlink(app);
  registerFsChmod(app);
  registerFsChown(app);
  registerFsUtimes(app);
  registerFsLink(app);
  registerFsTruncate(app);
  registerFsGrep(app);
  registerFsFind(app);
  registerFsBatch(app);
  registerSnapshots(app);
  registerVersions(app);
  registerExecCreate(app);
  registerExecsList(app);
  registerExecsGet(app);
  registerExecsOutput(app);
  registerExecsKill(app);
  registerArtifactsCreate(app);
  registerArtifactsList(app);
  registerArtifactsGet(app);
  registerArtifactsDownload(app);
  registerSharesCreate(app);
  registerSharesList(app);
  registerSharesDelete(app);
  registerUsageGet(app);
  registerUsageEvents(app);
  registerQuotasGet(app);
  registerBillingGet(app);
  registerBillingPlan(app);
  registerBillingSpendCap(app);
  // Before any `/v1/billing/invoices/{id}` route, so `upcoming` is never read as an id.
  registerBillingUpcoming(app);
  registerBillingInvoices(app);
  return app;
}
