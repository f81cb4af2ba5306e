/** The mounts of this process's namespace as /proc/self/mountinfo lists them (proc(5)). */
import { readFileSync } from "node:fs";

export interface Mount {
  /** `major:minor` of the mounted filesystem. */
  device: string;
  root: string;
  point: string;
  fstype: string;
  superOptions: string[];
}

/** Mount points are written with octal escapes for space, tab, newline and backslash. */
const unescapeMount = (field: string) =>
  field.replace(/\\([0-7]{3})/g, (_, oct) => String.fromCharCode(parseInt(oct, 8)));

export function parseMountinfo(text: string): Mount[] {
  const mounts: Mount[] = [];
  for (const line of text.split("\n")) {
    const fields = line.split(" ");
    const dash = fields.indexOf("-");
    if (dash < 6 || fields.length < dash + 4) continue;
    mounts.push({
      device: fields[2] as string,
      root: unescapeMount(fields[3] as string),
      point: unescapeMount(fields[4] as string),
      fstype: fields[dash + 1] as string,
      superOptions: (fields[dash + 3] as string).split(","),
    });
  }
  return mounts;
}

/** This namespace's mounts now, in the order they were made. */
export function readMounts(): Mount[] {
  return parseMountinfo(readFileSync("/proc/self/mountinfo", "utf8"));
}
