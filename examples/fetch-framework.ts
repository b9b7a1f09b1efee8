/**
 * The fetch handler in a fetch-style framework (here itty-router, the router clubcred itself uses; the
 * same shape fits Hono, Deno.serve, Bun.serve or a Worker's `export default { fetch }`): the host app
 * hands every `/badges/*` request to `issuer.fetch`.
 *
 *   PORT=3000 npx tsx examples/fetch-framework.ts
 */
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { AutoRouter } from 'itty-router'
import { createIssuer } from 'clubcred'
import { createMemoryStorage } from 'clubcred/memory'
import { toNodeListener } from 'clubcred/node'

const server = createServer()
// Listens first, so that the issuer's URLs can name the port it got.
server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1')
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

const app = AutoRouter()
app.get('/', () => new Response('the host app\n', { headers: { 'content-type': 'text/plain' } }))
app.all('/badges/*', (request: Request) => issuer.fetch(request))
// This example serves the fetch app on node:http; on Deno it would be `Deno.serve(app.fetch)`.
server.on(
  'request',
  toNodeListener((request) => app.fetch(request)),
)
console.log(JSON.stringify({ listening: origin, clubcred: `${origin}/badges`, client }))
