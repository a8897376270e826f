/**
 * Cursor pagination as the service does it (docs/api.md "Ids and cursors"): each page carries
 * `nextCursor`, null on the last page; the next page is the same query with `cursor` set to it,
 * passed back unchanged. Pages are fetched one at a time, only as the loop asks for more, so
 * `break` stops fetching.
 */
export interface CursorPage {
  nextCursor: string | null;
}

export async function* paginate<Page extends CursorPage, Item>(
  fetchPage: (cursor: string | undefined) => Promise<Page>,
  itemsOf: (page: Page) => readonly Item[],
  firstCursor?: string,
): AsyncGenerator<Item, void, undefined> {
  let cursor = firstCursor;
  for (;;) {
    const page = await fetchPage(cursor);
    yield* itemsOf(page);
    if (page.nextCursor === null || page.nextCursor === undefined) return;
    // A service bug that handed back the same cursor would otherwise loop forever.
    if (page.nextCursor === cursor) throw new Error(`The service returned the cursor it was given (${cursor}); stopping to avoid an endless loop`);
    cursor = page.nextCursor;
  }
}
