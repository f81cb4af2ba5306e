/** `@cubicle/sdk`: the generated operations and types, plus the hand-written helpers in lib/. */

export type { Client } from "./generated/client/index.ts";
export * from "./generated/index.ts";
export { type CubicleOptions, createCubicle } from "./lib/client.ts";
