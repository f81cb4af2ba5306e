/**
 * The local ContainerHost: asks the supervisor (container/supervisor, started by `npm start`)
 * for the workspace's computerd — it starts one in its own namespaces if none runs — then
 * connects to the port it reports on the loopback interface.
 */
import { ComputerStarting } from "./ComputerStarting.ts";
import { type ContainerHost, openWebSocket, type SyncSocket } from "./ContainerHost.ts";

/** The supervisor's codes for "not yet" (container/supervisor/errors.ts): its box image is not ready. */
const NOT_YET = new Set(["image_building", "image_failed"]);

export class LocalSupervisorHost implements ContainerHost {
  constructor(
    private readonly supervisorUrl: string,
    private readonly secret: string,
  ) {}

  async connect(workspace: string): Promise<SyncSocket> {
    const response = await fetch(`${this.supervisorUrl}/computers/${encodeURIComponent(workspace)}`, {
      method: "POST",
      headers: { authorization: `Bearer ${this.secret}` },
    });
    if (!response.ok) throw await refusal(response);
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

/** The supervisor's problem+json as an error: ComputerStarting for "not yet", a plain Error otherwise. */
async function refusal(response: Response): Promise<Error> {
  const text = await response.text();
  const problem = parseProblem(text);
  if (response.status === 503 && NOT_YET.has(problem?.code ?? "")) {
    const retryAfterSeconds = Number(response.headers.get("retry-after")) || 5;
    // The first line only: the detail of a failed build goes on with its log, which is the
    // operator's to read, not the tenant's.
    const reason = (problem?.detail ?? "").split("\n")[0];
    return new ComputerStarting(`the container's root image is not ready: ${reason}`, retryAfterSeconds);
  }
  return new Error(`the container supervisor answered ${response.status}: ${text}`);
}

function parseProblem(text: string): { code?: string; detail?: string } | null {
  try {
    return JSON.parse(text) as { code?: string; detail?: string };
  } catch {
    return null;
  }
}
