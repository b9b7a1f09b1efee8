import type { Page } from './types.ts'

/**
 * Every item of a cursor list, page after page: follows `meta.nextCursor` until it is `null`
 * (docs/decisions/0009-lists.md). Pages are fetched lazily, one at a time, as the loop asks for more; breaking
 * out of the loop fetches nothing further.
 */
export async function* paginate<T>(load: (cursor: string | null) => Promise<Page<T>>): AsyncGenerator<T, void, undefined> {
  let cursor: string | null = null
  do {
    const page: Page<T> = await load(cursor)
    yield* page.data
    cursor = page.meta.nextCursor
  } while (cursor !== null)
}
