/**
 * Mount clubcred under `/badges` in an existing node:http server that serves its own routes too.
 * The issuer's URLs carry the prefix, so every link it makes (share pages aside) points under it.
 *
 *   PORT=3000 npx tsx examples/node-http-prefix.ts
 */
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createIssuer } from 'clubcred'
import { createMemoryStorage } from 'clubcred/memory'
import { createNodeSigner, toNodeListener } from 'clubcred/node'

const server = createServer((req, res) => {
  if (req.url === '/' || req.url === '/health') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('the host app\n')
    return
  }
  if (req.url?.startsWith('/badges/') && badges) return badges(req, res)
  res.writeHead(404).end()
})
let badges: ReturnType<typeof toNodeListener> | undefined

// Listens first, so that the issuer's URLs can name the port it got.
server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1')
await once(server, 'listening')
const origin = `http://localhost:${(server.address() as AddressInfo).port}`
const issuer = createIssuer({
  storage: createMemoryStorage(),
  masterKey: crypto.getRandomValues(new Uint8Array(32)),
  signer: createNodeSigner(),
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
badges = toNodeListener(issuer.fetch)
console.log(JSON.stringify({ listening: origin, clubcred: `${origin}/badges`, client }))
