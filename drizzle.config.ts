import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./tenants/account/schema.ts",
  out: "./migrations",
});
