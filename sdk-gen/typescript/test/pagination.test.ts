/** A Pager follows cursors lazily and stops when the pages do. */
import { describe, expect, it } from "vitest";
import { Pager } from "../src/lib/pagination.ts";

function pagerOver(pages: number[][]) {
  const asked: (string | undefined)[] = [];
  const pager = new Pager(async (cursor) => {
    asked.push(cursor);
    const index = cursor === undefined ? 0 : Number(cursor);
    return { items: pages[index] ?? [], nextCursor: index + 1 < pages.length ? String(index + 1) : null };
  });
  return { pager, asked };
}

describe("Pager", () => {
  it("yields every item of every page in order", async () => {
    const { pager, asked } = pagerOver([[1, 2], [3], [4, 5]]);
    expect(await pager.toArray()).toEqual([1, 2, 3, 4, 5]);
    expect(asked).toEqual([undefined, "1", "2"]);
  });

  it("fetches no page it does not need", async () => {
    const { pager, asked } = pagerOver([[1, 2], [3], [4]]);
    for await (const item of pager) if (item === 2) break;
    expect(asked).toEqual([undefined]);
  });
});
