/**
 * Stack traces that name files as module code knows them: the isolate's module
 * `workspace/lib/a.js` is shown as `/workspace/lib/a.js`, and the runtime's own frames
 * (`cubicle/…`) are left out, as Node leaves out its internals' names.
 */
import { inspect } from "node:util";
import { moduleNames } from "../protocol.ts";

const workspaceModule = new RegExp(`(^|\\()${moduleNames.workspacePrefix}`);

export function installStackFormat(): void {
  Error.prepareStackTrace = (error: Error, frames: { toString(): string }[]) => {
    let head: string;
    try {
      head = Error.prototype.toString.call(error);
    } catch {
      head = "Error";
    }
    const lines = frames
      .map((frame) => String(frame))
      .filter((frame) => !frame.includes("cubicle/"))
      .map((frame) => `\n    at ${frame.replace(workspaceModule, "$1/workspace/")}`);
    return head + lines.join("");
  };
}

/** An uncaught value as Node prints it: an error's stack (and its extra fields), anything else inspected. */
export function describeUncaught(value: unknown): string {
  // An error without frames (the runtime's own, such as a failed import) reads best as its message.
  if (value instanceof Error) return value.stack?.includes("\n    at ") ? inspect(value) : String(value);
  return `Uncaught ${inspect(value)}`;
}
