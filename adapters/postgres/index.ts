/**
 * @module clubcred/postgres: PostgreSQL storage (14 or newer) for one or many processes on one
 * database, on the `postgres` driver (postgres.js: no dependencies, loads on Deno as npm:postgres).
 */
export { createPostgresStorage, migratePostgres, DEFAULT_POSTGRES_SCHEMA, type PostgresStorageOptions } from './storage.ts'
export { isWriteAfterClose } from './write-after-close.ts'
export { isStrayConnectionError } from './stray-connection-error.ts'
