/**
 * Who calls a workspace object's methods, as the gateway passes it: the path prefix the
 * credential is confined to, and the actor its changes are recorded as (WorkspaceDO).
 */

/** The path prefix a caller is confined to (`/src`), or null for the whole workspace. */
export type Prefix = string | null;

/**
 * Who asks for a change: the path prefix they are confined to, and who the change is
 * recorded as in the history (`key:<id>`; null when no key is behind the request).
 */
export interface Caller {
  prefix: Prefix;
  actor: string | null;
}

/** A caller, or just its prefix (the whole workspace for null), recorded with no actor. */
export type Access = Prefix | Caller;

export const prefixOf = (access: Access): Prefix =>
  access === null || typeof access === "string" ? access : access.prefix;
export const actorOf = (access: Access): string | null =>
  access === null || typeof access === "string" ? null : access.actor;
