/** The two-nodes suite on PostgreSQL: two issuers, each with its own pool and caches, on one database. */
import { createIssuer, defaultUrls } from '../../index.ts'
import { createPostgresStorage } from '../../adapters/postgres/index.ts'
import { createDataIntegritySigner } from '../../adapters/node/data-integrity-signer.ts'
import { twoNodesSuite } from '../conformance/two-nodes.suite.ts'
import { twoNodesExpirySuite } from '../conformance/two-nodes-expiry.suite.ts'
import { MASTER_KEY } from '../support/core-issuer.ts'
import { postgresPerFile } from '../support/postgres-storage.ts'

const postgres = postgresPerFile()

const options = {
  name: 'postgres (one database, two pools)',
  async open() {
    const first = await postgres.open()
    const node = async (storage = createPostgresStorage({ url: first.url, poolSize: 4 })) =>
      createIssuer({ storage: await storage, masterKey: MASTER_KEY, urls: defaultUrls(8787), dataIntegritySigner: createDataIntegritySigner() })
    const a = await node(Promise.resolve(first.storage))
    const b = await node()
    return {
      a,
      b,
      async close() {
        await a.close()
        await b.close()
      },
    }
  },
} satisfies Parameters<typeof twoNodesSuite>[0]

twoNodesSuite(options)
twoNodesExpirySuite(options)
