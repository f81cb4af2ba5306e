import { mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { configPath, readConfig, resolveCredentials, writeConfig } from "../src/config.ts";

const saved = { ...process.env };

beforeEach(() => {
  process.env.XDG_CONFIG_HOME = mkdtempSync(join(tmpdir(), "cubicle-config-"));
  delete process.env.CUBICLE_API_KEY;
  delete process.env.CUBICLE_BASE_URL;
});

afterEach(() => {
  process.env = { ...saved };
});

it("writes the key 0600 in a 0700 directory, even over a file that was readable", () => {
  writeConfig({ apiKey: "cub_first" });
  expect(statSync(configPath()).mode & 0o777).toBe(0o600);
  expect(statSync(join(process.env.XDG_CONFIG_HOME as string, "cubicle")).mode & 0o777).toBe(0o700);
  writeFileSync(configPath(), "{}", { mode: 0o644 });
  writeConfig({ apiKey: "cub_second" });
  expect(statSync(configPath()).mode & 0o777).toBe(0o600);
  expect(readConfig()).toEqual({ apiKey: "cub_second" });
});

it("takes flags over the environment over the saved login", () => {
  writeConfig({ apiKey: "cub_saved", baseUrl: "http://saved" });
  expect(resolveCredentials({})).toEqual({ apiKey: "cub_saved", baseUrl: "http://saved" });
  process.env.CUBICLE_API_KEY = "cub_env";
  process.env.CUBICLE_BASE_URL = "http://env";
  expect(resolveCredentials({})).toEqual({ apiKey: "cub_env", baseUrl: "http://env" });
  expect(resolveCredentials({ apiKey: "cub_flag", baseUrl: "http://flag" })).toEqual({
    apiKey: "cub_flag",
    baseUrl: "http://flag",
  });
});

it("has no key and the local server when nothing is set", () => {
  expect(resolveCredentials({})).toEqual({ baseUrl: "http://127.0.0.1:8787" });
});
