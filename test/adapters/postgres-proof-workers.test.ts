/**
 * Two worker processes' issuers on one PostgreSQL database prove a batch (docs/data-integrity.md §
 * Signing): the proof round's lease keeps each credential to one of them, so every credential ends with
 * its proof, and none was signed twice.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createPostgresStorage } from '../../adapters/postgres/index.ts'
import { createDataIntegritySigner } from '../../adapters/node/data-integrity-signer.ts'
import { createIssuer, defaultUrls, type Issuer } from '../../index.ts'
import type { DataIntegritySigner } from '../../core/ports/data-integrity-signer.ts'
import type { StoragePort } from '../../core/ports/storage.ts'
import { recipients } from '../support/issuance-api.ts'
import { postgresPerFile } from '../support/postgres-storage.ts'

const server = postgresPerFile()
const masterKey = new Uint8Array(32).fill(9)

/** The real signer, recording the id of every credential it was given to prove. */
function countingSigner(signed: string[]): DataIntegritySigner & { close(): Promise<void> } {
  const inner = createDataIntegritySigner({ threads: 1, chunkSize: 2 })
  return {
    async signMany(key, verificationMethod, requests, documentLoader) {
      signed.push(...requests.map(({ credential }) => String(credential.id).replace('urn:uuid:', '')))
      return inner.signMany(key, verificationMethod, requests, documentLoader)
    },
    close: () => inner.close(),
  }
}

describe('postgres storage › two workers proving', { timeout: 60_000 }, () => {
  it('two workers prove a batch: every credential gets its proof, and no credential is signed twice', async () => {
    const first = await server.open()
    const storages: StoragePort[] = [first.storage, await createPostgresStorage({ url: first.url, poolSize: 4 })]
    const signed: string[][] = [[], []]
    const signers = signed.map(countingSigner)
    const nodes: Issuer[] = storages.map((storage, i) =>
      createIssuer({
        storage,
        masterKey,
        urls: defaultUrls(8787),
        dataIntegritySigner: signers[i]!,
        worker: { pollMs: 20, batchSize: 100, proofBatchSize: 4 },
      }),
    )
    try {
      await nodes[0]!.clubs.create({ domain: 'chess', name: 'Chess Club' })
      const template = await nodes[0]!.achievements.create('chess', { name: 'Opening theory', description: 'Studied the main openings.' })
      const { result } = await nodes[1]!.issuances.issue('chess', { achievementFormId: template.id, recipients: recipients(40) })
      const ids = result.results.map((item) => (item.status === 'issued' ? item.resourceId : NaN))
      for (const node of nodes) node.worker.start()
      const deadline = Date.now() + 45_000
      let credentials = await storages[0]!.credentials.findByIssuances(ids)
      while (credentials.length < ids.length || credentials.some((credential) => credential.proof.state === 'pending')) {
        assert.ok(Date.now() < deadline, `proved ${credentials.filter((credential) => credential.proof.state !== 'pending').length} of ${ids.length}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
        credentials = await storages[0]!.credentials.findByIssuances(ids)
      }
      const all = signed.flat()
      assert.equal(new Set(all).size, all.length, `signed twice: ${all.filter((id, i) => all.indexOf(id) !== i).join(', ')}`)
      assert.deepStrictEqual(
        [...all].sort(),
        credentials.map((credential) => credential.id).sort(),
        `every credential signed once (worker 1: ${signed[0]!.length}, worker 2: ${signed[1]!.length})`,
      )
      for (const { proof } of credentials) {
        assert.ok(proof.state === 'made')
        assert.equal((JSON.parse(proof.json) as { cryptosuite: string }).cryptosuite, 'eddsa-rdfc-2022')
      }
    } finally {
      await Promise.all(nodes.map((node) => node.close()))
      await Promise.all(signers.map((signer) => signer.close()))
    }
  })
})
