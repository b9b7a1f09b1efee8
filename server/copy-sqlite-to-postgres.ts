import type { Sql } from 'postgres'
import type { SqliteDriver, SqliteValue } from '../adapters/sqlite/driver.ts'

/** Tables of the SQLite adapter's own bookkeeping: PostgreSQL keeps the same facts in sequences. */
const SQLITE_BOOKKEEPING = new Set(['sequences'])

const ROWS_PER_STATEMENT = 500

/** The target is not one a copy may write into (rows already there, or a schema of another version). */
export class CopyRefused extends Error {}

export interface CopyReport {
  /** Rows per table, read from SQLite and counted in PostgreSQL after the copy. */
  tables: { table: string; source: number; target: number }[]
}

interface TargetColumn {
  name: string
  type: string
}

/**
 * Copies a SQLite deployment into an empty PostgreSQL schema of the same version (both migrated by their
 * adapters before): every row of every table, ids kept, in one transaction, then every sequence moved
 * past the highest id copied so that new rows never take an old id. Columns are matched by name and each
 * value converted to its PostgreSQL column type by PostgreSQL itself (`json_populate_recordset`), so the
 * copy follows the schemas rather than a second list of them.
 *
 * Refuses a target that holds rows already: merging two deployments is not a copy.
 */
export async function copySqliteToPostgres(source: SqliteDriver, sql: Sql, schema: string): Promise<CopyReport> {
  const sourceTables = (
    source.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid").all() as { name: string }[]
  )
    .map((row) => row.name)
    .filter((name) => !SQLITE_BOOKKEEPING.has(name))
  const targetColumns = await columnsOf(sql, schema)
  const missing = sourceTables.filter((table) => !targetColumns.has(table))
  if (missing.length > 0) throw new CopyRefused(`the PostgreSQL schema has no table ${missing.join(', ')}: are both at the newest migration?`)

  return sql.begin(async (tx) => {
    // The expiry sweeps' positions are seeded by the migration itself; the copied deployment's own replace them.
    await (tx as unknown as Sql).unsafe(`DELETE FROM ${quote(schema)}.${quote('expiry_sweeps')}`)
    for (const table of sourceTables) {
      const n = await countRows(tx as unknown as Sql, schema, table)
      if (n > 0) throw new CopyRefused(`the PostgreSQL table ${table} holds rows already: copy only into an empty database`)
    }
    for (const table of parentsFirst(source, sourceTables)) await copyTable(source, tx as unknown as Sql, schema, table, targetColumns.get(table)!)
    await advanceSequences(tx as unknown as Sql, schema)
    await advanceIssuanceSequence(source, tx as unknown as Sql, schema)

    const tables: CopyReport['tables'] = []
    for (const table of sourceTables) {
      const source_ = Number((source.prepare(`SELECT count(*) AS n FROM ${quote(table)}`).get() as { n: number }).n)
      const n = await countRows(tx as unknown as Sql, schema, table)
      if (n !== source_) throw new Error(`${table}: ${source_} rows read, ${n} written`)
      tables.push({ table, source: source_, target: n })
    }
    return { tables }
  })
}

/**
 * The tables in an order that copies every table after the tables its foreign keys point at, else in
 * creation order. Creation order alone is not that: a migration that rebuilds a table (SQLite 0011, the
 * issuances) creates it anew after the tables that point at it.
 */
function parentsFirst(source: SqliteDriver, tables: string[]): string[] {
  const ordered: string[] = []
  const placed = new Set<string>()
  const place = (table: string, path: Set<string>) => {
    if (placed.has(table) || path.has(table)) return
    path.add(table)
    const parents = source.prepare('SELECT DISTINCT "table" AS parent FROM pragma_foreign_key_list(?)').all(table) as { parent: string }[]
    for (const { parent } of parents) if (parent !== table && tables.includes(parent)) place(parent, path)
    placed.add(table)
    ordered.push(table)
  }
  for (const table of tables) place(table, new Set())
  return ordered
}

async function columnsOf(sql: Sql, schema: string): Promise<Map<string, TargetColumn[]>> {
  const rows = await sql`
    SELECT table_name, column_name, data_type FROM information_schema.columns
    WHERE table_schema = ${schema} ORDER BY table_name, ordinal_position`
  const tables = new Map<string, TargetColumn[]>()
  for (const row of rows) {
    const columns = tables.get(row.table_name) ?? []
    columns.push({ name: row.column_name, type: row.data_type })
    tables.set(row.table_name, columns)
  }
  return tables
}

async function copyTable(source: SqliteDriver, sql: Sql, schema: string, table: string, target: TargetColumn[]): Promise<void> {
  const sourceColumns = source.prepare(`SELECT name, pk FROM pragma_table_info(?)`).all(table) as { name: string; pk: number }[]
  const sourceNames = new Set(sourceColumns.map((row) => row.name))
  const columns = target.filter((column) => sourceNames.has(column.name))
  const list = columns.map((column) => quote(column.name)).join(', ')
  // Pages walk the rowid, or the primary key of a table WITHOUT ROWID, so that each page costs the same.
  const withoutRowid = Boolean(
    (source.prepare(`SELECT sql FROM sqlite_master WHERE name = ?`).get(table)?.sql as string | undefined)?.match(/WITHOUT\s+ROWID/i),
  )
  const key = withoutRowid
    ? sourceColumns
        .filter((column) => column.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((column) => quote(column.name))
    : ['rowid']
  const tuple = `(${key.join(', ')})`
  const first = source.prepare(
    `SELECT ${key.map((k, i) => `${k} AS "__k${i}"`).join(', ')}, * FROM ${quote(table)} ORDER BY ${key.join(', ')} LIMIT ${ROWS_PER_STATEMENT}`,
  )
  const next = source.prepare(
    `SELECT ${key.map((k, i) => `${k} AS "__k${i}"`).join(', ')}, * FROM ${quote(table)} WHERE ${tuple} > (${key.map(() => '?').join(', ')}) ORDER BY ${key.join(', ')} LIMIT ${ROWS_PER_STATEMENT}`,
  )
  for (let after: SqliteValue[] | null = null; ;) {
    const rows: Record<string, SqliteValue>[] = after === null ? first.all() : next.all(...after)
    if (rows.length === 0) return
    const last: Record<string, SqliteValue> = rows[rows.length - 1]!
    after = key.map((_, i) => last[`__k${i}`] ?? null)
    const records = rows.map((row) => Object.fromEntries(columns.map((column) => [column.name, toJsonValue(row[column.name] ?? null, column.type)])))
    await sql.unsafe(
      // OVERRIDING SYSTEM VALUE: identity columns take the copied ids, not new ones.
      `INSERT INTO ${quote(schema)}.${quote(table)} (${list}) OVERRIDING SYSTEM VALUE SELECT ${list} FROM json_populate_recordset(NULL::${quote(schema)}.${quote(table)}, $1::json)`,
      [records as never],
    )
  }
}

/** A SQLite value as JSON that PostgreSQL's input function for `type` reads back as the same value. */
function toJsonValue(value: SqliteValue, type: string): unknown {
  if (value === null) return null
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value).toString('hex')}`
  if (typeof value === 'bigint') return value.toString()
  if (type === 'boolean') return value === 1
  // SQLite keeps JSON as text; a json/jsonb column wants the document itself, not a string holding it.
  if ((type === 'jsonb' || type === 'json') && typeof value === 'string') return JSON.parse(value)
  return value
}

/** Every sequence behind a column default (serial, identity) moves to the highest value copied. */
async function advanceSequences(sql: Sql, schema: string): Promise<void> {
  const owned = await sql`
    SELECT c.table_name, c.column_name, pg_get_serial_sequence(quote_ident(c.table_schema) || '.' || quote_ident(c.table_name), c.column_name) AS sequence
    FROM information_schema.columns c WHERE c.table_schema = ${schema}`
  for (const row of owned) {
    if (!row.sequence) continue
    await sql.unsafe(
      `SELECT setval($1::regclass, coalesce((SELECT max(${quote(row.column_name)}) FROM ${quote(schema)}.${quote(row.table_name)}), 1), (SELECT count(*) > 0 FROM ${quote(schema)}.${quote(row.table_name)}))`,
      [row.sequence],
    )
  }
}

/**
 * The issuance order number (`seq`) has its own counter in SQLite, which never goes back even when rows
 * are deleted; PostgreSQL's counterpart moves to the larger of that counter and the highest `seq` copied.
 */
async function advanceIssuanceSequence(source: SqliteDriver, sql: Sql, schema: string): Promise<void> {
  const counter = Number((source.prepare("SELECT value FROM sequences WHERE name = 'issuances'").get() as { value: number } | undefined)?.value ?? 0)
  const [row] = await sql`
    SELECT quote_ident(sequence_schema) || '.' || quote_ident(sequence_name) AS sequence FROM information_schema.sequences
    WHERE sequence_schema = ${schema} AND sequence_name = 'issuance_seq'`
  const sequence = row?.sequence as string | undefined
  if (!sequence || counter === 0) return
  await sql.unsafe(`SELECT setval($1::regclass, greatest($2::bigint, (SELECT coalesce(max(seq), 0) FROM ${quote(schema)}.issuances)), true)`, [
    sequence,
    counter,
  ])
}

async function countRows(sql: Sql, schema: string, table: string): Promise<number> {
  const [row] = await sql.unsafe(`SELECT count(*) AS n FROM ${quote(schema)}.${quote(table)}`)
  return Number(row!.n)
}

/** An identifier from the catalogs, quoted: never user input, but quoted all the same. */
function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`
}
