/** `cubicle.artifacts` and `cubicle.shares`: published outputs and public links. */
import { downloadArtifact, getArtifact, listArtifacts, revokeShare } from "../generated/sdk.gen.ts";
import type { Artifact, ArtifactSummary } from "../generated/types.gen.ts";
import type { Core, RequestOptions } from "./core.ts";
import { Pager } from "./pagination.ts";

export class Artifacts {
  private readonly core: Core;
  /** @internal Made by the client; not constructed directly. */
  constructor(core: Core) {
    this.core = core;
  }

  list(options: RequestOptions & { limit?: number } = {}): Pager<ArtifactSummary> {
    return new Pager(async (cursor) => {
      const { data } = await listArtifacts({ ...this.core.options(options), query: { limit: options.limit, cursor } });
      return { items: data.data, nextCursor: data.nextCursor };
    });
  }

  async get(artifactId: string, options: RequestOptions = {}): Promise<Artifact> {
    const { data } = await getArtifact({ ...this.core.options(options), path: { artifactId } });
    return data as Artifact;
  }

  /** The artifact's archive bytes. */
  async download(artifactId: string, options: RequestOptions = {}): Promise<Uint8Array> {
    const { data } = await downloadArtifact({
      ...this.core.options(options),
      path: { artifactId },
      parseAs: "arrayBuffer",
    });
    return new Uint8Array(data as unknown as ArrayBuffer);
  }
}

export class Shares {
  private readonly core: Core;
  /** @internal Made by the client; not constructed directly. */
  constructor(core: Core) {
    this.core = core;
  }

  async revoke(shareId: string, options: RequestOptions = {}): Promise<void> {
    await revokeShare({ ...this.core.options(options), path: { shareId } });
  }
}
