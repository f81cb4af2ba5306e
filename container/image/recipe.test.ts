/** The recipe: one package list for both images, read the same way, and a hash that names it. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { imageRecipe, parsePackages, recipeFiles, repoRoot } from "./recipe.ts";

describe("image recipe", () => {
  it("reads names across lines and skips comment lines, as the Dockerfile's grep does", () => {
    const text = "# why\nca-certificates curl\n\n# more\n  git\tpython3  \n";
    expect(parsePackages(text)).toEqual(["ca-certificates", "curl", "git", "python3"]);
  });

  it("holds what the markdown-to-PDF demo and the egress bridge need", () => {
    const { packages } = imageRecipe();
    for (const needed of ["pandoc", "groff", "ghostscript", "socat", "git", "python3", "ca-certificates"]) {
      expect(packages).toContain(needed);
    }
  });

  it("names an image by 16 hex digits that stay the same for the same inputs", () => {
    const first = imageRecipe();
    expect(first.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(imageRecipe().hash).toBe(first.hash);
    expect(first.node.nodeVersion).toBe(process.versions.node);
  });

  it("is the list, the dpkg excludes and the customize script the Dockerfile uses too", () => {
    const dockerfile = readFileSync(join(repoRoot, "container/Dockerfile"), "utf8");
    for (const file of Object.values(recipeFiles)) {
      expect(dockerfile).toContain(`COPY ${file.slice(repoRoot.length + 1)} `);
    }
    expect(dockerfile).toContain("apt-get install -y --no-install-recommends $(grep -v '^#' /tmp/packages.txt)");
    expect(dockerfile).toContain("COMPUTERD_ROOTFS=/opt/cubicle/rootfs");
    // The build context ignores everything it does not name.
    const dockerignore = readFileSync(join(repoRoot, ".dockerignore"), "utf8").split("\n");
    for (const file of Object.values(recipeFiles))
      expect(dockerignore).toContain(`!${file.slice(repoRoot.length + 1)}`);
  });
});
