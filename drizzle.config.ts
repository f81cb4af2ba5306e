import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: ["./tenants/account/schema.ts", "./tenants/artifacts/schema.ts", "./tenants/shares/schema.ts"],
  out: "./migrations",
});
