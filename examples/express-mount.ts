/**
 * Mount clubcred in an Express app with `app.use('/badges', ...)`. Express strips the mount path from
 * `req.url`; the node listener reads `req.originalUrl`, so the issuer still sees its full paths.
 *
 *   PORT=3000 npx tsx examples/express-mount.ts
 */
import express from 'express'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { createIssuer } from 'clubcred'
import { createMemoryStorage } from 'clubcred/memory'
import { toNodeListener } from 'clubcred/node'

const app = express()
app.get('/', (_req, res) => {
  res.type('text/plain').send('the host app\n')
})

// Listens first, so that the issuer's URLs can name the port it got.
const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1')
await once(server, 'listening')
const origin = `http://localhost:${(server.address() as AddressInfo).port}`
const issuer = createIssuer({
  storage: createMemoryStorage(),
  masterKey: crypto.getRandomValues(new Uint8Array(32)),
  urls: {
    base: `${origin}/badges`,
    auth: `${origin}/badges/oauth`,
    public: `${origin}/badges`,
    legacyBase: `${origin}/badges`,
    shareHost: new URL(origin).host,
  },
})
await issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
const client = await issuer.clients.create({ club: 'chess' })
issuer.worker.start()
app.use('/badges', toNodeListener(issuer.fetch))
console.log(JSON.stringify({ listening: origin, clubcred: `${origin}/badges`, client }))
