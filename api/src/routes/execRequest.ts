/**
 * The body of `POST …/exec`: one shape per executor, told apart by `executor`, so the
 * document (and every SDK generated from it) says which fields each one takes: a shell or
 * container run needs `command`, a JavaScript run needs `code` and may pass `input`.
 */
import { z } from "@hono/zod-openapi";
import type { JsonValue } from "../../../executors/contract.ts";
import { execLimits } from "../../../executors/limits.ts";
import { workspaceLimits } from "../../../tenants/workspace/limits.ts";
import { pathPatterns } from "../../../tenants/workspace/pathPatterns.ts";
import { recordKeys } from "../schemas.ts";
import { EgressField } from "./execEgress.ts";

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ENV_NAME_LENGTH_MAX = 256;

const Source = (description: string) => z.string().min(1).max(execLimits.sourceBytesMax).openapi({ description });

/** What every executor takes besides its source. */
const runFields = {
  cwd: z
    .string()
    .min(1)
    .max(workspaceLimits.pathLengthMax)
    .optional()
    // The pattern is documentation; execCwd() (execShared.ts) enforces the same rule with its reason.
    .openapi({
      pattern: pathPatterns.execCwd,
      description:
        "/workspace (the workspace root), /tmp, or a directory below either, by the workspace's path rules. Default /workspace, or for a token confined to a path prefix, that directory (`/workspace/src`).",
      example: "/workspace/src",
    }),
  env: z
    .record(z.string().regex(ENV_NAME).max(ENV_NAME_LENGTH_MAX), z.string().max(execLimits.envValueBytesMax))
    .refine((e) => Object.keys(e).length <= execLimits.envEntriesMax, `at most ${execLimits.envEntriesMax} variables`)
    .default({})
    .openapi({
      ...recordKeys({ pattern: ENV_NAME.source, maxLength: ENV_NAME_LENGTH_MAX }, execLimits.envEntriesMax),
      example: { NODE_ENV: "production" },
    }),
  stdin: z
    .string()
    .max(execLimits.stdinBytesMax)
    .optional()
    .openapi({ description: "UTF-8 text fed to standard input." }),
  timeoutMs: z.number().int().min(1).max(execLimits.timeoutMsMax).default(execLimits.timeoutMsDefault),
  outputBytesMax: z.number().int().min(1).max(execLimits.outputBytesMax).default(execLimits.outputBytesMax).openapi({
    description: "Output kept for this run; past it a truncation marker is written and output is dropped.",
  }),
  background: z.boolean().default(false),
  egress: EgressField,
  snapshot: z.enum(["before"]).optional().openapi({
    description:
      "`before` takes a snapshot of the workspace just before the command runs (its id is `snapshotId` in the answer), so undoing the command is one restore. Counts against the plan's snapshots per workspace.",
  }),
};

const ShellRun = z
  .object({
    executor: z.literal("shell"),
    command: Source("The bash script, run by the just-bash interpreter."),
    ...runFields,
  })
  .openapi("ShellRun");

const ContainerRun = z
  .object({
    executor: z.literal("container"),
    command: Source("The shell command line, run by bash in the container."),
    ...runFields,
    user: z.enum(["user", "root"]).default("user").openapi({
      description:
        "Who the command runs as in its sandbox: `user` (uid 1000, the default) or `root` (uid 0 there: it may chown files, switch to any uid and install system packages into writable paths, and is still unprivileged on the host).",
    }),
  })
  .openapi("ContainerRun");

const JavascriptRun = z
  .object({
    executor: z.literal("javascript"),
    code: Source("The ES module; its default export is called with `input` and its return value is the result."),
    input: z.unknown().optional().openapi({ description: "The value passed to the module's default export." }),
    ...runFields,
  })
  .openapi("JavascriptRun");

export const ExecBody = z
  .discriminatedUnion("executor", [ShellRun, JavascriptRun, ContainerRun])
  .openapi("ExecRequest");

export type ExecBody = z.infer<typeof ExecBody>;

/** Who a container run runs as; other executors have no users. */
export function runUser(body: ExecBody): { user: "user" | "root" } | Record<string, never> {
  return body.executor === "container" ? { user: body.user } : {};
}

/** The run's source as the workspace object takes it: `command`, or `code` and `input`. */
export function sourceOf(body: ExecBody): { command: string } | { code: string; input?: JsonValue } {
  if (body.executor !== "javascript") return { command: body.command };
  return body.input === undefined ? { code: body.code } : { code: body.code, input: body.input as JsonValue };
}
