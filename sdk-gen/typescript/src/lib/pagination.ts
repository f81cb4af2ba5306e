/**
 * Lists answer one page at a time (`?limit=&cursor=` → `{ …, nextCursor }`). A `Pager`
 * walks them lazily: `for await (const item of pager)` fetches the next page only when the
 * previous one is used up, so breaking out early costs no extra requests.
 */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export type FetchPage<T> = (cursor: string | undefined) => Promise<Page<T>>;

export class Pager<T> implements AsyncIterable<T> {
  private readonly fetchPage: FetchPage<T>;
  constructor(fetchPage: FetchPage<T>) {
    this.fetchPage = fetchPage;
  }

  /** Each page in turn, from the first. */
  async *pages(): AsyncGenerator<Page<T>> {
    let cursor: string | undefined;
    do {
      const page = await this.fetchPage(cursor);
      yield page;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const page of this.pages()) yield* page.items;
  }

  /** Only the first page: one request. */
  firstPage(): Promise<Page<T>> {
    return this.fetchPage(undefined);
  }

  /** Every item of every page; mind the size of what you list. */
  async toArray(): Promise<T[]> {
    const all: T[] = [];
    for await (const item of this) all.push(item);
    return all;
  }
}
