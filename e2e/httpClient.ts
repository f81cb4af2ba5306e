/**
 * The API over real HTTP against a platform started by `npm start`'s script: the same
 * helpers as test/client.ts, for suites that run outside workerd (the container
 * executor's host is a process beside wrangler dev, reachable only through it).
 */
import type { ContractClient } from "../executors/contract.suite.ts";
import { clientAddress, postJsonFrom } from "./platform.ts";

export function httpClient(baseUrl: string): ContractClient {
  const call: ContractClient["call"] = (method, path, options = {}) => {
    const headers = new Headers(options.headers);
    if (options.key !== undefined) headers.set("authorization", `Bearer ${options.key}`);
    let body = options.body;
    if (options.json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(options.json);
    }
    return fetch(`${baseUrl}${path}`, { method, headers, body: body ?? null });
  };
  return {
    call,
    async signup() {
      // Signups are limited per client address (the socket peer); each connects from its own.
      const email = `user-${crypto.randomUUID()}@example.com`;
      const response = await postJsonFrom(`${baseUrl}/v1/signup`, { email }, clientAddress());
      if (response.status !== 201) throw new Error(`signup failed: ${response.status} ${await response.text()}`);
      const body = (await response.json()) as { tenant: { id: string }; apiKey: { key: string } };
      return { key: body.apiKey.key, tenantId: body.tenant.id };
    },
    async createWorkspace(key) {
      const response = await call("POST", "/v1/workspaces", { key, json: {} });
      if (response.status !== 201)
        throw new Error(`create workspace failed: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { id: string }).id;
    },
  };
}
