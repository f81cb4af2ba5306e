/**
 * The run's `console`, `process.stdout` and `process.stderr`, formatted as Node formats them
 * (node:util's `format` and `inspect`, from nodejs_compat) and written to the output pump:
 * `log`, `info`, `debug`, `dir`, `table` to stdout; `error`, `warn`, `trace`, `assert` to
 * stderr. The isolate's own console (the runtime's log) is replaced whole, so nothing a
 * module prints reaches the platform's logs.
 */
import { format, type InspectOptions, inspect } from "node:util";
import type { OutputStream } from "../../contract.ts";

export type Write = (stream: OutputStream, bytes: Uint8Array) => void;

const encoder = new TextEncoder();

export function createConsole(write: Write): Console {
  let indent = "";
  const counts = new Map<string, number>();
  const timers = new Map<string, number>();
  const print = (stream: OutputStream, text: string) => {
    const body = indent ? text.replace(/^/gm, indent) : text;
    write(stream, encoder.encode(`${body}\n`));
  };
  const out =
    (stream: OutputStream) =>
    (...args: unknown[]) =>
      print(stream, format(...args));
  const elapsed = (label: string) => `${label}: ${(Date.now() - (timers.get(label) ?? Date.now())).toFixed(3)}ms`;
  const methods = {
    log: out("stdout"),
    info: out("stdout"),
    debug: out("stdout"),
    table: out("stdout"),
    error: out("stderr"),
    warn: out("stderr"),
    dir: (value: unknown, options?: InspectOptions) => print("stdout", inspect(value, options)),
    dirxml: out("stdout"),
    trace: (...args: unknown[]) => {
      const stack = (new Error().stack ?? "").split("\n").slice(2).join("\n");
      print("stderr", `Trace${args.length ? `: ${format(...args)}` : ""}\n${stack}`);
    },
    assert: (condition: unknown, ...args: unknown[]) => {
      if (!condition) print("stderr", `Assertion failed${args.length ? `: ${format(...args)}` : ""}`);
    },
    group: (...args: unknown[]) => {
      if (args.length) print("stdout", format(...args));
      indent += "  ";
    },
    groupCollapsed: (...args: unknown[]) => methods.group(...args),
    groupEnd: () => {
      indent = indent.slice(2);
    },
    count: (label = "default") => {
      const n = (counts.get(label) ?? 0) + 1;
      counts.set(label, n);
      print("stdout", `${label}: ${n}`);
    },
    countReset: (label = "default") => counts.delete(label),
    time: (label = "default") => timers.set(label, Date.now()),
    timeLog: (label = "default", ...args: unknown[]) =>
      print("stdout", [elapsed(label), ...args.map(String)].join(" ")),
    timeEnd: (label = "default") => {
      print("stdout", elapsed(label));
      timers.delete(label);
    },
    clear: () => {},
    profile: () => {},
    profileEnd: () => {},
    timeStamp: () => {},
  };
  return methods as unknown as Console;
}

/** `process.stdout` / `process.stderr` as far as module code writes to them. */
export function createStream(stream: OutputStream, write: Write) {
  return {
    isTTY: false,
    fd: stream === "stdout" ? 1 : 2,
    write(chunk: string | Uint8Array, encodingOrCallback?: unknown, callback?: unknown): boolean {
      const bytes = typeof chunk === "string" ? encoder.encode(chunk) : new Uint8Array(chunk);
      write(stream, bytes);
      const done = typeof encodingOrCallback === "function" ? encodingOrCallback : callback;
      if (typeof done === "function") queueMicrotask(() => done());
      return true;
    },
  };
}
