/**
 * The credential endpoint (core/wallets/issue-credential.ts) hands out the credential it checked: the
 * redeemability rule it shares with the token endpoint (core/wallets/redeemable-credential.ts) returns
 * the record it read, so the stored credential is read once per request, not checked and read again.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createCoreIssuer } from '../../../core/create-core-issuer.ts'
import { defaultUrls } from '../../../core/config.ts'
import { CREDENTIAL_CONFIGURATION_ID, PRE_AUTHORIZED_CODE_GRANT } from '../../../core/wallets/metadata.ts'
import { createMemoryStorage } from '../../../adapters/memory/index.ts'
import { MASTER_KEY } from '../../support/core-issuer.ts'
import { createTestClock } from '../../support/clock.ts'
import type { StoragePort } from '../../../core/ports/storage.ts'

/** The real storage, with every `credentials.findById` it answers written down. */
function withCredentialReads(storage: StoragePort): { storage: StoragePort; reads: string[] } {
  const reads: string[] = []
  const credentials = new Proxy(storage.credentials, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver)
      if (name !== 'findById' || typeof value !== 'function') return value
      return (id: string) => {
        reads.push(id)
        return (value as StoragePort['credentials']['findById']).call(target, id)
      }
    },
  })
  return {
    reads,
    storage: new Proxy(storage, { get: (target, name, receiver) => (name === 'credentials' ? credentials : Reflect.get(target, name, receiver)) }),
  }
}

describe('the credential endpoint', () => {
  it('reads the credential once: the check that it may go into a wallet hands out the record it read', async () => {
    const { storage, reads } = withCredentialReads(createMemoryStorage())
    const issuer = createCoreIssuer({ storage, masterKey: MASTER_KEY, clock: createTestClock(), urls: defaultUrls(8787) })
    try {
      await issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
      const template = await issuer.achievements.create('chess', { name: 'Opening theory', description: 'Studied the main openings.' })
      const { result } = await issuer.issuances.issue('chess', {
        achievementFormId: template.id,
        mode: 'none',
        recipients: [{ name: 'Kim Minsu', email: 'minsu@chess.example' }],
      })
      const issued = result.results[0]!
      assert.equal(issued.status, 'issued')
      await issuer.worker.drain()
      const credentialId = (await issuer.issuances.read('chess', issued.resourceId)).credential!.id
      const jwt = await issuer.verification.credentialJwt(credentialId)

      const offer = await issuer.wallets.credentialOffer('chess', credentialId)
      const code = offer.grants[PRE_AUTHORIZED_CODE_GRANT]['pre-authorized_code']
      const token = await issuer.wallets.token('chess', { grantType: PRE_AUTHORIZED_CODE_GRANT, preAuthorizedCode: code, txCode: null, resource: null })
      reads.length = 0
      const response = await issuer.wallets.credential('chess', token.access_token, async () => ({ credential_configuration_id: CREDENTIAL_CONFIGURATION_ID }))
      assert.deepEqual(reads, [credentialId])
      assert.equal(response.credentials[0].credential, jwt)
    } finally {
      await issuer.close()
    }
  })
})
