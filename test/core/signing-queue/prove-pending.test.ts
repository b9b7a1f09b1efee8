/**
 * The proof round (docs/data-integrity.md § Signing): after its JWT, every credential gets its Data
 * Integrity proof in the background, stored once; its JSON-LD form is the JWT's credential with that
 * proof, verified by Digital Bazaar's VC library through the club's did:web document served here.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { decodeJwt } from 'jose'
import { createDataIntegritySigner } from '../../../adapters/node/data-integrity-signer.ts'
import { jsonLdFormOf } from '../../../core/credentials/json-ld-form.ts'
import { clubDataIntegrityKeyOwner } from '../../../core/did-documents/did.ts'
import { signPendingCredentials } from '../../../core/signing-queue/sign-pending.ts'
import { provePendingCredentials } from '../../../core/signing-queue/prove-pending.ts'
import { openVerificationApi, type VerificationApi } from '../../support/api-harness.ts'
import { createCoreHarness, MASTER_KEY } from '../../support/core-issuer.ts'
import { createKeyStore } from '../../../core/keys/create-key-store.ts'
import { verifyDataIntegrity } from '../../support/data-integrity-verifier.ts'
import { assertValidOb3 } from '../../support/ob3-schema.ts'
import { createTemplate, credentialOf, issueTo, members } from '../../support/verification-steps.ts'
import { recipients } from '../../support/issuance-api.ts'
import type { StoragePort } from '../../../core/ports/storage.ts'
import type { CredentialRecord } from '../../../core/credentials/credential-record.ts'
import type { JwtSigner } from '../../../core/ports/signer.ts'
import { webCryptoSigner } from '../../../core/credentials/webcrypto-signer.ts'
import { noMetrics } from '../../../core/ports/metrics.ts'

/** The credentials whose proof is still to be made, by a claim whose lease ended long ago: any round takes them again. */
async function unproven(storage: StoragePort): Promise<CredentialRecord[]> {
  const claimed = await storage.transaction((tx) => tx.credentials.claimUnproven(0, 1, 100), { concurrent: true })
  return claimed.map(({ credential }) => credential)
}

describe('the proof round', () => {
  let api: VerificationApi
  before(async () => {
    api = await openVerificationApi({ listen: true, proofs: true })
  })
  after(() => api.close())

  it('gives every credential a proof after its JWT; the JSON-LD form is the JWT credential with it, valid under OB 3.0 JSON Schema, and verifies', async () => {
    const ids = await issueTo(api, await createTemplate(api, { name: '체스 입문' }), members(3, 'proved'))
    await api.issuer.worker.drain()
    for (const id of ids) {
      const { id: credentialId, jwt } = await credentialOf(api, id)
      const record = (await api.storage.credentials.findById(credentialId))!
      const form = jsonLdFormOf(record)
      assert.equal(form.state, 'ready')
      if (form.state !== 'ready') continue
      const { proof, ...credential } = form.credential
      assert.deepStrictEqual(credential, decodeJwt(jwt).vc, 'the credential of the JWT, member for member')
      assert.equal((proof as { cryptosuite: string }[])[0]!.cryptosuite, 'eddsa-rdfc-2022')
      assertValidOb3(form.credential)
      const result = await verifyDataIntegrity(form.credential, (url) => api.get(url))
      assert.equal(result.verified, true, JSON.stringify(result, null, 2))
    }
    assert.deepStrictEqual(await unproven(api.storage), [])
  })

  it('engraves a partner without a url without an id, never `"id": null`, and proves its credential, which verifies (@see docs/decisions/0051-one-csv-path-and-no-null-id.md)', async () => {
    const templateId = await createTemplate(api, { name: '바둑 입문' })
    const template = (await api.storage.achievements.findById(api.club, templateId))!
    const coIssuers = [{ name: '이름만 있는 협력 기관', url: null, isVerified: false }]
    await api.storage.transaction((tx) => tx.achievements.update({ ...template, coIssuers }))
    const [id] = await issueTo(api, templateId, members(1, 'partner'))
    await api.issuer.worker.drain()
    const { id: credentialId, jwt } = await credentialOf(api, id!)
    assert.ok(!JSON.stringify(decodeJwt(jwt)).includes('"id":null'), 'no null id in the JWT')
    const partners = (decodeJwt(jwt).vc as { credentialSubject: { achievement: Record<string, unknown> } }).credentialSubject.achievement[
      'x-partnerOrganizations'
    ]
    assert.deepStrictEqual((partners as unknown[])[1], { name: '이름만 있는 협력 기관', url: null, role: 'partner', isVerified: false })
    const form = jsonLdFormOf((await api.storage.credentials.findById(credentialId))!)
    assert.equal(form.state, 'ready')
    if (form.state !== 'ready') return
    assertValidOb3(form.credential)
    const result = await verifyDataIntegrity(form.credential, (url) => api.get(url))
    assert.equal(result.verified, true, JSON.stringify(result, null, 2))
  })
})

describe('a credential signed with `"id": null`, which JSON-LD refuses (@see docs/decisions/0051-one-csv-path-and-no-null-id.md)', () => {
  it("is settled without a proof (JSON-LD form none), counted, and never tried again; its club's others are proved", async () => {
    // An older clubcred's engraving: a partner without a url carried `"id": null` in the signed JWT.
    const olderEngraving: JwtSigner = {
      signMany: (key, header, payloads) =>
        webCryptoSigner.signMany(
          key,
          header,
          payloads.map((payload, i) => {
            if (i > 0) return payload
            const claims = JSON.parse(payload) as { vc: { credentialSubject: { achievement: Record<string, unknown[]> } } }
            claims.vc.credentialSubject.achievement['x-partnerOrganizations']!.push({ id: null, name: 'P', url: null, role: 'partner', isVerified: false })
            return JSON.stringify(claims)
          }),
        ),
    }
    let withoutProof = 0
    const harness = createCoreHarness({
      signer: olderEngraving,
      dataIntegritySigner: createDataIntegritySigner({ threads: 0 }),
      metrics: { ...noMetrics, credentialsWithoutProof: (count) => void (withoutProof += count) },
    })
    try {
      await harness.issuer.clubs.create({ domain: 'chess', name: 'Chess' })
      const template = await harness.issuer.achievements.create('chess', { name: 'Opening', description: 'Studied the main openings.' })
      await harness.issuer.issuances.issue('chess', { achievementFormId: template.id, recipients: recipients(3) })
      assert.equal(await signPendingCredentials(harness.context), 3)
      const { data } = await harness.issuer.issuances.list('chess')
      const records = await Promise.all(data.map(async ({ credentialId }) => (await harness.storage.credentials.findById(credentialId!))!))
      const refused = records.filter((record) => JSON.stringify(decodeJwt(record.jwt)).includes('"id":null'))
      assert.equal(refused.length, 1, 'one credential engraves a null id')

      assert.equal(await provePendingCredentials(harness.context, 10), 3)
      const states = async () =>
        Promise.all(records.map(async ({ id }) => [id === refused[0]!.id, jsonLdFormOf((await harness.storage.credentials.findById(id))!).state]))
      assert.deepStrictEqual((await states()).sort(), [
        [false, 'ready'],
        [false, 'ready'],
        [true, 'none'],
      ])
      assert.equal(withoutProof, 1)
      assert.equal((await harness.storage.credentials.findById(refused[0]!.id))!.jwt, refused[0]!.jwt, 'its JWT never changes')
      harness.clock.advance(10 * 60 * 1000)
      assert.equal(await provePendingCredentials(harness.context, 10), 0, 'never claimed again, back-off or not')
      assert.deepStrictEqual(await unproven(harness.storage), [])
      assert.deepStrictEqual(await harness.issuer.verification.credentialForms(refused[0]!.id), { jwt: refused[0]!.jwt, jsonLd: { state: 'none' } })
    } finally {
      await harness.close()
    }
  })
})

describe('without a Data Integrity signer', () => {
  it('credentials have their JWT and their JSON-LD form is pending; wired later, the proofs are made', async () => {
    const harness = createCoreHarness()
    try {
      await harness.issuer.clubs.create({ domain: 'chess', name: 'Chess' })
      const template = await harness.issuer.achievements.create('chess', { name: 'Opening', description: 'Studied the main openings.' })
      await harness.issuer.issuances.issue('chess', { achievementFormId: template.id, recipients: recipients(1) })
      await harness.issuer.worker.drain()
      const [record] = await unproven(harness.storage)
      assert.ok(record, 'the credential is stored, its proof to make')
      assert.deepStrictEqual(jsonLdFormOf(record), { state: 'pending' })
      assert.equal(await provePendingCredentials(harness.context, 10), 0, 'no signer, no proof')

      const proving = { ...harness.context, dataIntegritySigner: createDataIntegritySigner() }
      assert.equal(await provePendingCredentials(proving, 10), 1)
      assert.equal(jsonLdFormOf((await harness.storage.credentials.findById(record.id))!).state, 'ready')
    } finally {
      await harness.close()
    }
  })
})

describe('the Ed25519 key', () => {
  it('is made by the signing round, before the proof that names it', async () => {
    const harness = createCoreHarness({ dataIntegritySigner: createDataIntegritySigner() })
    try {
      await harness.issuer.clubs.create({ domain: 'chess', name: 'Chess' })
      const template = await harness.issuer.achievements.create('chess', { name: 'Opening', description: 'Studied the main openings.' })
      await harness.issuer.issuances.issue('chess', { achievementFormId: template.id, recipients: recipients(1) })
      assert.deepStrictEqual(await harness.storage.keys.listByOwner(clubDataIntegrityKeyOwner('chess')), [], 'no key before')
      assert.equal(await signPendingCredentials(harness.context), 1)
      const [key] = await harness.storage.keys.listByOwner(clubDataIntegrityKeyOwner('chess'))
      assert.ok(key, 'the JWT round made it')
      const [toProve] = await unproven(harness.storage)
      assert.ok(toProve, 'its proof is still to make')
      await provePendingCredentials(harness.context, 10)
      const stored = (await harness.storage.credentials.findById(toProve.id))!.proof
      assert.ok(stored.state === 'made', 'its proof is made')
      const proof = JSON.parse(stored.json) as { verificationMethod: string }
      assert.ok(proof.verificationMethod.endsWith(`#${key.kid}`), proof.verificationMethod)
    } finally {
      await harness.close()
    }
  })
})

describe('a club whose proofs fail', () => {
  it("does not hold up another club's: its credentials are put back with back-off, and proved once its key opens", async () => {
    const signer = createDataIntegritySigner({ threads: 0 })
    const harness = createCoreHarness({ dataIntegritySigner: signer })
    try {
      for (const domain of ['chess', 'go']) {
        await harness.issuer.clubs.create({ domain, name: domain })
        const template = await harness.issuer.achievements.create(domain, { name: 'Opening', description: 'Studied the main openings.' })
        // Chess first and twice: its credentials are the oldest, at the head of the proof queue.
        await harness.issuer.issuances.issue(domain, { achievementFormId: template.id, recipients: recipients(domain === 'chess' ? 2 : 1) })
      }
      assert.equal(await signPendingCredentials(harness.context), 3)
      // The chess club's Ed25519 key swapped for another key's sealed material, as a key that does not
      // open; read by a process that has not opened it yet (its own key store).
      const owner = clubDataIntegrityKeyOwner('chess')
      const spare = await harness.storage.keys.findByKid((await harness.keys.activeKey('club-ed25519:spare')).kid)
      await harness.storage.transaction(async (tx) => {
        await tx.keys.deactivateAll(owner)
        await tx.keys.insert({ ...spare!, kid: 'moved', owner, active: true })
      })
      const fresh = () => ({ ...harness.context, keys: createKeyStore({ storage: harness.storage, masterKey: MASTER_KEY, clock: harness.clock }) })

      assert.equal(await provePendingCredentials(fresh(), 2), 2, 'the two chess credentials, which fail')
      assert.equal(await provePendingCredentials(fresh(), 2), 1, 'the go credential, behind them')
      const states = async (domain: string) => {
        const { data } = await harness.issuer.issuances.list(domain)
        return Promise.all(data.map(async ({ credentialId }) => jsonLdFormOf((await harness.storage.credentials.findById(credentialId!))!).state))
      }
      assert.deepStrictEqual(await states('go'), ['ready'])
      assert.deepStrictEqual(await states('chess'), ['pending', 'pending'])
      assert.equal(await provePendingCredentials(fresh(), 10), 0, 'not retried before their back-off ends')

      harness.clock.advance(1000)
      assert.equal(await provePendingCredentials(fresh(), 10), 2, 'retried after 1 s, and failing again')
      harness.clock.advance(1000)
      assert.equal(await provePendingCredentials(fresh(), 10), 0, 'the second back-off is 2 s')
      // Rotated, as an operator would: a new key that opens.
      await fresh().keys.rotate(owner)
      harness.clock.advance(1000)
      assert.equal(await provePendingCredentials(fresh(), 10), 2)
      assert.deepStrictEqual(await states('chess'), ['ready', 'ready'])
    } finally {
      await harness.close()
    }
  })
})

describe('closing the issuer', () => {
  it('closes its Data Integrity signer (its threads), after the worker', async () => {
    const signer = createDataIntegritySigner()
    let closed = 0
    const harness = createCoreHarness({
      dataIntegritySigner: {
        signMany: (...args) => signer.signMany(...args),
        async close() {
          closed++
          await signer.close()
        },
      },
    })
    await harness.close()
    assert.equal(closed, 1)
  })
})
