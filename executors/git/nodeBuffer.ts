/**
 * What a bundle of this module maps the bare `buffer` import to (esbuild `alias`).
 * isomorphic-git's SHA-1 (sha.js, through safe-buffer) does `require("buffer")`; in a
 * Worker with `nodejs_compat` the real one is `node:buffer`, but an ES module bundle
 * cannot `require` it, so the require lands here and this static import reaches it.
 */
export { Buffer } from "node:buffer";
