/**
 * The exec body's `egress` field: no network, any public host, or an allow list of hosts,
 * and the policy the workspace object gets from it. The list's syntax, matching and
 * normalisation live with the policy both egress paths enforce (container/wire/egress), so
 * what the API accepts and what the gateway and the container's proxy match cannot drift apart.
 */
import { z } from "@hono/zod-openapi";
import {
  type EgressPolicy,
  normaliseAllowEntry,
  normaliseAllowList,
} from "../../../container/wire/egress/allowList.ts";
import { egressLimits } from "../../../container/wire/egress/limits.ts";
import { ApiError } from "../errors.ts";

/**
 * One entry's shape as the document states it: no spaces or URL punctuation, `*` only as a
 * leading `*.` label. The rest (the host parses under IDNA; the port is a number; the
 * address is public) is checked by normaliseAllowEntry and documented as a rule a pattern
 * cannot state, with its reason at the entry's pointer.
 */
const AllowEntry = z.string().openapi({
  minLength: 1,
  maxLength: egressLimits.allowEntryCharsMax,
  pattern: "^(?:\\*\\.)?[^\\s/?#@\\\\*]+$",
  example: "*.npmjs.org",
});

const AllowList = z
  .array(AllowEntry)
  .min(1)
  // Counted here rather than with `.max()`: zod aborts on an array's too_big, and the union
  // then reports only "invalid" at /egress instead of the list's own pointer.
  .superRefine((entries, ctx) => {
    if (entries.length > egressLimits.allowEntriesMax) {
      ctx.addIssue({ code: "custom", message: `at most ${egressLimits.allowEntriesMax} entries` });
      return;
    }
    for (const [index, entry] of entries.entries()) {
      const normalised = normaliseAllowEntry(entry);
      if (!normalised.ok) ctx.addIssue({ code: "custom", path: [index], message: normalised.reason });
    }
  })
  .openapi({
    maxItems: egressLimits.allowEntriesMax,
    description: `1 to ${egressLimits.allowEntriesMax} hosts the run may reach, each \`host\`, \`*.domain\` or a public IP literal (\`[…]\` for IPv6), optionally with \`:port\` (without one, any port; http and https alike). \`*.npmjs.org\` matches every subdomain of npmjs.org at any depth, but not npmjs.org itself. Entries are normalised as URL hosts are (lowercase, IDNA to punycode, trailing dot dropped).`,
    example: ["api.github.com", "*.npmjs.org", "registry.npmjs.org:443"],
  });

export const EgressField = z
  .union([z.boolean(), z.object({ allow: AllowList }).strict()], {
    error: "must be true, false or { allow: [hosts] }",
  })
  .default(false)
  // Named, so the three executors' request shapes share one type in every SDK.
  .openapi("Egress", {
    description:
      "Network access, on plans that include egress. `false` (the default): none. `true`: any public host. `{ allow: [...] }`: only these hosts; any other request, redirect hops included, gets a 403 whose body starts `cubicle egress: refused <origin>: not in this run's allow list`, and is not billed. Private and loopback addresses are refused either way.",
  });

/** The policy for the workspace object: null for no network, `allow` null for any public host. */
export function egressPolicy(egress: z.infer<typeof EgressField>): EgressPolicy | null {
  if (egress === false) return null;
  if (egress === true) return { allow: null };
  const list = normaliseAllowList(egress.allow);
  // The schema has checked every entry already; this only keeps the two honest.
  if (!list.ok) {
    throw new ApiError("validation_failed", `invalid request: body /egress/allow/${list.index}`, {
      errors: [{ in: "body", pointer: `/egress/allow/${list.index}`, detail: list.reason }],
    });
  }
  return { allow: list.allow };
}
