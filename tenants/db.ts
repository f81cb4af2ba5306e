import { drizzle } from "drizzle-orm/d1";
import * as accountSchema from "./account/schema.ts";
import * as artifactSchema from "./artifacts/schema.ts";
import * as shareSchema from "./shares/schema.ts";

const schema = { ...accountSchema, ...artifactSchema, ...shareSchema };

export type Db = ReturnType<typeof database>;

export function database(d1: D1Database) {
  return drizzle(d1, { schema });
}

export function nowIso(): string {
  return new Date().toISOString();
}
