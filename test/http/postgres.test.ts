/** The HTTP suite on an issuer whose storage is PostgreSQL (a real server, started for this file). */
import { createIssuer, defaultUrls } from '../../index.ts'
import { httpSuite } from '../conformance/http.suite.ts'
import { postgresPerFile } from '../support/postgres-storage.ts'

const postgres = postgresPerFile()

httpSuite('issuer.fetch on PostgreSQL storage', async () => {
  const { storage } = await postgres.open()
  const issuer = createIssuer({ storage, masterKey: new Uint8Array(32).fill(5), urls: defaultUrls(8787) })
  return { issuer, base: issuer.config.urls.base, send: (request) => issuer.fetch(request), close: () => issuer.close() }
})
