import { StorageConflict } from '../../core/errors.ts'
import type { AdvisoryLock, ClubLock } from './locks.ts'
import type { Sql, TransactionSql } from 'postgres'
import { num } from '../shared/sql-values.ts'

/** A row as postgres.js returns it: int8 columns come as strings, bytea as Buffer. */
export type Row = Record<string, unknown>

/** Something to run queries on: the pool (direct reads) or a unit's transaction. */
export type Query = Sql | TransactionSql

/** Advisory locks a store can take (locks.ts); the unit lock is the unit's own business (storage.ts). */
export type UnitLock = Exclude<AdvisoryLock, 'migrations' | 'unit'>

/** What a store sees: the connection to query on and the locks of its unit. */
export interface Database {
  sql: Query
  /**
   * Takes this advisory lock for the rest of the unit's transaction, once (later calls are free). Only
   * inside a unit: direct reads on the pool never lock.
   */
  lock(name: UnitLock): Promise<void>
  /**
   * Takes these clubs' locks of one kind for the rest of the unit's transaction (each once): what a unit
   * must hold before it numbers a club's issuances (`issuing`) or events (`feed`), so that their numbers
   * commit in increasing order within the club (storage.ts). Free in a unit that holds the whole database.
   */
  lockClubs(clubs: Iterable<string>, kind: ClubLock): Promise<void>
}

export const jsonOrNull = (value: unknown): string | null => (value ? JSON.stringify(value) : null)

/**
 * The rows of an `INSERT ... ON CONFLICT DO NOTHING RETURNING ...`: none back means a unique constraint
 * refused it, which is StorageConflict. A plain INSERT would raise 23505 instead, and in PostgreSQL an
 * error aborts the whole transaction; core catches StorageConflict inside units and goes on (a random
 * issuance id drawn twice, a credential stored twice), so the refusal must leave the unit usable.
 */
export function insertedOrConflict(rows: readonly Row[], what: string): Row {
  const row = rows[0]
  if (!row) throw new StorageConflict(`${what} exists`)
  return row
}

/** The most rows one multi-row statement takes: 4,096 × 8 columns stays below the protocol's 65,535 parameters. */
const MAX_ROWS_AT_ONCE = 4096

/** `rows` in chunks of at most 4,096, in order: each chunk is one multi-row statement (`sql(rows, ...columns)`). */
export function chunksOf<T>(rows: T[]): T[][] {
  const chunks: T[][] = []
  for (let at = 0; at < rows.length; at += MAX_ROWS_AT_ONCE) chunks.push(rows.slice(at, at + MAX_ROWS_AT_ONCE))
  return chunks
}

/**
 * The ids a multi-row `INSERT … RETURNING id` gave, in the order of its rows: the identity column numbers
 * the rows in the order of the VALUES list, but PostgreSQL does not promise the order of RETURNING.
 */
export const idsInOrder = (rows: readonly Row[]): number[] => rows.map((row) => num(row.id)).sort((a, b) => a - b)
