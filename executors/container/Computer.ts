/**
 * The Cloudflare Container that runs computerd for one workspace in production (image:
 * container/Dockerfile). Its instance name is the workspace object's name, which becomes
 * the only workspace the daemon serves (COMPUTERD_WORKSPACE, the session token's subject).
 * Locally, `dev.enable_containers = false` and the supervisor stands in (host.ts).
 */
import { Container } from "@cloudflare/containers";
import type { ContainerEnv } from "./host.ts";

export class Computer extends Container<ContainerEnv> {
  override defaultPort = 8080;
  /** A workspace's container sleeps after this long without a request; its files live in the workspace object. */
  override sleepAfter = "10m";
  /** Commands reach the network only when the run asked and the plan allows; computerd cuts off the rest. */
  override enableInternet = true;

  constructor(ctx: ConstructorParameters<typeof Container<ContainerEnv>>[0], env: ContainerEnv) {
    super(ctx, env);
    this.envVars = {
      COMPUTERD_WORKSPACE: ctx.id.name ?? "",
      COMPUTERD_SECRET: env.COMPUTERD_SECRET ?? "",
    };
  }
}
