import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { constantTimeEqual, hashSecret, verifySecret } from '../../../core/crypto/secret-hash.ts'

describe('client secret hashing', () => {
  it('is sha256$ and the base64url SHA-256 of the UTF-8 secret', async () => {
    const secret = 'ccs_ümlaut-secret'
    assert.equal(await hashSecret(secret), 'sha256$' + createHash('sha256').update(secret, 'utf8').digest('base64url'))
  })

  it('verifies the right secret and refuses any other', async () => {
    const hash = await hashSecret('ccs_right')
    assert.equal(await verifySecret('ccs_right', hash), true)
    for (const wrong of ['ccs_Right', 'ccs_right ', '', 'ccs_righ']) assert.equal(await verifySecret(wrong, hash), false)
  })

  it('constantTimeEqual agrees with === on any strings', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        assert.equal(constantTimeEqual(a, b), a === b)
        assert.equal(constantTimeEqual(a, a), true)
      }),
    )
    assert.equal(constantTimeEqual('abc', 'abc\u0000'), false)
  })
})
