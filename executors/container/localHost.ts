/**
 * The local ContainerHost: asks the supervisor (container/supervisor, started by `npm start`)
 * for the workspace's computerd — it starts one in its own namespaces if none runs — then
 * connects to the port it reports on the loopback interface.
 */
import type { ContainerHost } from "./host.ts";
import { openWebSocket } from "./host.ts";

export class LocalSupervisorHost implements ContainerHost {
  constructor(
    private readonly supervisorUrl: string,
    private readonly secret: string,
  ) {}

  async connect(workspace: string): Promise<WebSocket> {
    const response = await fetch(`${this.supervisorUrl}/computers/${encodeURIComponent(workspace)}`, {
      method: "POST",
      headers: { authorization: `Bearer ${this.secret}` },
    });
    if (!response.ok) throw new Error(`the container supervisor answered ${response.status}: ${await response.text()}`);
    const { port } = (await response.json()) as { port: number };
    return openWebSocket({ fetch: (request) => fetch(request) }, `http://127.0.0.1:${port}/session`);
  }

  async forget(workspace: string): Promise<void> {
    const response = await fetch(`${this.supervisorUrl}/computers/${encodeURIComponent(workspace)}?forget=true`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${this.secret}` },
    });
    if (!response.ok) throw new Error(`the container supervisor answered ${response.status}: ${await response.text()}`);
  }
}
