import Database from 'better-sqlite3'
import postgres from 'postgres'
import { DEFAULT_POSTGRES_SCHEMA } from '../../adapters/postgres/index.ts'
import { nullableNum, nullableStr, num, type SqlRow } from '../../adapters/shared/sql-values.ts'
import type { OutboxMessage } from '../../core/ports/storage.ts'

/**
 * How the tries of an issuance's messages went, oldest first, as the outbox table holds them: kept for
 * the operator, and core never reads it back, so the storage port has no reader for it. Each reader
 * opens a connection of its own to the adapter's database.
 */
export type OutboxRow = Pick<OutboxMessage, 'attempts' | 'sentAt' | 'lastError'>

const SELECT = 'SELECT attempts, sent_at, last_error FROM outbox WHERE issuance_id = $1 ORDER BY id'
const toRow = (row: SqlRow): OutboxRow => ({ attempts: num(row.attempts), sentAt: nullableNum(row.sent_at), lastError: nullableStr(row.last_error) })

export function sqliteOutboxOf(file: string, issuanceId: number): OutboxRow[] {
  const db = new Database(file, { readonly: true })
  try {
    return (db.prepare(SELECT.replace('$1', '?')).all(issuanceId) as SqlRow[]).map(toRow)
  } finally {
    db.close()
  }
}

export async function postgresOutboxOf(url: string, issuanceId: number, schema = DEFAULT_POSTGRES_SCHEMA): Promise<OutboxRow[]> {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connection: { search_path: schema } })
  try {
    return (await sql.unsafe(SELECT, [issuanceId])).map(toRow)
  } finally {
    await sql.end()
  }
}
