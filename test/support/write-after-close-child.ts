/**
 * A child process for test/server/write-after-close.test.ts: triggers postgres.js's write after a
 * connection closed (adapters/postgres/write-after-close.ts) with the real driver on a real server,
 * with or without the server's guard and logger (`GUARD=1`), and prints `survived` if the process lives on.
 */
import postgres from 'postgres'
import { guardProcess } from '../../server/process-guard.ts'
import { createLogger } from '../../server/log.ts'

// The server's guard with the server's logger: its line is JSON on stdout, as in the server.
const log = createLogger({ level: 'info' })
if (process.env.GUARD === '1') guardProcess(() => log)
const url = process.env.DATABASE_URL!
const sql = postgres(url, { max: 2, onnotice: () => {} })
const killer = postgres(url, { max: 1, onnotice: () => {} })
const reserved = await sql.reserve()
const [row] = await reserved`SELECT pg_backend_pid() AS pid`
await killer`SELECT pg_terminate_backend(${row!.pid as number})`
// The first query after the backend died fails as it should; the driver then writes to the closed
// socket from a setImmediate, which no caller can catch.
for (let i = 0; i < 3; i++) {
  await Promise.race([reserved`SELECT 1`.catch(() => {}), new Promise((resolve) => setTimeout(resolve, 200))])
}
process.stdout.write('survived\n')
process.exit(0)
