import * as v from 'valibot'
import { validationFailed, type FieldError } from '../errors.ts'
import { fromBase64Url, toBase64Url } from '../crypto/base64url.ts'
import type { KeysetPage } from '../ports/storage.ts'

/**
 * Cursor lists (docs/decisions/0009-lists.md): `limit` 1..100 (default 20) and an opaque `cursor` from
 * `meta.nextCursor`; newest first; keyset pagination on the row id, so a page costs the same at any
 * depth. A cursor names its list, so that one list's cursor is refused by another.
 */
export const LIST_LIMIT = { min: 1, max: 100, default: 20 } as const

export interface ListQuery {
  limit?: string | null
  cursor?: string | null
}

export interface Page<T> {
  data: T[]
  meta: { nextCursor: string | null }
}

/** The schema of a `Page` of `item`s; its output type is `Page<InferOutput<item>>` (a type test holds them together). */
export const pageSchema = <Item extends v.GenericSchema>(item: Item) =>
  v.object({ data: v.array(item), meta: v.object({ nextCursor: v.nullable(v.string()) }) })

export function parseListQuery(list: string, query: ListQuery): KeysetPage {
  const errors: FieldError[] = []
  let limit: number = LIST_LIMIT.default
  if (query.limit !== undefined && query.limit !== null) {
    limit = /^\d{1,4}$/.test(query.limit) ? Number(query.limit) : NaN
    if (!(limit >= LIST_LIMIT.min && limit <= LIST_LIMIT.max)) errors.push({ message: 'invalid-limit', path: 'limit' })
  }
  let beforeId: number | null = null
  if (query.cursor !== undefined && query.cursor !== null) {
    beforeId = decodeCursor(list, query.cursor)
    if (beforeId === null) errors.push({ message: 'invalid-cursor', path: 'cursor' })
  }
  if (errors.length > 0) throw validationFailed(errors, 'The list parameters are not valid.')
  return { limit, beforeId }
}

/**
 * Builds a page from rows fetched with `limit + 1`: the extra row only tells that there is more.
 * `position` is the key the list is ordered by: the row id, or the sequence where ids are random.
 */
export function toPage<Row extends { id: number }, T>(
  list: string,
  rows: Row[],
  limit: number,
  present: (row: Row) => T,
  position: (row: Row) => number = (row) => row.id,
): Page<T> {
  const pageRows = rows.slice(0, limit)
  const last = pageRows.at(-1)
  return {
    data: pageRows.map(present),
    meta: { nextCursor: rows.length > limit && last ? encodeCursor(list, position(last)) : null },
  }
}

const encoder = new TextEncoder()

function encodeCursor(list: string, id: number): string {
  return toBase64Url(encoder.encode(`${list}:${id}`))
}

function decodeCursor(list: string, cursor: string): number | null {
  try {
    const [name, id] = new TextDecoder().decode(fromBase64Url(cursor)).split(':')
    return name === list && id !== undefined && /^\d{1,15}$/.test(id) ? Number(id) : null
  } catch {
    return null
  }
}
