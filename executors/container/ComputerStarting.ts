/**
 * The host cannot start the workspace's computer yet, and says when to ask again: locally,
 * the supervisor is still building the box image on a fresh machine. ContainerHost.connect
 * throws it; the exec route answers it as 503 `executor_starting` with Retry-After.
 */
export class ComputerStarting extends Error {
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.name = "ComputerStarting";
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
