/**
 * Where the CLI keeps its credential: `~/.config/cubicle/config.json` (or under
 * `$XDG_CONFIG_HOME`), mode 0600 in a 0700 directory, since it holds an API key.
 * `CUBICLE_API_KEY` and `CUBICLE_BASE_URL` win over it when set, and `--api-key` and
 * `--base-url` win over both.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { DEFAULT_BASE_URL } from "@cubicle/sdk";

export interface StoredConfig {
  apiKey?: string;
  baseUrl?: string;
}

export function configDir(): string {
  const base = process.env.XDG_CONFIG_HOME || join(homedir(), ".config");
  return join(base, "cubicle");
}

export function configPath(): string {
  return join(configDir(), "config.json");
}

export function readConfig(): StoredConfig {
  try {
    return JSON.parse(readFileSync(configPath(), "utf8")) as StoredConfig;
  } catch {
    return {};
  }
}

/** Writes the config; the file is created 0600 and forced to it if it existed with another mode. */
export function writeConfig(config: StoredConfig): string {
  mkdirSync(configDir(), { recursive: true, mode: 0o700 });
  const path = configPath();
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return path;
}

/** The credential and server to use: flags, then the environment, then the config file. */
export function resolveCredentials(flags: { apiKey?: string; baseUrl?: string }): StoredConfig & { baseUrl: string } {
  const stored = readConfig();
  const apiKey = flags.apiKey ?? (process.env.CUBICLE_API_KEY || undefined) ?? stored.apiKey;
  const baseUrl = flags.baseUrl ?? (process.env.CUBICLE_BASE_URL || undefined) ?? stored.baseUrl ?? DEFAULT_BASE_URL;
  return apiKey === undefined ? { baseUrl } : { apiKey, baseUrl };
}
