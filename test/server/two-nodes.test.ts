/** The two-nodes suite on SQLite: two issuers, each with its own connection, on one file. */
import { join } from 'node:path'
import { createIssuer, defaultUrls } from '../../index.ts'
import { createDataIntegritySigner } from '../../adapters/node/data-integrity-signer.ts'
import { twoNodesSuite } from '../conformance/two-nodes.suite.ts'
import { twoNodesExpirySuite } from '../conformance/two-nodes-expiry.suite.ts'
import { MASTER_KEY } from '../support/core-issuer.ts'
import { openSqliteFile, tempDir } from '../support/temp-sqlite.ts'

const options = {
  name: 'sqlite (one file)',
  async open() {
    const dir = tempDir()
    const file = join(dir.path, 'clubcred.db')
    const node = () =>
      createIssuer({ storage: openSqliteFile(file), masterKey: MASTER_KEY, urls: defaultUrls(8787), dataIntegritySigner: createDataIntegritySigner() })
    const a = node()
    const b = node()
    return {
      a,
      b,
      async close() {
        await a.close()
        await b.close()
        dir.remove()
      },
    }
  },
} satisfies Parameters<typeof twoNodesSuite>[0]

twoNodesSuite(options)
twoNodesExpirySuite({ ...options, together: false })
