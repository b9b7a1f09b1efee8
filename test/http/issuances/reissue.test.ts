import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { decodeJwt } from 'jose'
import { verifyCredential } from 'did-jwt-vc'
import { Resolver, type DIDResolutionResult, type ParsedDID } from 'did-resolver'
import { createTestClock, type TestClock } from '../../support/clock.ts'
import { openVerificationApi, type RawResponse, type VerificationApi } from '../../support/api-harness.ts'
import { assertSignedCredential } from '../../support/ob3-schema.ts'
import {
  clubPaths,
  createTemplate,
  credentialOf,
  detailOf,
  eventsOf,
  expectStatus,
  issueTo,
  members,
  statusEntryOf,
  verdictOf,
} from '../../support/verification-steps.ts'
import { fetchStatusList } from '../../support/verification-status-list.ts'
import type { Json } from '../../support/json.ts'

/**
 * Reissue (docs/api.md §4.17, docs/decisions/0046-reissue.md): a new version of the same credential
 * for the same recipient, a new issuance for another, the bulk renewal; each version verified by jose,
 * did-jwt-vc and 1EdTech's OB 3.0 JSON Schema, the status list decoded by Digital Bazaar's library.
 */

const paths = clubPaths()
const DAY = 86_400_000
const reissuePath = (id: number | string) => `${paths.issuance(id)}/reissue`

/** did:web over plain http on the test port (as test/http/public/verification-tools.test.ts). */
function localDidWeb() {
  const resolver = new Resolver({
    async web(did: string, parsed: ParsedDID): Promise<DIDResolutionResult> {
      const [host, ...path] = parsed.id.split(':').map(decodeURIComponent)
      const response = await fetch(`http://${host}/${path.join('/')}/did.json`)
      const didDocument = await response.json()
      return { didDocument, didDocumentMetadata: {}, didResolutionMetadata: { contentType: 'application/did+json' } }
    },
  })
  return resolver as unknown as Parameters<typeof verifyCredential>[1]
}

let api: VerificationApi
let clock: TestClock
let templateId: number
const keys = () => api.keys.publicKeys(`club:${api.club}`)
const reissue = (id: number | string, body?: unknown, headers: Record<string, string> = {}): Promise<RawResponse> =>
  api.call('POST', reissuePath(id), body, headers)
const drain = () => api.issuer.worker.drain()

async function signed(prefix = 'member'): Promise<{ id: number; email: string }> {
  const [recipient] = members(1, prefix)
  const [id] = await issueTo(api, templateId, [recipient!])
  await drain()
  return { id: id!, email: recipient!.email }
}

/** Every version of the issuance's credential as stored, newest first: the credential, then its earlier versions. */
async function storedVersions(issuanceId: number): Promise<{ jwt: string; version: number }[]> {
  const current = (await api.storage.credentials.findByIssuance(issuanceId))!
  const earlier = await api.storage.reissues.listEarlierVersions(current.id)
  return [{ jwt: current.jwt, version: earlier.length + 1 }, ...earlier]
}

beforeEach(async () => {
  clock = createTestClock()
  api = await openVerificationApi({ clock, listen: true })
  templateId = await createTemplate(api)
})
afterEach(async () => {
  await api.close()
})

describe('a reissue to the same recipient is a new version of the same credential', () => {
  it('same id and status entry, validFrom now, awardedDate the first validFrom; every version verifies with jose, did-jwt-vc and the OB 3.0 schema', async () => {
    const { id, email } = await signed()
    const first = await credentialOf(api, id)
    clock.advance(DAY)
    const expiresAt = clock.now() + 365 * DAY
    const detail = expectStatus(await reissue(id, { name: 'Kim Minjun', expiresAt: new Date(expiresAt).toISOString(), reason: 'typo in the name' }), 200).data
    assert.equal(detail.id, id, 'the issuance keeps its id')
    assert.equal(detail.recipient.name, 'Kim Minjun')
    assert.equal(detail.replaces, null)
    assert.equal(detail.replacedBy, null)
    assert.equal('reason' in detail, false, 'the reason is never shown')
    await drain()

    const second = await credentialOf(api, id)
    assert.equal(second.id, first.id, 'the credential keeps its id')
    assert.notEqual(second.jwt, first.jwt)
    const v2 = await assertSignedCredential(second.jwt, { keys: await keys(), email, expiresAt })
    const v1 = await assertSignedCredential(first.jwt, { keys: await keys(), email })
    assert.equal(v2.vc.id, v1.vc.id)
    assert.equal(v2.vc.validFrom, new Date(Math.floor(clock.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z'))
    assert.equal(v2.vc.awardedDate, v1.vc.validFrom, 'awardedDate is the first version’s validFrom')
    assert.equal('awardedDate' in v1.vc, false)
    assert.equal(v2.vc.credentialSubject.achievement.name, v1.vc.credentialSubject.achievement.name)
    assert.deepStrictEqual(statusEntryOf(second.jwt), statusEntryOf(first.jwt), 'the same status list entry')

    // Both versions stay stored; each verifies by signature with did-jwt-vc through the served DID document.
    const versions = await storedVersions(id)
    assert.deepStrictEqual(
      versions.map((version) => version.jwt),
      [second.jwt, first.jwt],
    )
    for (const { jwt } of versions) {
      const verified = await verifyCredential(jwt, localDidWeb(), { policies: { format: false, now: clock.now() / 1000 } })
      assert.equal(verified.verifiableCredential.id, `urn:uuid:${first.id}`)
    }

    const after = await detailOf(api, id)
    const sha = async (jwt: string) => Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(jwt))).toString('hex')
    assert.deepStrictEqual(after.versions, [
      { validFrom: v2.vc.validFrom, issuedAt: new Date(Date.parse(v2.vc.validFrom)).toISOString(), jwtSha256: await sha(second.jwt) },
      { validFrom: v1.vc.validFrom, issuedAt: new Date(Date.parse(v1.vc.validFrom)).toISOString(), jwtSha256: await sha(first.jwt) },
    ])
    assert.equal(after.credential.id, first.id)
    assert.equal(after.expiresAt, new Date(expiresAt).toISOString())

    // The public surfaces serve the newest version.
    assert.equal((await api.get(paths.jwt(first.id))).text, second.jwt)
    const verdict = expectStatus(await verdictOf(api, id), 200)
    assert.equal(verdict.isValid, true, 'the newest version verifies')
    assert.equal(verdict.status, 'valid')
    assert.equal(verdict.payload.nbf, Date.parse(v2.vc.validFrom) / 1000, 'the verdict is of the newest version')

    // issuance.reissued, then issuance.credential_issued once more.
    const reissued = await eventsOf(api, 'issuance.reissued')
    assert.deepStrictEqual(
      reissued.map((event) => event.subject),
      [{ type: 'issuance', id: String(id) }],
    )
    assert.equal('previousIssuanceId' in reissued[0]!, false, 'a version moved nowhere')
    const issued = await eventsOf(api, 'issuance.credential_issued')
    assert.equal(issued.length, 2)
    assert.ok(Number(issued[0]!.id) > Number(reissued[0]!.id), 'credential_issued after reissued')
  })

  it('a pending issuance takes the new values before it is signed: one credential, one version', async () => {
    const [recipient] = members(1)
    const [id] = await issueTo(api, templateId, [recipient!])
    expectStatus(await reissue(id!, { name: 'Corrected Name' }), 200)
    await drain()
    const { payload } = await credentialOf(api, id!)
    assert.equal('awardedDate' in payload.vc, false, 'a first credential has no awardedDate')
    assert.equal((await detailOf(api, id!)).versions.length, 1)
    assert.equal((await storedVersions(id!)).length, 1)
  })

  it('with an Idempotency-Key a repeat replays the answer and makes no second version', async () => {
    const { id } = await signed()
    const headers = { 'idempotency-key': 'renew-2026' }
    const first = await reissue(id, { expiresAt: new Date(clock.now() + 30 * DAY).toISOString() }, headers)
    const again = await reissue(id, { expiresAt: new Date(clock.now() + 30 * DAY).toISOString() }, headers)
    assert.equal(again.text, first.text)
    assert.equal(again.headers.get('idempotent-replayed'), 'true')
    await drain()
    assert.equal((await storedVersions(id)).length, 2)
    assert.equal((await eventsOf(api, 'issuance.reissued')).length, 1)
  })
})

describe('a reissue to another recipient re-routes the credential', () => {
  it('a new issuance and credential awarded on the old validFrom; the old one revoked with reason reissued, its bit set', async () => {
    const { id } = await signed()
    const old = await credentialOf(api, id)
    clock.advance(DAY)
    const moved = expectStatus(await reissue(id, { email: 'new.address@members.chess.example', mode: 'none' }), 200).data
    assert.notEqual(moved.id, id)
    assert.equal(moved.replaces, id)
    assert.equal(moved.status, 'pending')
    const before = await detailOf(api, id)
    assert.equal(before.status, 'revoked')
    assert.equal(before.revocationReason, 'reissued')
    assert.equal(before.replacedBy, moved.id)
    await drain()

    const fresh = await credentialOf(api, moved.id)
    assert.notEqual(fresh.id, old.id, 'another credential')
    const checked = await assertSignedCredential(fresh.jwt, { keys: await keys(), email: 'new.address@members.chess.example' })
    assert.equal(checked.vc.awardedDate, decodeJwt<{ vc: Json }>(old.jwt).vc.validFrom)

    const { list } = await fetchStatusList((url) => api.get(url), statusEntryOf(old.jwt).statusListCredential)
    assert.equal(list.getStatus(Number(statusEntryOf(old.jwt).statusListIndex)), true, 'the old credential is revoked')
    assert.equal(list.getStatus(Number(statusEntryOf(fresh.jwt).statusListIndex)), false, 'the new one is not')
    assert.deepStrictEqual(
      (await eventsOf(api, 'issuance.reissued')).map((event) => [event.subject.id, event.previousIssuanceId]),
      [[String(moved.id), String(id)]],
    )
    assert.deepStrictEqual(
      (await eventsOf(api, 'issuance.revoked')).map((event) => event.subject.id),
      [String(id)],
    )
  })
})

describe('what a reissue refuses changes nothing', () => {
  it('a revoked issuance: 409 issuance-revoked; another club’s or no issuance: 404; a bad body: 422', async () => {
    const { id } = await signed()
    expectStatus(await api.call('POST', paths.revoke(id), {}), 200)
    const revoked = await reissue(id, { name: 'X' })
    assert.equal(revoked.status, 409)
    assert.equal(revoked.body.code, 'issuance-revoked')
    assert.match(revoked.headers.get('content-type') ?? '', /application\/problem\+json/)
    assert.equal((await reissue(987654321, { name: 'X' })).body.code, 'issuance-not-found')
    const other = await signed('other')
    const bad = await reissue(other.id, { name: 'X', expiresAt: new Date(clock.now() - DAY).toISOString(), colour: 'red' })
    assert.equal(bad.status, 422)
    assert.equal(bad.body.code, 'validation-failed')
    const past = await reissue(other.id, { expiresAt: new Date(clock.now() - DAY).toISOString() })
    assert.equal(past.status, 422)
    assert.equal((await detailOf(api, other.id)).recipient.name, members(1, 'other')[0]!.name)
    assert.equal((await eventsOf(api, 'issuance.reissued')).length, 0)
    assert.equal(await api.storage.signingJobs.count(), 0)
  })
})

describe('bulk reissue renews many at once', () => {
  it('a result per id (reissued, skipped issuance-revoked, failed issuance-not-found) and a summary; each reissued one gets a version', async () => {
    const ids = await issueTo(api, templateId, members(3))
    await drain()
    expectStatus(await api.call('POST', paths.revoke(ids[2]!), {}), 200)
    const expiresAt = new Date(clock.now() + 365 * DAY).toISOString()
    const answer = expectStatus(await api.call('POST', `${paths.issuances}/reissue`, { issuanceIds: [ids[0], ids[1], ids[2], 123456789], expiresAt }), 200)
    assert.deepStrictEqual(answer.summary, { total: 4, ok: 2, skipped: 1, failed: 1 })
    assert.deepStrictEqual(
      answer.results.map((item: Json) => [item.ref, item.status, item.error?.code ?? null]),
      [
        [String(ids[0]), 'reissued', null],
        [String(ids[1]), 'reissued', null],
        [String(ids[2]), 'skipped', 'issuance-revoked'],
        ['123456789', 'failed', 'issuance-not-found'],
      ],
    )
    await drain()
    for (const id of ids.slice(0, 2)) {
      assert.equal((await detailOf(api, id)).versions.length, 2)
      assert.equal((await credentialOf(api, id)).payload.vc.validUntil, expiresAt.replace('.000Z', 'Z'))
    }
    const tooMany = await api.call('POST', `${paths.issuances}/reissue`, { issuanceIds: Array.from({ length: 1001 }, (_, i) => i + 1) })
    assert.equal(tooMany.status, 422)
    assert.equal(tooMany.body.errors[0].message, 'too-many-issuances')
  })
})
