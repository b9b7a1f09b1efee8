/** verify-backup's check of one stored credential (core/credentials/verify-stored.ts), each reason it gives. */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { CompactSign } from 'jose'
import { createMemoryStorage } from '../../../adapters/memory/index.ts'
import { createKeyStore } from '../../../core/keys/create-key-store.ts'
import { verifyStoredCredential } from '../../../core/credentials/verify-stored.ts'
import { MASTER_KEY } from '../../support/core-issuer.ts'
import type { StoredKey } from '../../../core/ports/storage.ts'

const DID = 'did:web:badges.example:open-badges:v3:issuers:chess'
const ID = '5b0c9d3e-2f4a-4c1b-9e8d-7a6b5c4d3e2f'

describe('verifyStoredCredential', async () => {
  const storage = createMemoryStorage()
  const keys = createKeyStore({ storage, masterKey: MASTER_KEY })
  const chess = await keys.activeKey('club:chess')
  const platform = await keys.activeKey('platform')
  const stored = new Map<string, StoredKey>()
  for (const key of [chess, platform]) stored.set(key.kid, (await storage.keys.findByKid(key.kid))!)
  const find = (kid: string) => stored.get(kid) ?? null
  const sign = (key: typeof chess, payload: unknown, kid = `${DID}#${key.kid}`, alg = 'ES256') =>
    new CompactSign(new TextEncoder().encode(JSON.stringify(payload))).setProtectedHeader({ alg, typ: 'JWT', kid }).sign(key.privateKey)
  const credential = (jwt: string) => ({ id: ID, club: 'chess', jwt })

  it('passes a credential signed by its club key whose jti is its id', async () => {
    assert.equal(await verifyStoredCredential(credential(await sign(chess, { jti: `urn:uuid:${ID}` })), find), null)
  })

  it('names what is wrong', async () => {
    const good = await sign(chess, { jti: `urn:uuid:${ID}` })
    const [header, payload, signature] = good.split('.')
    const otherPayload = Buffer.from(JSON.stringify({ jti: `urn:uuid:${ID}`, nbf: 1 })).toString('base64url')
    const cases: [string, string][] = [
      ['not a jwt', 'not a JWS'],
      [`${header}.${otherPayload}.${signature}`, 'the signature does not verify'],
      [await sign(chess, { jti: 'urn:uuid:another' }), 'its jti is not its id'],
      [await sign(platform, { jti: `urn:uuid:${ID}` }), 'signed by a key of another owner'],
      [await sign(chess, { jti: `urn:uuid:${ID}` }, `${DID}#unknown`), 'its signing key is not stored'],
      [`${Buffer.from(JSON.stringify({ alg: 'none', kid: `${DID}#${chess.kid}` })).toString('base64url')}.${payload}.`, 'alg none is not ES256'],
    ]
    for (const [jwt, reason] of cases) assert.equal(await verifyStoredCredential(credential(jwt), find), reason, reason)
  })
})
