import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { decodeJwt, decodeProtectedHeader } from 'jose'
import { createTestClock, type TestClock } from '../../support/clock.ts'
import { openVerificationApi, type VerificationApi } from '../../support/api-harness.ts'
import { clubPaths, createTemplate, credentialOf, detailOf, expectStatus, issueTo, listItemOf, members, verdictOf } from '../../support/verification-steps.ts'
import { verifyWithDidDocument } from '../../support/verification-status-list.ts'
import type { Json } from '../../support/json.ts'

/**
 * Credential status and the public verdict (docs/api.md §2.7, §2.11, §3, §4.11; docs/decisions/0010-lifecycle.md;
 * docs/decisions/0019-verification-and-revocation.md): status is computed on every read (revoked, else expired, else
 * valid) and agrees on every surface; `isValid` is a real verification of the stored JWT; `issuerVerified`
 * is independent of both; the verdict names no recipient.
 */

const HOUR = 3_600_000
const paths = clubPaths()

let api: VerificationApi
let clock: TestClock
let templateId: number
beforeEach(async () => {
  clock = createTestClock()
  api = await openVerificationApi({ clock })
  templateId = await createTemplate(api)
})
afterEach(async () => {
  await api.close()
})

/** One signed credential expiring in an hour; returns its issuance id. */
async function signedExpiringInAnHour(prefix = 'm'): Promise<number> {
  const [id] = await issueTo(api, templateId, members(1, prefix), { expiresAt: new Date(clock.now() + HOUR).toISOString() })
  await api.issuer.worker.drain()
  return id!
}

const revoke = async (id: number) => expectStatus(await api.call('POST', paths.revoke(id)), 200, 'revoke')

type State = 'valid' | 'revoked' | 'expired' | 'revoked-and-expired'
type Surface = 'issuance detail credential.status' | 'issuance list item status' | 'verify verdict status'

/** Brings a fresh credential into `state` with the clock and the revoke endpoint; returns its issuance id. */
const into: Record<State, () => Promise<number>> = {
  async valid() {
    const id = await signedExpiringInAnHour()
    clock.advance(HOUR - 1) // one millisecond before validUntil
    return id
  },
  async revoked() {
    const id = await signedExpiringInAnHour()
    await revoke(id)
    return id
  },
  async expired() {
    const id = await signedExpiringInAnHour()
    clock.advance(HOUR) // validUntil itself is no longer valid
    return id
  },
  async 'revoked-and-expired'() {
    const id = await signedExpiringInAnHour()
    await revoke(id)
    clock.advance(2 * HOUR)
    return id
  },
}

const expected: Record<State, string> = { valid: 'valid', revoked: 'revoked', expired: 'expired', 'revoked-and-expired': 'revoked' }

const read: Record<Surface, (id: number) => Promise<string>> = {
  'issuance detail credential.status': async (id) => (await detailOf(api, id)).credential.status,
  'issuance list item status': async (id) => (await listItemOf(api, id)).status,
  async 'verify verdict status'(id) {
    const verdict = expectStatus(await verdictOf(api, id), 200, 'verdict')
    assert.equal(verdict.statusCode, 200)
    assert.equal(verdict.isValid, true, 'the signature holds whatever the status')
    return verdict.status
  },
}

for (const surface of Object.keys(read) as Surface[]) {
  describe(`status on the ${surface}`, () => {
    for (const state of Object.keys(into) as State[]) {
      it(`${state} → ${expected[state]}`, async () => {
        const id = await into[state]()
        assert.equal(await read[surface](id), expected[state])
      })
    }
  })
}

describe('status moves with time and revocation, and every surface agrees at every step', () => {
  it('valid → expired (at validUntil) → revoked; expired-then-revoked is revoked too', async () => {
    const id = await signedExpiringInAnHour()
    const [other] = await issueTo(api, templateId, members(1, 'other'))
    await api.issuer.worker.drain()
    const all = async (issuance: number) => Promise.all(Object.values(read).map((surface) => surface(issuance)))
    assert.deepEqual(await all(id), ['valid', 'valid', 'valid'])
    clock.advance(HOUR - 1)
    assert.deepEqual(await all(id), ['valid', 'valid', 'valid'])
    clock.advance(1)
    assert.deepEqual(await all(id), ['expired', 'expired', 'expired'])
    await revoke(id)
    assert.deepEqual(await all(id), ['revoked', 'revoked', 'revoked'])
    clock.advance(1000 * HOUR)
    assert.deepEqual(await all(other!), ['valid', 'valid', 'valid'], 'no expiresAt never expires')
  })

  it('validUntil and JWT exp carry expiresAt, and the credential is never re-signed as status changes', async () => {
    const expiresAt = new Date(clock.now() + HOUR).toISOString()
    const id = await signedExpiringInAnHour()
    const { jwt } = await credentialOf(api, id)
    const claims = decodeJwt<{ vc: Json }>(jwt)
    assert.equal(claims.vc.validUntil, expiresAt.replace(/\.000Z$/, 'Z'))
    assert.equal(claims.exp, Date.parse(expiresAt) / 1000)
    clock.advance(2 * HOUR)
    await revoke(id)
    assert.equal((await credentialOf(api, id)).jwt, jwt)
    assert.equal(expectStatus(await verdictOf(api, id), 200).payload.jti, claims.jti)
  })
})

describe('isValid is a real verification of the stored JWT', () => {
  /** The stored JWT with one claim changed and the original signature kept. */
  function alterPayload(jwt: string, change: (claims: Json) => void): string {
    const [header, payload, signature] = jwt.split('.') as [string, string, string]
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString())
    change(claims)
    return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`
  }
  const store = (id: number, jwt: string) => {
    const { changes } = api.sql('UPDATE credentials SET jwt = ? WHERE issuance_id = ?', jwt, id)
    assert.equal(changes, 1)
  }

  it('a payload altered in storage (signature kept) gives isValid false while status is still computed', async () => {
    const id = await signedExpiringInAnHour()
    const { jwt } = await credentialOf(api, id)
    const honest = expectStatus(await verdictOf(api, id), 200)
    assert.equal(honest.isValid, true) // and now the verdict of this JWT is cached

    store(
      id,
      alterPayload(jwt, (claims) => (claims.vc.credentialSubject.achievement.name = 'Grandmaster norm')),
    )
    const forged = expectStatus(await verdictOf(api, id), 200)
    assert.equal(forged.statusCode, 200)
    assert.equal(forged.isValid, false)
    assert.equal(forged.status, 'valid')
    assert.equal(forged.payload.vc.credentialSubject.achievement.name, 'Grandmaster norm', 'the verdict shows what is stored')

    clock.advance(HOUR)
    assert.equal(expectStatus(await verdictOf(api, id), 200).status, 'expired')
    await revoke(id)
    const revoked = expectStatus(await verdictOf(api, id), 200)
    assert.deepEqual([revoked.isValid, revoked.status], [false, 'revoked'])

    store(id, jwt)
    assert.equal(expectStatus(await verdictOf(api, id), 200).isValid, true, 'the original JWT verifies again')
  })

  it('an altered signature, a kid naming no key, garbage, and another credential’s genuine JWT are all isValid false', async () => {
    const [a, b] = await issueTo(api, templateId, members(2))
    await api.issuer.worker.drain()
    const jwtA = (await credentialOf(api, a!)).jwt
    const jwtB = (await credentialOf(api, b!)).jwt
    const [header, payload, signature] = jwtA.split('.') as [string, string, string]
    const flipped = signature.slice(0, 10) + (signature[10] === 'A' ? 'B' : 'A') + signature.slice(11)
    const kid = decodeProtectedHeader(jwtA).kid!
    const otherKid = Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'JWT', kid: kid.replace(/#.*$/, '#no-such-key') })).toString('base64url')
    const cases: Record<string, string> = {
      'altered signature': `${header}.${payload}.${flipped}`,
      'kid naming no key': `${otherKid}.${payload}.${signature}`,
      'not a JWT': 'garbage',
      'the genuine JWT of another credential': jwtB,
    }
    for (const [what, jwt] of Object.entries(cases)) {
      store(a!, jwt)
      const verdict = expectStatus(await verdictOf(api, a!), 200, what)
      assert.equal(verdict.isValid, false, what)
      assert.equal(verdict.status, 'valid', what)
    }
  })

  it('another credential’s genuine JWT is isValid false even when that JWT was verified (and cached) before', async () => {
    const [a, b] = await issueTo(api, templateId, members(2))
    await api.issuer.worker.drain()
    const jwtA = (await credentialOf(api, a!)).jwt
    const jwtB = (await credentialOf(api, b!)).jwt
    for (const id of [a!, b!]) assert.equal(expectStatus(await verdictOf(api, id), 200).isValid, true)
    store(a!, jwtB) // a genuine signature, of the wrong credential
    assert.equal(expectStatus(await verdictOf(api, a!), 200).isValid, false)
    assert.equal(expectStatus(await verdictOf(api, b!), 200).isValid, true)
    store(a!, jwtA)
    assert.equal(expectStatus(await verdictOf(api, a!), 200).isValid, true)
  })

  it('a JWT whose kid names a rotated key still verifies, and the DID document lists both keys', async () => {
    const before = await signedExpiringInAnHour('before')
    const oldKid = decodeProtectedHeader((await credentialOf(api, before)).jwt).kid!
    const newKey = await api.issuer.keys.rotate(api.club)
    const after = await signedExpiringInAnHour('after')
    const jwtAfter = (await credentialOf(api, after)).jwt
    const newKid = decodeProtectedHeader(jwtAfter).kid!
    assert.notEqual(oldKid, newKid)
    assert.equal(newKid, `${api.did}#${newKey.kid}`, 'signed with the new key')

    for (const id of [before, after]) {
      const verdict = expectStatus(await verdictOf(api, id), 200)
      assert.deepEqual([verdict.isValid, verdict.status], [true, 'valid'])
    }

    const document = expectStatus(await api.get(paths.didDocument), 200, 'did.json')
    // The VC-JWT keys; the Data Integrity keys (Multikey) are test/core/did-documents/did-document.test.ts's.
    const jwtMethods = document.verificationMethod.filter((method: { type: string }) => method.type === 'JsonWebKey2020')
    assert.deepEqual(jwtMethods.map((method: { id: string }) => method.id).sort(), [oldKid, newKid].sort())
    assert.ok([oldKid, newKid].every((kid) => document.assertionMethod.includes(kid)))
    for (const method of jwtMethods) {
      assert.equal(method.type, 'JsonWebKey2020')
      assert.equal(method.controller, api.did)
      assert.deepEqual([method.publicKeyJwk.kty, method.publicKeyJwk.crv], ['EC', 'P-256'])
      assert.equal(method.publicKeyJwk.d, undefined, 'no private part')
    }
    await verifyWithDidDocument((await credentialOf(api, before)).jwt, document)
    await verifyWithDidDocument(jwtAfter, document)
  })
})

describe('the verdict payload (docs/api.md §2.11)', () => {
  it('is the decoded credential exactly as issued, also after the template changes', async () => {
    const id = await signedExpiringInAnHour()
    const { jwt, payload } = await credentialOf(api, id)
    const patched = await api.call('PATCH', `${paths.achievements}/${templateId}`, { description: 'A new description.', tag: ['changed'] })
    expectStatus(patched, 200, 'template patch')
    const verdict = expectStatus(await verdictOf(api, id), 200)
    assert.deepStrictEqual(verdict.payload, decodeJwt(jwt))
    assert.deepStrictEqual(verdict.payload, payload)
    assert.equal(verdict.payload.iss, api.did)
    const achievement = verdict.payload.vc.credentialSubject.achievement
    assert.equal(typeof achievement.achievementType, 'string')
    assert.equal(typeof achievement.criteria.narrative, 'string')
    assert.deepEqual(achievement.tag, ['chess', 'openings'])
    assert.ok(Array.isArray(achievement.alignment), 'alignment is there (empty when the template has none)')
    assert.equal(achievement.description, 'Studied the main openings.', 'the engraved description as issued')
  })
})

describe('unknown issuances', () => {
  const NOT_FOUND = { statusCode: 404, isValid: false, status: null, issuerVerified: false, payload: null }

  it('answer 404 with the verdict shape, whatever the id looks like', async () => {
    for (const id of ['999999', '0', '-1', 'abc', '1.5', '99999999999999999999']) {
      const response = await verdictOf(api, id)
      assert.equal(response.status, 404, id)
      assert.deepStrictEqual(response.body, NOT_FOUND, id)
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/)
    }
  })

  it('an issuance whose credential is not signed yet is 404 with the same body, then 200 once signed', async () => {
    await api.issuer.clubs.setVerified(api.club, true) // even so: nothing is said about what does not exist
    const [id] = await issueTo(api, templateId, members(1))
    const pending = await verdictOf(api, id!)
    assert.equal(pending.status, 404)
    assert.deepStrictEqual(pending.body, NOT_FOUND)
    await api.issuer.worker.drain()
    assert.equal((await verdictOf(api, id!)).status, 200)
  })
})

describe('issuerVerified', () => {
  it('follows clubs.setVerified, independently of isValid and status', async () => {
    const id = await signedExpiringInAnHour()
    const verdict = async () => {
      const body = expectStatus(await verdictOf(api, id), 200)
      return { isValid: body.isValid, issuerVerified: body.issuerVerified, status: body.status }
    }
    assert.deepEqual(await verdict(), { isValid: true, issuerVerified: false, status: 'valid' }, 'a valid signature from an unattested club')
    await api.issuer.clubs.setVerified(api.club, true)
    assert.deepEqual(await verdict(), { isValid: true, issuerVerified: true, status: 'valid' })

    const { jwt } = await credentialOf(api, id)
    api.sql('UPDATE credentials SET jwt = ? WHERE issuance_id = ?', jwt.slice(0, -4) + (jwt.endsWith('AAAA') ? 'BBBB' : 'AAAA'), id)
    assert.deepEqual(await verdict(), { isValid: false, issuerVerified: true, status: 'valid' }, 'an attested club, a broken signature')
    await revoke(id)
    assert.deepEqual(await verdict(), { isValid: false, issuerVerified: true, status: 'revoked' })
    await api.issuer.clubs.setVerified(api.club, false)
    assert.deepEqual(await verdict(), { isValid: false, issuerVerified: false, status: 'revoked' })
  })
})

describe('the verdict names no recipient', () => {
  it('neither the name nor the e-mail (nor its local part or the externalUserId) appears in the verdict JSON', async () => {
    const recipient = { externalUserId: 'ext-7731', name: 'Judit Polgar-Testname', email: 'judit.polgar.test@example.org' }
    const [id] = await issueTo(api, templateId, [recipient])
    await api.issuer.worker.drain()
    const response = await verdictOf(api, id!)
    assert.equal(response.status, 200)
    const text = response.text.toLowerCase()
    for (const needle of [recipient.name, 'Polgar', recipient.email, 'judit.polgar.test', 'example.org', recipient.externalUserId]) {
      assert.ok(!text.includes(needle.toLowerCase()), `the verdict contains ${needle}`)
    }
    // The recipient is there only as a salted hash.
    const identifier = response.body.payload.vc.credentialSubject.identifier[0]
    assert.equal(identifier.hashed, true)
    assert.match(identifier.identityHash, /^sha256\$[0-9a-f]{64}$/)
    // Still the same after revocation and with an attested club.
    await revoke(id!)
    await api.issuer.clubs.setVerified(api.club, true)
    const again = (await verdictOf(api, id!)).text.toLowerCase()
    assert.ok(!again.includes('polgar') && !again.includes('judit'))
  })
})
