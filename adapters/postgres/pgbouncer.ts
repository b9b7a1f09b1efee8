import type { Sql, TransactionSql } from 'postgres'

/**
 * Behind a pooler in transaction mode (PgBouncer's `pool_mode = transaction`) a client has a server
 * connection for one transaction at a time, and the next may be another: whatever lives on the session
 * (a named prepared statement, a `SET`, a startup parameter) belongs to whichever client opened that
 * server connection (docs/deployment.md § Behind PgBouncer). So the pool sends no session settings:
 * each transaction sets its own with `SET LOCAL` (set_config(…, true)), and the statements of direct
 * reads, which are transactions of one statement, find the tables through the role's `search_path`.
 */

/** Work of a transaction, as `sql.begin` takes it. */
type Work = (tx: TransactionSql) => unknown

/**
 * `sql` whose every transaction (units, migrations) first sets `settings` for itself. The `SET LOCAL`s
 * go out in one simple-protocol statement pipelined with the transaction's first statement, so they
 * cost no round trip; should they fail, that is the error the transaction ends with.
 */
export function withTransactionSettings(sql: Sql, settings: Record<string, string | number>): Sql {
  const statement = `SELECT ${Object.entries(settings)
    .map(([name, value]) => `set_config(${literal(name)}, ${literal(String(value))}, true)`)
    .join(', ')}`
  const begin = sql.begin.bind(sql) as (options: string, work: Work) => Promise<unknown>
  const settled = (...args: [string, Work] | [Work]) => {
    const [options, work] = args.length === 2 ? args : ['', args[0]]
    return begin(options, async (tx) => {
      const set = tx.unsafe(statement).execute()
      try {
        const result = await work(tx)
        await set
        return result
      } catch (error) {
        await set
        throw error
      }
    })
  }
  return Object.assign(sql, { begin: settled as Sql['begin'] })
}

/**
 * Fails, saying what to run, unless every relation of `schema` is what its unqualified name finds on
 * a pooled server connection: behind a pooler clubcred cannot set `search_path` for the session, so the
 * role's (or the database's) default must put the schema first. `"$user", public` does when the role
 * is named like the schema (`clubcred`).
 */
export async function assertSchemaOnSearchPath(sql: Sql, schema: string): Promise<void> {
  const [row] = await sql`
    SELECT current_user AS role, current_database() AS database, current_setting('search_path') AS search_path,
      (SELECT count(*)::int FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = ${schema} AND c.relkind IN ('r', 'p', 'v', 'm', 'S')
          AND to_regclass(quote_ident(c.relname)) IS DISTINCT FROM c.oid) AS hidden`
  if (row!.hidden === 0) return
  throw new Error(
    `behind PgBouncer the search_path of the server connections must find the schema ${schema} first, and it is ${row!.search_path}: ` +
      `run ALTER ROLE ${ident(String(row!.role))} IN DATABASE ${ident(String(row!.database))} SET search_path = ${schema} (docs/deployment.md § Behind PgBouncer)`,
  )
}

const literal = (value: string): string => `'${value.replaceAll("'", "''")}'`
const ident = (name: string): string => `"${name.replaceAll('"', '""')}"`
