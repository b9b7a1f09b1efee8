/**
 * The Learner Credential Wallet's DID Authentication checked on Deno (docs/learner-credential-wallet.md
 * § Libraries): a presentation signed here by the libraries the wallet uses (test/support/lcw-wallet.ts),
 * verified by `createPresentationVerifier()` (Digital Bazaar's Ed25519Signature2020 on jsonld-signatures, on
 * its worker thread through Deno's node:worker_threads) with the exchange's loader (did:key computed, contexts
 * from local copies, nothing fetched, every load answered by this thread).
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createPresentationVerifier } from '../../adapters/node/presentation-verifier.ts'
import { didAuthenticationLoader } from '../../core/wallets/did-key.ts'
import { didAuthentication, mintProfile } from '../support/lcw-wallet.ts'

describe('DID Authentication on Deno', () => {
  it('a presentation the wallet signs verifies, for its challenge only, and a tampered copy does not', async () => {
    assert.ok('Deno' in globalThis, 'runs on Deno')
    const verifier = createPresentationVerifier()
    const presentation = await didAuthentication(await mintProfile(), 'the-exchange')
    assert.deepEqual(await verifier.verifyAuthentication(presentation, { challenge: 'the-exchange' }, didAuthenticationLoader), { verified: true })

    const elsewhere = await verifier.verifyAuthentication(presentation, { challenge: 'another-exchange' }, didAuthenticationLoader)
    assert.equal(elsewhere.verified, false)
    const tampered = { ...presentation, id: 'urn:uuid:3f1c1f7e-5b7e-4a4e-9a53-0d5c1b6f2a10' }
    const result = await verifier.verifyAuthentication(tampered, { challenge: 'the-exchange' }, didAuthenticationLoader)
    assert.deepEqual(result, { verified: false, reason: "The presentation's proof does not verify (Invalid signature.)" })
    await verifier.close()
  })

  it('a check past its time budget fails, and the next runs on a fresh thread', async () => {
    const verifier = createPresentationVerifier({ timeBudgetMs: 1_000 })
    const presentation = await didAuthentication(await mintProfile(), 'the-exchange')
    assert.equal((await verifier.verifyAuthentication(presentation, { challenge: 'the-exchange' }, didAuthenticationLoader)).verified, true)
    const stuck = await verifier.verifyAuthentication(presentation, { challenge: 'the-exchange' }, () => new Promise(() => {}))
    assert.deepEqual(stuck, { verified: false, reason: 'The presentation took longer than 1000 ms to check.' })
    assert.deepEqual(await verifier.verifyAuthentication(presentation, { challenge: 'the-exchange' }, didAuthenticationLoader), { verified: true })
    await verifier.close()
  })
})
