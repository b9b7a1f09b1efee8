/**
 * `@digitalcredentials/verifier-core`, the verifier of VerifierPlus and the Learner Credential Wallet,
 * verifies clubcred's JSON-LD credentials through the product's own URLs, offline
 * (test/support/verifier-core.ts; docs/data-integrity.md § Verification in the tests): the product over
 * https on loopback, the club's did:web resolved from it, the status list read from it in its JSON-LD
 * form. The credentials are issued through the API; their JSON-LD form is the `vc` of their JWT signed
 * with the club's Ed25519 key from the product's key store, as the DID document lists it.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { CredentialObject } from '../../../core/credentials/sign-data-integrity.ts'
import { openVerificationApi, type VerificationApi } from '../../support/api-harness.ts'
import { createTestClock } from '../../support/clock.ts'
import { clubPaths, createTemplate, credentialOf, expectStatus, issueTo, members } from '../../support/verification-steps.ts'
import { logEntry, selfSignedCertificate, verifyWithVerifierCore, type TestCertificate, type VerifierCoreRun } from '../../support/verifier-core.ts'
import type { Json } from '../../support/json.ts'

const DAY = 86_400_000

let api: VerificationApi
let certificate: TestCertificate
/** The JSON-LD form of each credential issued below, by name, and its issuance id. */
const secured = new Map<string, CredentialObject>()
const issuances = new Map<string, number>()

async function issueSecured(name: string, extra: Record<string, unknown> = {}): Promise<void> {
  const [id] = await issueTo(api, await createTemplate(api, { name: `Badge ${name}` }), members(1, name.replaceAll(' ', '-')), extra)
  await api.issuer.worker.drain()
  // The JSON-LD form as the product serves it: the worker's stored proof, from the credential's own address.
  const served = await api.get(`/open-badges/v3/credentials/${(await credentialOf(api, id!)).id}`, { accept: 'application/ld+json' })
  assert.equal(served.status, 200, served.text)
  secured.set(name, served.body as CredentialObject)
  issuances.set(name, id!)
}

const verify = (credential: unknown) => verifyWithVerifierCore({ credential, origin: api.origin, certificate })

/** Asserts that verifier-core fetched only the product and local copies, and returns what it fetched from the product. */
function productRequests(run: VerifierCoreRun): VerifierCoreRun['requests'] {
  assert.deepStrictEqual(
    run.requests.filter((request) => request.answeredBy === 'refused'),
    [],
    'verifier-core asked for nothing beyond the product and the local copies',
  )
  return run.requests.filter((request) => request.answeredBy === 'product')
}

before(async () => {
  certificate = selfSignedCertificate()
  // The clock starts three days back, so that a credential can be issued that has expired by now.
  const clock = createTestClock(Math.floor((Date.now() - 3 * DAY) / 1000) * 1000)
  api = await openVerificationApi({ tls: certificate, clock, proofs: true })
  await issueSecured('expired', { expiresAt: new Date(clock.now() + DAY).toISOString() })
  clock.set(Math.floor(Date.now() / 1000) * 1000)
  await issueSecured('plain')
  await issueSecured('revoked')
  await issueSecured('with an expiry', { expiresAt: new Date(clock.now() + 365 * DAY).toISOString() })
})
after(async () => {
  await api?.close()
  certificate?.remove()
})

describe('verifier-core verifies through the product, offline', () => {
  it('a credential issued here: signature valid, not expired, not revoked, read through the did:web and the JSON-LD status list served here', async () => {
    const run = await verify(secured.get('plain'))
    const { result } = run
    assert.equal(result.errors, undefined, JSON.stringify(result.errors))
    // The schema the credential names (1EdTech's OB 3.0 AchievementCredential schema, a local copy here).
    assert.deepStrictEqual(result.additionalInformation?.find((entry) => entry.id === 'schema_check')?.results, [
      {
        schema: 'https://purl.imsglobal.org/spec/ob/v3p0/schema/json/ob_v3p0_achievementcredential_schema.json',
        result: { valid: true },
        source: 'Schema was listed in the credentialSchema property of the VC',
      },
    ])
    assert.deepStrictEqual(
      ['valid_signature', 'expiration', 'revocation_status'].map((id) => [id, logEntry(result, id)?.valid]),
      [
        ['valid_signature', true],
        ['expiration', true],
        ['revocation_status', true],
      ],
    )
    // No registry is consulted offline: the issuer is reported as in none, and none is left unchecked.
    assert.deepStrictEqual(logEntry(result, 'registered_issuer'), { id: 'registered_issuer', valid: false, matchingIssuers: [], uncheckedRegistries: [] })

    const fromProduct = productRequests(run)
    const paths = clubPaths(api.club)
    assert.ok(
      fromProduct.some((request) => request.url === api.origin + paths.didDocument && request.status === 200),
      'the did:web document',
    )
    const list = fromProduct.find((request) => request.url === api.origin + paths.statusList)
    assert.deepStrictEqual(list, {
      url: api.origin + paths.statusList,
      accept: 'application/ld+json, application/json',
      answeredBy: 'product',
      status: 200,
      contentType: 'application/ld+json',
    })
  })

  it('a credential with a future validUntil is not expired; one whose validUntil has passed is reported expired, its signature still valid', async () => {
    const future = (await verify(secured.get('with an expiry'))).result
    assert.equal(logEntry(future, 'expiration')?.valid, true)
    assert.equal(logEntry(future, 'valid_signature')?.valid, true)
    const credential = secured.get('expired')!
    assert.ok(Date.parse(String(credential.validUntil)) < Date.now(), 'validUntil is past')
    const expired = (await verify(credential)).result
    assert.equal(logEntry(expired, 'expiration')?.valid, false, JSON.stringify(expired.log))
    assert.equal(logEntry(expired, 'valid_signature')?.valid, true)
    assert.equal(logEntry(expired, 'revocation_status')?.valid, true)
  })

  it('a credential revoked through the API is reported revoked, its signature still valid', async () => {
    const credential = secured.get('revoked')!
    assert.equal(logEntry((await verify(credential)).result, 'revocation_status')?.valid, true, 'valid before')
    expectStatus(await api.call('POST', clubPaths(api.club).revoke(issuances.get('revoked')!)), 200, 'revoke')
    const { result } = await verify(credential)
    assert.equal(logEntry(result, 'revocation_status')?.valid, false, JSON.stringify(result.log))
    assert.equal(logEntry(result, 'valid_signature')?.valid, true)
    assert.equal(logEntry((await verify(secured.get('plain'))).result, 'revocation_status')?.valid, true, 'another credential stays valid')
  })

  it('a tampered copy is refused: its signature is not valid', async () => {
    const tampered: Json = structuredClone(secured.get('plain'))
    tampered.credentialSubject.achievement.name = 'Grandmaster'
    const { result } = await verify(tampered)
    assert.deepStrictEqual(
      result.errors?.map((error) => error.name),
      ['invalid_signature'],
      JSON.stringify(result),
    )
    assert.equal(result.log, undefined, 'no step is reported without a valid signature')
  })

  it('an unsigned presentation of the credential: the credential verifies inside it', async () => {
    const presentation = {
      '@context': ['https://www.w3.org/ns/credentials/v2'],
      type: ['VerifiablePresentation'],
      verifiableCredential: [secured.get('plain')],
    }
    const { result } = await verifyWithVerifierCore<{
      presentationResult: { signature: string }
      credentialResults: { log: { id: string; valid: boolean }[] }[]
    }>({
      presentation,
      unsignedPresentation: true,
      origin: api.origin,
      certificate,
    })
    assert.equal(result.presentationResult.signature, 'unsigned')
    const log = result.credentialResults[0]!.log
    assert.deepStrictEqual(
      ['valid_signature', 'revocation_status'].map((id) => log.find((entry) => entry.id === id)?.valid),
      [true, true],
    )
  })
})
