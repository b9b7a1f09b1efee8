import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { credentialStatus } from '../../../core/credentials/status.ts'

/** Credential status on read (docs/api.md §2.7, §3): revoked, else expired, else valid. */
describe('credentialStatus', () => {
  const now = Date.UTC(2030, 0, 1)

  it('is valid without revocation and before validUntil', () => {
    assert.equal(credentialStatus({ revokedAt: null, validUntil: null }, now), 'valid')
    assert.equal(credentialStatus({ revokedAt: null, validUntil: now + 1 }, now), 'valid')
  })

  it('is expired from validUntil on', () => {
    assert.equal(credentialStatus({ revokedAt: null, validUntil: now }, now), 'expired')
    assert.equal(credentialStatus({ revokedAt: null, validUntil: now - 1 }, now), 'expired')
  })

  it('is revoked when revoked, and revoked wins over expired', () => {
    assert.equal(credentialStatus({ revokedAt: now - 5, validUntil: null }, now), 'revoked')
    assert.equal(credentialStatus({ revokedAt: now - 5, validUntil: now - 10 }, now), 'revoked')
  })
})
