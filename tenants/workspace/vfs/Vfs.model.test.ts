import { describe, expect, it } from "vitest";
import type { FsCode } from "./errors.ts";
import type { ModelOp } from "./test/model.ts";
import { Generator } from "./test/modelGen.ts";
import { report, runSequence } from "./test/modelRun.ts";

/** 40 blocks × 25 seeds × 40 steps: 1,000 sequences, 40,000 operations, about 30 s on two busy cores. */
const BLOCKS = 40;
const SEEDS_PER_BLOCK = 25;
const STEPS_PER_SEED = 40;

describe("Vfs against the in-memory model", () => {
  for (let block = 0; block < BLOCKS; block++) {
    const first = block * SEEDS_PER_BLOCK;
    it(`agrees on seeds ${first}–${first + SEEDS_PER_BLOCK - 1}`, { timeout: 60_000 }, async () => {
      for (let seed = first; seed < first + SEEDS_PER_BLOCK; seed++) {
        const generator = new Generator(seed);
        const { ops, failure } = await runSequence(STEPS_PER_SEED, (model) => generator.next(model));
        if (failure) expect.fail(report(`seed ${seed}`, ops, failure));
      }
    });
  }
});

const text = (value: string) => new TextEncoder().encode(value);

/** Sequences that broke the filesystem before, with the codes they must give now. */
const REGRESSIONS: { name: string; steps: [ModelOp, "ok" | FsCode][] }[] = [
  {
    name: "a dangling link where mkdir -p or a write must make a directory is EEXIST, not a constraint error",
    steps: [
      [{ op: "symlink", target: "/nowhere", path: "/a" }, "ok"],
      [{ op: "write", path: "/a/b/f", content: text("x") }, "EEXIST"],
      [{ op: "mkdir", path: "/a", recursive: true }, "EEXIST"],
      [{ op: "mkdir", path: "/a/b", recursive: true }, "EEXIST"],
      [
        {
          op: "batch",
          ops: [
            { op: "write", path: "/c", content: text("1") },
            { op: "write", path: "/a/f/g", content: text("2") },
          ],
        },
        "EEXIST",
      ],
      [{ op: "mkdir", path: "/nowhere" }, "ok"],
      [{ op: "write", path: "/a/b/f", content: text("x") }, "ok"],
    ],
  },
  {
    name: "copying the root, by any name, is copying it into itself (EINVAL), not a crash",
    steps: [
      [{ op: "mkdir", path: "/a" }, "ok"],
      [{ op: "copy", from: "/", to: "/a/b" }, "EINVAL"],
      [{ op: "symlink", target: "/", path: "/l" }, "ok"],
      [{ op: "copy", from: "/l", to: "/a/c" }, "EINVAL"],
      [{ op: "symlink", target: "..", path: "/a/up" }, "ok"],
      [{ op: "copy", from: "/a/up", to: "/a/d" }, "EINVAL"],
    ],
  },
  {
    name: "copying a file onto itself is refused and leaves its content whole",
    steps: [
      [{ op: "write", path: "/f", content: text("abc") }, "ok"],
      [{ op: "copy", from: "/f", to: "/f", overwrite: true }, "EINVAL"],
      [{ op: "symlink", target: "f", path: "/l" }, "ok"],
      [{ op: "copy", from: "/l", to: "/f", overwrite: true }, "EINVAL"],
      [{ op: "copy", from: "/f", to: "/f" }, "EEXIST"],
      [{ op: "read", path: "/f" }, "ok"],
    ],
  },
  {
    name: "a write spelled with a trailing slash makes the file, not a directory holding a nameless file",
    steps: [
      [{ op: "write", path: "/x/y/", content: text("z") }, "ok"],
      [{ op: "stat", path: "/x/y", follow: false }, "ok"],
      [{ op: "write", path: "x/z", content: text("w") }, "ok"],
    ],
  },
];

describe("Vfs regressions the model found", () => {
  for (const { name, steps } of REGRESSIONS) {
    it(name, async () => {
      const { ops, codes, failure } = await runSequence(
        steps.length,
        (_model, step) => (steps[step] as [ModelOp, string])[0],
      );
      if (failure) expect.fail(report(name, ops, failure));
      expect(codes).toEqual(steps.map(([, code]) => code));
    });
  }
});
