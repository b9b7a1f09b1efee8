/**
 * Webhook throughput: deliveries per second from SQLite to a receiver on loopback, signed and sent
 * through the Node transport with the default per-endpoint limit (4 in flight each). The events are
 * issued and signed first, then replayed to `--endpoints` endpoints, and the bench times the sender
 * draining them. Prints one JSON line.
 *
 *   npm run bench:webhooks [-- --recipients 1000 --endpoints 4]
 */
import { createServer } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { createIssuer, defaultUrls } from '../index.ts'
import { createSqliteStorage } from '../adapters/sqlite/index.ts'
import { betterSqlite3Driver } from '../adapters/sqlite/driver-better-sqlite3.ts'
import { createNodeSigner, createWebhookTransport } from '../adapters/node/index.ts'
import { benchSettings } from './settings.ts'

const { recipients: RECIPIENTS, endpoints: ENDPOINTS } = benchSettings({ recipients: 1000, endpoints: 4 })

const dir = mkdtempSync(join(tmpdir(), 'clubcred-bench-webhooks-'))
let received = 0
const receiver = createServer((req, res) => {
  req.resume().on('end', () => {
    received++
    res.writeHead(204).end()
  })
})
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`

const issuer = createIssuer({
  storage: createSqliteStorage({ driver: betterSqlite3Driver(join(dir, 'bench.db')) }),
  masterKey: new Uint8Array(32).fill(1),
  urls: defaultUrls(8787),
  signer: createNodeSigner(),
  webhooks: { allowPrivate: true },
  webhookTransport: createWebhookTransport(),
})
try {
  await issuer.clubs.create({ domain: 'bench', name: 'Bench Club' })
  const template = await issuer.achievements.create('bench', { name: 'Bench', description: 'Delivered to webhooks.' })
  for (let start = 0; start < RECIPIENTS; start += 1000) {
    const count = Math.min(1000, RECIPIENTS - start)
    const recipients = Array.from({ length: count }, (_, i) => ({ externalUserId: `u${start + i}`, name: `R ${i}`, email: `r${start + i}@example.com` }))
    await issuer.issuances.issue('bench', { achievementFormId: template.id, mode: 'none', recipients })
  }
  await issuer.worker.drain()
  for (let i = 0; i < ENDPOINTS; i++) {
    const hook = await issuer.webhooks.create({ club: 'bench', url: `${url}/${i}` })
    await issuer.webhooks.replay(hook.id, '0')
  }
  const started = performance.now()
  await issuer.worker.drain()
  const seconds = (performance.now() - started) / 1000
  const deliveries = 2 * RECIPIENTS * ENDPOINTS
  if (received !== deliveries) throw new Error(`bench: ${received} deliveries received, ${deliveries} expected`)
  console.log(
    JSON.stringify({
      bench: 'webhooks',
      storage: 'sqlite',
      endpoints: ENDPOINTS,
      concurrencyPerEndpoint: issuer.config.webhooks.concurrencyPerEndpoint,
      deliveries,
      seconds: Number(seconds.toFixed(3)),
      deliveriesPerSecond: Math.round(deliveries / seconds),
      node: process.version,
    }),
  )
} finally {
  await issuer.close()
  receiver.close()
  rmSync(dir, { recursive: true, force: true })
}
