/**
 * The tools capability handed to an executor's sandbox for one run, beside its file
 * capability: `publish` and `share` over this workspace, and `generateImage` billed to its
 * tenant, as the contract's WorkspaceToolsApi says. Everything that decides what a call may do is fixed here by the workspace object
 * when the run starts — the tenant and workspace (the object's own), the run's path prefix,
 * the API key and expiry of the credential that started it, the public base URL for the
 * links — so the sandbox can name a path and a lifetime and nothing else.
 */
import { RpcTarget } from "cloudflare:workers";
import type {
  ArtifactInfo,
  ExecutorName,
  FsError,
  GeneratedImage,
  ImageRequest,
  ShareInfo,
  WorkspaceToolsApi,
} from "../../../executors/contract.ts";
import type { TenantDO } from "../../account/TenantDO.ts";
import { artifactInfo } from "../../artifacts/artifacts.ts";
import { shareLimits } from "../../shares/limits.ts";
import { type ImageModel, imageLimits, type ModelInputs } from "../images.ts";
import { normalizePath } from "../paths.ts";
import type { WorkspacePublishing } from "../publishing.ts";
import type { FsFailure } from "../vfs/errors.ts";

export interface ToolsGrant {
  /** The run's path prefix, or null for the whole workspace. */
  pathPrefix: string | null;
  /** The request's public origin (`https://api.example.com`), for the URLs handed back. */
  baseUrl: string;
  /** The API key behind the run's credential; a share link dies with it. Null: no links. */
  keyId: string | null;
  /** When the run's credential expires (RFC 3339), or null; links expire no later. */
  credentialExpiresAt: string | null;
}

/** What `generateImage` needs: the deployment's model (null: none) and who pays for each image. */
export interface ImageGrant {
  model: ImageModel | null;
  ledger: UsageLedger;
  workspaceId: string;
  executor: ExecutorName;
}

/** The tenant object's two metering calls (its stub, or the object itself in a test). */
export type UsageLedger = Pick<TenantDO, "allowUse" | "record">;

const error = (failure: FsFailure): FsError => ({ ok: false, code: failure.code, message: failure.message });

export class WorkspaceToolsTarget extends RpcTarget implements WorkspaceToolsApi {
  constructor(
    private readonly publishing: WorkspacePublishing,
    private readonly grant: ToolsGrant,
    private readonly images: ImageGrant,
  ) {
    super();
  }

  async publish(path: string): Promise<{ ok: true; artifact: ArtifactInfo } | FsError> {
    const normalized = normalizePath(path);
    if (!normalized.ok) return { ok: false, code: normalized.code, message: normalized.detail };
    const published = await this.publishing.publish(normalized.path, this.grant.pathPrefix);
    if (!published.ok) return error(published);
    return { ok: true, artifact: artifactInfo(published.artifact, this.grant.baseUrl) };
  }

  async share(path: string, ttlSeconds: number): Promise<{ ok: true; share: ShareInfo } | FsError> {
    const normalized = normalizePath(path);
    if (!normalized.ok) return { ok: false, code: normalized.code, message: normalized.detail };
    const { ttlSecondsMin, ttlSecondsMax } = shareLimits;
    if (!Number.isInteger(ttlSeconds) || ttlSeconds < ttlSecondsMin || ttlSeconds > ttlSecondsMax) {
      return { ok: false, code: "EINVAL", message: `ttl must be ${ttlSecondsMin}…${ttlSecondsMax} seconds` };
    }
    const { keyId, credentialExpiresAt, pathPrefix, baseUrl } = this.grant;
    if (keyId === null) return { ok: false, code: "EACCES", message: "this run has no API key to tie a link to" };
    const made = await this.publishing.share(
      normalized.path,
      { ttlSeconds, keyId, notAfter: credentialExpiresAt },
      pathPrefix,
    );
    if (!made.ok) return error(made);
    const { id, path: sharedPath, expiresAt } = made.share;
    return { ok: true, share: { id, path: sharedPath, url: `${baseUrl}/s/${made.token}`, expiresAt } };
  }

  /**
   * Checks the request, asks the tenant whether one more image fits the plan, draws it, and
   * records it as one `ai_images` event; a failed or refused image is not billed.
   */
  async generateImage(request: ImageRequest): Promise<{ ok: true; image: GeneratedImage } | FsError> {
    const { model, ledger, workspaceId, executor } = this.images;
    if (!model) {
      return { ok: false, code: "ENOTSUP", message: "this deployment has no image model (see AI_IMAGE_MODEL)" };
    }
    const inputs = modelInputs(request);
    if (!inputs.ok) return { ok: false, code: "EINVAL", message: inputs.message };
    const allowed = await ledger.allowUse("ai_images", 1);
    if (!allowed.ok) return { ok: false, code: "EDQUOT", message: allowed.detail };
    const made = await model.generate(inputs.inputs);
    if (!made.ok) return made;
    await ledger.record({
      id: `img_${crypto.randomUUID().replaceAll("-", "")}`,
      meter: "ai_images",
      quantity: 1,
      workspaceId,
      keyId: this.grant.keyId,
      executor,
    });
    const { png, width, height } = made;
    return { ok: true, image: { bytes: png, contentType: "image/png", width, height, model: model.name } };
  }
}

/** The request in the model's terms, or what is wrong with it. */
function modelInputs(request: ImageRequest): { ok: true; inputs: ModelInputs } | { ok: false; message: string } {
  const { promptCharsMax, sideMin, sideMax, stepsMax } = imageLimits;
  const { prompt, negativePrompt, width, height, steps, seed } = request ?? {};
  if (typeof prompt !== "string" || prompt.trim() === "" || prompt.length > promptCharsMax) {
    return { ok: false, message: `prompt must be 1–${promptCharsMax} characters` };
  }
  if (negativePrompt !== undefined && (typeof negativePrompt !== "string" || negativePrompt.length > promptCharsMax)) {
    return { ok: false, message: `negativePrompt must be at most ${promptCharsMax} characters` };
  }
  const integer = (value: unknown, min: number, max: number) =>
    value === undefined || (Number.isInteger(value) && (value as number) >= min && (value as number) <= max);
  if (!integer(width, sideMin, sideMax) || !integer(height, sideMin, sideMax)) {
    return { ok: false, message: `width and height must be whole pixels, ${sideMin}–${sideMax}` };
  }
  if (!integer(steps, 1, stepsMax)) return { ok: false, message: `steps must be 1–${stepsMax}` };
  if (!integer(seed, 0, Number.MAX_SAFE_INTEGER)) return { ok: false, message: "seed must be a whole number ≥ 0" };
  const inputs: ModelInputs = { prompt };
  if (negativePrompt !== undefined) inputs.negative_prompt = negativePrompt;
  if (width !== undefined) inputs.width = width;
  if (height !== undefined) inputs.height = height;
  if (steps !== undefined) inputs.num_steps = steps;
  if (seed !== undefined) inputs.seed = seed;
  return { ok: true, inputs };
}
