/**
 * A child process for test/server/stray-connection-error.test.ts: a backend that goes away while
 * postgres.js fetches the array types of a new connection (porsager/postgres#1192, #1223), made
 * deterministic by a loopback proxy in front of the real server that answers the driver's first
 * `pg_type` query as a shutting-down server does (FATAL 57P01) and closes. With or without the server's
 * guard (`GUARD=1`); prints `survived` if the process lives on and the pool works again.
 */
import { createServer, connect, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import postgres from 'postgres'
import { guardProcess } from '../../server/process-guard.ts'
import { createLogger } from '../../server/log.ts'

// The server's guard with the server's logger: its line is JSON on stdout, as in the server.
const log = createLogger({ level: 'info' })
if (process.env.GUARD === '1') guardProcess(() => log)
const target = new URL(process.env.DATABASE_URL!)

/** An ErrorResponse as a backend sends it when the server shuts down. */
function adminShutdown(): Buffer {
  const field = (type: string, value: string) => Buffer.concat([Buffer.from(type), Buffer.from(value), Buffer.from([0])])
  const body = Buffer.concat([
    field('S', 'FATAL'),
    field('V', 'FATAL'),
    field('C', '57P01'),
    field('M', 'terminating connection due to administrator command'),
    Buffer.from([0]),
  ])
  const length = Buffer.alloc(4)
  length.writeInt32BE(body.length + 4)
  return Buffer.concat([Buffer.from('E'), length, body])
}

let cut = false
const proxy = createServer((client: Socket) => {
  const upstream = connect(Number(target.port), target.hostname)
  upstream.pipe(client)
  client.on('data', (chunk: Buffer) => {
    if (!cut && chunk.includes('typarray')) {
      cut = true
      upstream.destroy()
      client.end(adminShutdown())
      return
    }
    upstream.write(chunk)
  })
  client.on('error', () => upstream.destroy())
  upstream.on('error', () => client.destroy())
  client.on('close', () => upstream.destroy())
})
await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
const url = new URL(target)
url.port = String((proxy.address() as AddressInfo).port)

const sql = postgres(url.toString(), { max: 1, onnotice: () => {} })
// The first query's connection dies under the type fetch; the query is retried on a new connection.
const first = await Promise.race([
  sql`SELECT 1 AS one`.then(
    () => 'answered',
    (error: Error) => `failed: ${error.message}`,
  ),
  new Promise((resolve) => setTimeout(() => resolve('pending'), 3000)),
])
process.stdout.write(`first query: ${first}\n`)
if (!cut) throw new Error('the proxy never saw the type fetch')
const [row] = await sql`SELECT 2 AS two`
process.stdout.write(`then: ${row!.two}\n`)
process.stdout.write('survived\n')
process.exit(0)
