/**
 * Three projects, one `npm test`:
 * - workers: the gateway, services and Durable Objects inside real workerd (D1, DOs, Worker Loader);
 * - node: generators, scripts and anything that runs on Node;
 * - e2e: the platform started by `npm start`'s own script, driven over HTTP through the SDK.
 */
import { availableParallelism } from "node:os";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defaultClientConditions, defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";
import { testUpstream } from "./test/upstream.ts";

// The repository runs the TypeScript SDK from its sources, through the `cubicle-source`
// export condition of sdk-gen/typescript/package.json; users get its built dist/.
const sdkFromSource = {
  resolve: { conditions: ["cubicle-source", ...defaultClientConditions] },
  ssr: { resolve: { conditions: ["cubicle-source", ...defaultServerConditions] } },
};

export default defineConfig({
  test: {
    // Test files at once (the e2e project still runs one at a time). A workers file spends
    // most of its time waiting (a fresh workerd, modules fetched one by one), so one more file
    // than cores keeps them busy: on 2 cores the workers project took 302 s with vitest's
    // default of one file, 156 s with two, 126 s with three, 122 s with four.
    maxWorkers: availableParallelism() + 1,
    projects: [
      {
        ...sdkFromSource,
        plugins: [
          cloudflareTest(async () => ({
            wrangler: { configPath: "./wrangler.toml" },
            // Workers AI cannot run here (it needs a Cloudflare login); tests that draw images
            // stand a fake model in (tenants/workspace/images.ts), and the rest see none.
            remoteBindings: false,
            miniflare: {
              bindings: { TEST_MIGRATIONS: await readD1Migrations("./migrations"), AI_IMAGE_MODEL: "" },
              // The Worker's own fetch (the egress gateway's upstream) goes here, not to the internet.
              outboundService: testUpstream,
            },
          })),
        ],
        test: {
          name: "workers",
          testTimeout: 30_000,
          include: [
            "api/src/**/*.test.ts",
            "tenants/**/*.test.ts",
            "executors/**/*.test.ts",
            // The SDK as a user's Worker would run it.
            "sdk-gen/**/*.workerd.test.ts",
          ],
          setupFiles: ["./test/applyMigrations.ts"],
          globalSetup: ["./scripts/test-global-setup.ts"],
        },
      },
      {
        ...sdkFromSource,
        test: {
          name: "node",
          environment: "node",
          include: ["scripts/**/*.test.ts", "openapi/**/*.test.ts", "sdk-gen/**/*.test.ts", "container/**/*.test.ts"],
          exclude: ["sdk-gen/**/*.workerd.test.ts", "**/node_modules/**"],
          // computerd tests mount FUSE filesystems and run real processes, in the box image.
          testTimeout: 60_000,
          globalSetup: ["./container/image/testGlobalSetup.ts"],
        },
      },
      {
        ...sdkFromSource,
        test: {
          name: "e2e",
          environment: "node",
          include: ["e2e/**/*.test.ts"],
          // One platform for the files that can share it (e2e/sharedPlatform.ts); it
          // starts before the first test file of any project and stops after the last.
          // The box image first: the platform's supervisor finds it ready instead of building its own.
          globalSetup: ["./container/image/testGlobalSetup.ts", "./e2e/globalSetup.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
