/**
 * DCC's `@digitalcredentials/verifier-core` verifies each version of a reissued credential in its JSON-LD
 * form (docs/decisions/0046-reissue.md), through the product's own URLs, offline, as
 * test/http/public/verifier-core.test.ts does for a first credential: the newest version as the product serves
 * it, `awardedDate` included, and the earlier one as stored with its proof.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { jsonLdFormOf } from '../../../core/credentials/json-ld-form.ts'
import { openVerificationApi, type VerificationApi } from '../../support/api-harness.ts'
import { createTestClock } from '../../support/clock.ts'
import { assertValidOb3 } from '../../support/ob3-schema.ts'
import { clubPaths, createTemplate, credentialOf, expectStatus, issueTo, members } from '../../support/verification-steps.ts'
import { logEntry, selfSignedCertificate, verifyWithVerifierCore, type TestCertificate } from '../../support/verifier-core.ts'
import type { Json } from '../../support/json.ts'

const DAY = 86_400_000

let api: VerificationApi
let certificate: TestCertificate
let newest: Json
let earlier: Json

before(async () => {
  certificate = selfSignedCertificate()
  const clock = createTestClock(Math.floor((Date.now() - 2 * DAY) / 1000) * 1000)
  api = await openVerificationApi({ tls: certificate, clock, proofs: true })
  const [id] = await issueTo(api, await createTemplate(api, { name: 'Yearly membership' }), members(1))
  await api.issuer.worker.drain()
  clock.set(Math.floor(Date.now() / 1000) * 1000)
  const expiresAt = new Date(clock.now() + 365 * DAY).toISOString()
  expectStatus(await api.call('POST', `${clubPaths(api.club).issuance(id!)}/reissue`, { expiresAt }), 200, 'reissue')
  await api.issuer.worker.drain()
  const served = await api.get(`/open-badges/v3/credentials/${(await credentialOf(api, id!)).id}`, { accept: 'application/ld+json' })
  assert.equal(served.status, 200, served.text)
  newest = served.body
  const [first] = await api.storage.reissues.listEarlierVersions(newest.id.replace('urn:uuid:', ''))
  const form = jsonLdFormOf(first!)
  assert.equal(form.state, 'ready', 'the earlier version keeps its proof')
  earlier = form.state === 'ready' ? form.credential : null
})
after(async () => {
  await api?.close()
  certificate?.remove()
})

const verify = (credential: unknown) => verifyWithVerifierCore({ credential, origin: api.origin, certificate })

describe('verifier-core verifies every version of a reissued credential', () => {
  it('the newest version, awardedDate the first validFrom: signature valid, not expired, not revoked, valid OB 3.0', async () => {
    assert.equal(newest.awardedDate, earlier.validFrom)
    assert.equal(newest.id, earlier.id, 'one credential id for both versions')
    assertValidOb3(newest)
    const { result } = await verify(newest)
    assert.equal(result.errors, undefined, JSON.stringify(result.errors))
    assert.deepStrictEqual(
      ['valid_signature', 'expiration', 'revocation_status'].map((id) => [id, logEntry(result, id)?.valid]),
      [
        ['valid_signature', true],
        ['expiration', true],
        ['revocation_status', true],
      ],
    )
  })

  it('the earlier version, stored unchanged, still verifies by signature', async () => {
    const { result } = await verify(earlier)
    assert.equal(result.errors, undefined, JSON.stringify(result.errors))
    assert.equal(logEntry(result, 'valid_signature')?.valid, true)
  })

  it('a copy of the newest version with awardedDate altered is refused', async () => {
    const tampered = { ...structuredClone(newest), awardedDate: '2001-01-01T00:00:00Z' }
    const { result } = await verify(tampered)
    assert.deepStrictEqual(
      result.errors?.map((error) => error.name),
      ['invalid_signature'],
    )
  })
})
