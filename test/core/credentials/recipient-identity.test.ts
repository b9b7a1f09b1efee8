import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { describe, it } from 'node:test'
import { hashedEmailIdentity } from '../../../core/credentials/recipient-identity.ts'

/** docs/decisions/0014-signed-credential.md: `identityHash = "sha256$" + hex(sha256(email + salt))`, never the plain address. */
describe('hashedEmailIdentity', () => {
  const salt = Uint8Array.from({ length: 16 }, (_, i) => i * 7)

  it('hashes the lower-cased, trimmed address followed by the salt text', () => {
    const identity = hashedEmailIdentity('  Minsu.Kim@Chess.EXAMPLE ', salt)
    const expected = createHash('sha256')
      .update('minsu.kim@chess.example' + identity.salt)
      .digest('hex')
    assert.deepStrictEqual(identity, {
      type: 'IdentityObject',
      identityHash: `sha256$${expected}`,
      identityType: 'emailAddress',
      hashed: true,
      salt: Buffer.from(salt).toString('base64url'),
    })
  })

  it('gives the same hash for the same address in any case, and another hash under another salt', () => {
    const lower = hashedEmailIdentity('minsu@chess.example', salt)
    const upper = hashedEmailIdentity('MINSU@CHESS.EXAMPLE', salt)
    const salted = hashedEmailIdentity(
      'minsu@chess.example',
      salt.map((byte) => byte ^ 1),
    )
    assert.equal(upper.identityHash, lower.identityHash)
    assert.notEqual(salted.identityHash, lower.identityHash)
  })

  it('never contains the address', () => {
    const identity = hashedEmailIdentity('minsu@chess.example', salt)
    assert.equal(JSON.stringify(identity).includes('minsu'), false)
  })
})
