import { drizzle } from "drizzle-orm/d1";
import * as schema from "./account/schema.ts";

export type Db = ReturnType<typeof database>;

export function database(d1: D1Database) {
  return drizzle(d1, { schema });
}

export function nowIso(): string {
  return new Date().toISOString();
}
