/**
 * The signed credential (docs/decisions/0014-signed-credential.md) as issuing produces it: an ES256 VC-JWT
 * whose `vc` is a valid OB 3.0 OpenBadgeCredential, with the recipient hashed, only public evidence
 * engraved and a status list entry.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { decodeProtectedHeader } from 'jose'
import { openApi, type Api } from '../../support/api-harness.ts'
import { createTestClock } from '../../support/clock.ts'
import { assertSignedCredential, assertValidOb3 } from '../../support/ob3-schema.ts'
import type { Json } from '../../support/json.ts'

const ISSUANCES = '/v2/clubs/chess/issuances'

let api: Api
let templateId: number
const keys = () => api.keys.publicKeys('club:chess')

async function issue(body: Record<string, unknown>): Promise<number[]> {
  const response = await api.call('POST', ISSUANCES, { achievementFormId: templateId, ...body })
  assert.equal(response.status, 200, JSON.stringify(response.body))
  assert.equal(response.body.summary.failed, 0, JSON.stringify(response.body))
  return response.body.results.map((item: { resourceId: number }) => item.resourceId)
}

async function credentialOf(id: number): Promise<{ id: string; jwt: string; payload: Json }> {
  const response = await api.call('GET', `${ISSUANCES}/${id}/credential`)
  assert.equal(response.status, 200, JSON.stringify(response.body))
  return response.body.data
}

before(async () => {
  api = await openApi({ clock: createTestClock() })
  const created = await api.call('POST', '/v2/clubs/chess/achievements', {
    name: 'Endgame study',
    description: 'Studied rook endgames.',
    tag: ['endgames', 'rooks'],
    criteria: { requirements: [{ description: 'Solve 50 studies', url: 'https://chess.example/studies' }] },
  })
  assert.equal(created.status, 201)
  templateId = created.body.data.id
})
after(async () => {
  await api.close()
})

describe('the signed credential (docs/decisions/0014-signed-credential.md)', () => {
  it('is an ES256 VC-JWT over a valid OB 3.0 credential, verifiable with the club key its kid names', async () => {
    const [id] = await issue({ recipients: [{ externalUserId: 'plain', name: 'Kim Minsu', email: 'minsu@chess.example' }] })
    await api.issuer.worker.drain()
    const credential = await credentialOf(id!)
    const checked = await assertSignedCredential(credential.jwt, { keys: await keys(), email: 'minsu@chess.example' })
    assert.equal(checked.vc.id, `urn:uuid:${credential.id}`, 'the credential id is the one inside the credential')
    // A version 7 UUID (core/credentials/credential-id.ts) whose milliseconds are the signing's, to the second of nbf.
    assert.match(credential.id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    assert.equal(Math.floor(parseInt(credential.id.replace(/-/g, '').slice(0, 12), 16) / 1000), checked.payload.nbf)
    assert.deepStrictEqual(credential.payload, checked.payload, 'payload is the decoding of the JWT')
    assert.equal(checked.header.kid, `${checked.payload.iss}#${(await keys())[0]!.kid}`)
    assert.equal(checked.payload.iss, 'did:web:localhost%3A8787:open-badges:v3:issuers:chess')
  })

  it('hashes the lower-cased address with a fresh salt per credential, and never shows the address', async () => {
    const ids = await issue({
      recipients: [
        { externalUserId: 'case-1', name: 'Lee Jiwoo', email: 'Jiwoo.Lee@Chess.Example' },
        { externalUserId: 'case-2', name: 'Lee Jiwoo', email: 'jiwoo.lee@other.example' },
      ],
    })
    await api.issuer.worker.drain()
    const first = await assertSignedCredential((await credentialOf(ids[0]!)).jwt, { keys: await keys(), email: 'Jiwoo.Lee@Chess.Example' })
    const second = await assertSignedCredential((await credentialOf(ids[1]!)).jwt, { keys: await keys(), email: 'jiwoo.lee@other.example' })
    const [a, b] = [first.vc.credentialSubject.identifier[0], second.vc.credentialSubject.identifier[0]]
    assert.notEqual(a.salt, b.salt, 'each credential has its own salt')
    assert.notEqual(a.identityHash, b.identityHash)
  })

  it('engraves only public evidence', async () => {
    const [id] = await issue({
      recipients: [
        {
          externalUserId: 'evidence',
          name: 'Park Seoyeon',
          email: 'seoyeon@chess.example',
          evidences: [
            { url: 'https://chess.example/games/1', name: 'Final game', description: 'Won with the rook', isPublic: true },
            { url: 'https://private.example/medical-note', name: 'Private note', description: 'Not for the world', isPublic: false },
            { url: 'https://chess.example/games/2', isPublic: true },
          ],
        },
      ],
    })
    await api.issuer.worker.drain()
    await assertSignedCredential((await credentialOf(id!)).jwt, {
      keys: await keys(),
      email: 'seoyeon@chess.example',
      evidence: [
        { id: 'https://chess.example/games/1', type: ['Evidence'], name: 'Final game', description: 'Won with the rook' },
        { id: 'https://chess.example/games/2', type: ['Evidence'] },
      ],
      absent: ['private.example', 'Private note', 'Not for the world'],
    })
    const detail = await api.call('GET', `${ISSUANCES}/${id}`)
    assert.deepStrictEqual(
      detail.body.data.evidences.map((evidence: { isPublic: boolean }) => evidence.isPublic),
      [true, false, true],
      'the detail keeps every evidence with its isPublic',
    )
  })

  it('turns expiresAt into validUntil and exp, per recipient over the request, in whole seconds', async () => {
    const ids = await issue({
      expiresAt: '2031-01-01T00:00:00.000Z',
      recipients: [
        { externalUserId: 'expires-request', name: 'Choi Yuna', email: 'yuna@chess.example' },
        { externalUserId: 'expires-own', name: 'Jung Hoon', email: 'hoon@chess.example', expiresAt: '2032-06-30T12:00:00.250Z' },
      ],
    })
    await api.issuer.worker.drain()
    const request = await assertSignedCredential((await credentialOf(ids[0]!)).jwt, {
      keys: await keys(),
      email: 'yuna@chess.example',
      expiresAt: Date.parse('2031-01-01T00:00:00.000Z'),
    })
    assert.equal(request.vc.validUntil, '2031-01-01T00:00:00Z')
    const own = await assertSignedCredential((await credentialOf(ids[1]!)).jwt, {
      keys: await keys(),
      email: 'hoon@chess.example',
      expiresAt: Date.parse('2032-06-30T12:00:00.250Z'),
    })
    assert.equal(own.vc.validUntil, '2032-06-30T12:00:01Z', 'a fraction of a second rounds up, never earlier than asked')
  })

  it('gives every credential its own status list index', async () => {
    const recipients = Array.from({ length: 40 }, (_, i) => ({ externalUserId: `slot-${i}`, name: `Member ${i}`, email: `slot${i}@chess.example` }))
    const ids = await issue({ recipients })
    await api.issuer.worker.drain()
    const indexes = new Set<number>()
    for (const [i, id] of ids.entries()) {
      const checked = await assertSignedCredential((await credentialOf(id)).jwt, { keys: await keys(), email: recipients[i]!.email })
      indexes.add(checked.statusListIndex)
    }
    assert.equal(indexes.size, 40)
  })

  it('after a key rotation new credentials name the new key and old ones still verify', async () => {
    const [before] = await issue({ recipients: [{ externalUserId: 'rotate-1', name: 'Han Sol', email: 'sol@chess.example' }] })
    await api.issuer.worker.drain()
    const rotated = await api.issuer.keys.rotate('chess')
    const [afterwards] = await issue({ recipients: [{ externalUserId: 'rotate-2', name: 'Han Byul', email: 'byul@chess.example' }] })
    await api.issuer.worker.drain()
    const old = await assertSignedCredential((await credentialOf(before!)).jwt, { keys: await keys(), email: 'sol@chess.example' })
    const fresh = await assertSignedCredential((await credentialOf(afterwards!)).jwt, { keys: await keys(), email: 'byul@chess.example' })
    assert.notEqual(old.header.kid, fresh.header.kid)
    assert.ok(String(fresh.header.kid).endsWith(`#${rotated.kid}`))
  })
})

describe('the OB 3.0 schema check', () => {
  it('rejects a credential without credentialSubject.achievement, naming the error', async () => {
    const [id] = await issue({ recipients: [{ externalUserId: 'schema', name: 'Oh Dami', email: 'dami@chess.example' }] })
    await api.issuer.worker.drain()
    const { payload } = await credentialOf(id!)
    assertValidOb3(payload.vc)
    const broken = structuredClone(payload.vc)
    delete broken.credentialSubject.achievement
    assert.throws(() => assertValidOb3(broken), /achievement/)
    assert.throws(() => assertValidOb3({ ...payload.vc, type: ['VerifiableCredential'] }), /type/)
  })

  it('rejects a JWT signed by another key', async () => {
    const [id] = await issue({ recipients: [{ externalUserId: 'other-key', name: 'Yoon Ara', email: 'ara@chess.example' }] })
    await api.issuer.worker.drain()
    const { jwt } = await credentialOf(id!)
    const kid = String(decodeProtectedHeader(jwt).kid).split('#')[1]!
    const stranger = await api.keys.activeKey('club:stranger')
    await assert.rejects(
      assertSignedCredential(jwt, { keys: [{ kid, publicJwk: stranger.publicJwk }], email: 'ara@chess.example' }),
      /signature verification failed/,
    )
  })
})
