/** The HTTP suite through `issuer.fetch`, the node listener, and mounted under `/prefix` in a node app. */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createIssuer, defaultUrls, type IssuerUrls } from '../../index.ts'
import { createMemoryStorage } from '../../adapters/memory/index.ts'
import { toNodeListener } from '../../adapters/node/index.ts'
import { httpSuite } from '../conformance/http.suite.ts'

const masterKey = new Uint8Array(32).fill(5)

httpSuite('issuer.fetch', async () => {
  const issuer = createIssuer({ storage: createMemoryStorage(), masterKey, urls: defaultUrls(8787) })
  return { issuer, base: issuer.config.urls.base, send: (request) => issuer.fetch(request), close: () => issuer.close() }
})

/** Listens first, so that the issuer's URLs can name the port it got. */
async function listening(makeUrls: (origin: string) => IssuerUrls, mount: (issuer: ReturnType<typeof createIssuer>) => Parameters<typeof createServer>[1]) {
  let handler: Parameters<typeof createServer>[1] | undefined
  const server: Server = createServer((req, res) => handler!(req, res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const issuer = createIssuer({ storage: createMemoryStorage(), masterKey, urls: makeUrls(origin) })
  handler = mount(issuer)
  return {
    issuer,
    base: issuer.config.urls.base,
    send: (request: Request) => fetch(request),
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await issuer.close()
    },
  }
}

httpSuite('the node listener', () =>
  listening(
    (origin) => ({ base: origin, auth: `${origin}/oauth`, public: origin, legacyBase: origin, shareHost: new URL(origin).host }),
    (issuer) => toNodeListener(issuer.fetch),
  ),
)

httpSuite('mounted under /prefix in a node app', () =>
  listening(
    (origin) => ({
      base: `${origin}/prefix`,
      auth: `${origin}/prefix/oauth`,
      public: `${origin}/prefix`,
      legacyBase: `${origin}/prefix`,
      shareHost: new URL(origin).host,
    }),
    (issuer) => {
      const clubcred = toNodeListener(issuer.fetch)
      return (req, res) => {
        if (req.url?.startsWith('/prefix/')) return clubcred(req, res)
        res.writeHead(404, { 'content-type': 'text/plain' }).end('the host app has no such page')
      }
    },
  ),
)
