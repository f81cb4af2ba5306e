/**
 * The shell's `stat`, replacing just-bash's: its stat has no room for link counts, owners,
 * inode numbers or nanoseconds, and always follows symlinks. This one asks the workspace
 * (WorkspaceFsApi) for workspace paths and reads just-bash's filesystem elsewhere (/tmp),
 * and answers as GNU stat: lstat unless -L, `-c`/`--format` (a newline after each file),
 * `--printf` (backslash escapes, no newline) and the default layout.
 *
 * Times: the workspace keeps one, the modification time; access and change times show it
 * too, and birth is unknown ("-"), as GNU stat says on filesystems without it.
 */
import { type Command, defineCommand } from "just-bash";
import type { WorkspaceFsApi, FsStat as WorkspaceStat } from "../../contract.ts";
import { workspacePathOf } from "./publishCommands.ts";

interface Info {
  type: WorkspaceStat["type"];
  mode: number;
  size: number;
  nlink: number;
  uid: number;
  gid: number;
  ino: number;
  mtimeNs: bigint;
  target?: string;
}

type Result = { stdout: string; stderr: string; exitCode: number };

/** Names the box's /etc/passwd and /etc/group give these ids. */
const userNames: Record<number, string> = { 0: "root", 1000: "user", 65534: "nobody" };
const groupNames: Record<number, string> = { 0: "root", 1000: "user", 65534: "nogroup" };
const typeBits = { file: 0o100000, dir: 0o040000, symlink: 0o120000 } as const;

function fromWorkspace(stat: WorkspaceStat, identity?: string): Info {
  return {
    type: stat.type,
    mode: stat.mode & 0o7777,
    size: stat.size,
    nlink: stat.nlink ?? 1,
    uid: stat.uid ?? 1000,
    gid: stat.gid ?? 1000,
    ino: Number(identity ?? 0) || 0,
    mtimeNs: stat.mtimeNs !== undefined ? BigInt(stat.mtimeNs) : BigInt(Date.parse(stat.mtime)) * 1_000_000n,
  };
}

function symbolic(info: Info): string {
  const bits = ["r", "w", "x", "r", "w", "x", "r", "w", "x"].map((c, i) => (info.mode & (0o400 >> i) ? c : "-"));
  if (info.mode & 0o4000) bits[2] = bits[2] === "x" ? "s" : "S";
  if (info.mode & 0o2000) bits[5] = bits[5] === "x" ? "s" : "S";
  if (info.mode & 0o1000) bits[8] = bits[8] === "x" ? "t" : "T";
  return (info.type === "dir" ? "d" : info.type === "symlink" ? "l" : "-") + bits.join("");
}

function typeName(info: Info): string {
  if (info.type === "dir") return "directory";
  if (info.type === "symlink") return "symbolic link";
  return info.size === 0 ? "regular empty file" : "regular file";
}

/** GNU stat's human time: `2023-11-14 22:13:20.123456789 +0000`. */
function human(ns: bigint): string {
  let seconds = ns / 1_000_000_000n;
  let nanos = ns % 1_000_000_000n;
  if (nanos < 0n) {
    nanos += 1_000_000_000n;
    seconds -= 1n;
  }
  const date = new Date(Number(seconds) * 1000).toISOString().slice(0, 19).replace("T", " ");
  return `${date}.${String(nanos).padStart(9, "0")} +0000`;
}

function epochSeconds(ns: bigint): string {
  const seconds = ns / 1_000_000_000n;
  return String(ns < 0n && seconds * 1_000_000_000n !== ns ? seconds - 1n : seconds);
}

function format(template: string, name: string, info: Info): string {
  return template.replace(/%(.)/g, (whole, spec: string) => {
    switch (spec) {
      case "n":
        return name;
      case "N":
        return info.type === "symlink" && info.target !== undefined ? `'${name}' -> '${info.target}'` : `'${name}'`;
      case "s":
        return String(info.size);
      case "b":
        return String(Math.ceil(info.size / 512));
      case "B":
        return "512";
      case "o":
        return "4096";
      case "F":
        return typeName(info);
      case "a":
        return info.mode.toString(8);
      case "A":
        return symbolic(info);
      case "f":
        return (info.mode | typeBits[info.type]).toString(16);
      case "h":
        return String(info.nlink);
      case "i":
        return String(info.ino);
      case "u":
        return String(info.uid);
      case "U":
        return userNames[info.uid] ?? "UNKNOWN";
      case "g":
        return String(info.gid);
      case "G":
        return groupNames[info.gid] ?? "UNKNOWN";
      case "x":
      case "y":
      case "z":
        return human(info.mtimeNs);
      case "X":
      case "Y":
      case "Z":
        return epochSeconds(info.mtimeNs);
      case "w":
        return "-";
      case "W":
        return "0";
      case "d":
      case "D":
      case "t":
      case "T":
        return "0";
      case "%":
        return "%";
      default:
        return whole;
    }
  });
}

function defaultLayout(name: string, info: Info): string {
  const mtime = human(info.mtimeNs);
  return (
    `  File: ${info.type === "symlink" && info.target !== undefined ? `${name} -> ${info.target}` : name}\n` +
    `  Size: ${info.size}\tBlocks: ${Math.ceil(info.size / 512)}\tIO Block: 4096   ${typeName(info)}\n` +
    `Device: 0,0\tInode: ${info.ino}\tLinks: ${info.nlink}\n` +
    `Access: (${info.mode.toString(8).padStart(4, "0")}/${symbolic(info)})  Uid: (${info.uid}/${userNames[info.uid] ?? "UNKNOWN"})   Gid: (${info.gid}/${groupNames[info.gid] ?? "UNKNOWN"})\n` +
    `Access: ${mtime}\nModify: ${mtime}\nChange: ${mtime}\n Birth: -\n`
  );
}

const escapes: Record<string, string> = { n: "\n", t: "\t", "\\": "\\", '"': '"', a: "\x07", r: "\r", "0": "\0" };
const printfEscapes = (text: string) => text.replace(/\\(.)/g, (whole, c: string) => escapes[c] ?? whole);

export function statCommand(api: WorkspaceFsApi, mountPoint: string): Command {
  return defineCommand("stat", async (args, ctx): Promise<Result> => {
    let follow = false;
    let template: string | null = null;
    let printf = false;
    const files: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const arg = args[i] as string;
      if (arg === "-L" || arg === "--dereference") follow = true;
      else if (arg === "-c" || arg === "--format") template = args[++i] ?? "";
      else if (arg.startsWith("--format=")) template = arg.slice("--format=".length);
      else if (arg.startsWith("-c") && arg.length > 2) template = arg.slice(2);
      else if (arg.startsWith("--printf=")) {
        template = arg.slice("--printf=".length);
        printf = true;
      } else if (arg === "--printf") {
        template = args[++i] ?? "";
        printf = true;
      } else if (arg === "--") files.push(...(args.slice(i + 1) as string[]));
      else if (arg.startsWith("-") && arg !== "-")
        return { stdout: "", stderr: `stat: invalid option -- '${arg}'\n`, exitCode: 1 };
      else files.push(arg);
      if (arg === "--") break;
    }
    if (files.length === 0) return { stdout: "", stderr: "stat: missing operand\n", exitCode: 1 };
    let stdout = "";
    let stderr = "";
    for (const name of files) {
      const info = await look(api, ctx, mountPoint, name, follow);
      if (typeof info === "string") {
        stderr += `stat: cannot ${follow ? "stat" : "statx"} '${name}': ${info}\n`;
        continue;
      }
      if (template === null) stdout += defaultLayout(name, info);
      else stdout += printf ? printfEscapes(format(template, name, info)) : `${format(template, name, info)}\n`;
    }
    return { stdout, stderr, exitCode: stderr ? 1 : 0 };
  });
}

type Ctx = Parameters<Parameters<typeof defineCommand>[1]>[1];

/** The file's metadata, or the error text GNU stat prints. */
async function look(api: WorkspaceFsApi, ctx: Ctx, mountPoint: string, name: string, follow: boolean) {
  const absolute = ctx.fs.resolvePath(ctx.cwd, name);
  const at = workspacePathOf(absolute, mountPoint);
  if (at !== null) {
    const result = follow ? await api.stat(at) : await api.lstat(at);
    if (!result.ok) return result.code === "ENOENT" ? "No such file or directory" : `${result.message}`;
    const info = fromWorkspace(result.stat, (result.stat as WorkspaceStat & { identity?: string }).identity);
    if (info.type === "symlink") {
      const link = await api.readlink(at);
      if (link.ok) info.target = link.target.startsWith("/") ? `${mountPoint}${link.target}` : link.target;
    }
    return info;
  }
  try {
    const stat = follow ? await ctx.fs.stat(absolute) : await ctx.fs.lstat(absolute);
    const type = stat.isDirectory ? "dir" : stat.isSymbolicLink ? "symlink" : "file";
    const info: Info = {
      type,
      mode: stat.mode & 0o7777,
      size: stat.size,
      nlink: type === "dir" ? 2 : 1,
      uid: 1000,
      gid: 1000,
      ino: Number(stat.ino ?? 0),
      mtimeNs: BigInt(stat.mtime.getTime()) * 1_000_000n,
    };
    if (type === "symlink") info.target = await ctx.fs.readlink(absolute).catch(() => "");
    return info;
  } catch {
    return "No such file or directory";
  }
}
