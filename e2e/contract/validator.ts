/**
 * JSON Schema validation against the document's own schemas (ajv, JSON Schema 2020-12, as
 * OpenAPI 3.1 uses it). Patterns are compiled without the `u` flag, as the server's zod
 * compiles them, so a pattern means the same thing on both sides.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { JsonSchema, Spec } from "./spec.ts";

// ajv-formats ships CommonJS whose default export Node hands over as `default`.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;

export interface Validator {
  /** Null when `value` is valid for `schema`, else the validator's first complaints, readable. */
  problems: (schema: JsonSchema, value: unknown) => string | null;
}

const DOCUMENT_ID = "urn:cubicle:openapi";

export function createValidator(spec: Spec): Validator {
  // `strict: false`: OpenAPI adds keywords JSON Schema does not know (`example`, `x-…`).
  const ajv = new Ajv2020({ strict: false, allErrors: true, unicodeRegExp: false, validateFormats: true });
  addFormats(ajv);
  // Request and response bodies of `format: binary` are bytes, not JSON; nothing to check.
  ajv.addFormat("binary", true);
  ajv.addSchema({ $id: DOCUMENT_ID, components: spec.document.components });
  const compiled = new Map<string, ValidateFunction>();
  return {
    problems(schema, value) {
      const key = JSON.stringify(schema);
      let validate = compiled.get(key);
      if (!validate) {
        // Refs point into this document: `#/components/…` becomes `urn:…#/components/…`.
        const rooted = JSON.parse(key.replaceAll('"#/components/', `"${DOCUMENT_ID}#/components/`));
        validate = ajv.compile(rooted);
        compiled.set(key, validate);
      }
      if (validate(value)) return null;
      return (validate.errors ?? [])
        .slice(0, 5)
        .map((e) => `${e.instancePath || "/"} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`)
        .join("; ");
    },
  };
}
