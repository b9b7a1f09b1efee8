import init from './0001_init.ts'

/**
 * Schema migrations in order, each recorded in the `migrations` table of the schema. Append only: a
 * migration that has shipped is never edited. SQL lives in modules so that it bundles and loads the
 * same on every runtime without file access.
 */
export const MIGRATIONS: { version: number; name: string; sql: string }[] = [{ version: 1, name: 'init', sql: init }]
