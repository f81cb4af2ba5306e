/**
 * `ws:ai`: Workers AI from module code through the run's WorkspaceToolsApi capability, so
 * the sandbox holds no binding and no key; the workspace object checks the request, asks
 * the tenant's plan, calls the model and bills the image. Failures reject with an Error
 * whose `code` says why: ENOTSUP (no model in this deployment), EDQUOT (quota or spend
 * cap), EINVAL (a request the model cannot take), EIO (the model failed).
 *
 * ```js
 * import { generateImage } from "ws:ai";
 * const { bytes, width, height, model } = await generateImage({ prompt: "a lighthouse at dusk", width: 512, height: 512 });
 * ```
 */
import type { GeneratedImage, ImageRequest, WorkspaceToolsApi } from "../../contract.ts";

export interface Ai {
  generateImage(request: ImageRequest): Promise<GeneratedImage>;
}

export class AiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
    this.name = "AiError";
  }
}

export function createAi(tools: WorkspaceToolsApi | undefined): Ai {
  return {
    async generateImage(request) {
      if (!tools) throw new AiError("ENOTSUP", "ws:ai is not available in this deployment");
      const result = await tools.generateImage(request);
      if (!result.ok) throw new AiError(result.code, result.message);
      return result.image;
    },
  };
}
