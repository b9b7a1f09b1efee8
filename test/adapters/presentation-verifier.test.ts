/**
 * The DID Authentication check on its worker thread (docs/learner-credential-wallet.md § Off the main thread):
 * a presentation the wallet signs verifies there, with its documents asked of the caller's loader;
 * a check past its time budget fails cleanly and the next one gets a fresh thread; the calling thread's
 * event loop stays idle while checks run; a presentation not of the wallet's shape never reaches the
 * thread; closed, the verifier refuses.
 * @see docs/decisions/0040-wallet-exchange-limits.md
 */
import assert from 'node:assert/strict'
import { performance } from 'node:perf_hooks'
import { after, before, describe, it } from 'node:test'
import { createPresentationVerifier } from '../../adapters/node/presentation-verifier.ts'
import { didAuthenticationLoader } from '../../core/wallets/did-key.ts'
import type { DocumentLoader } from '../../core/ports/data-integrity-signer.ts'
import { didAuthentication, mintProfile } from '../support/lcw-wallet.ts'

describe('createPresentationVerifier on a worker thread', () => {
  let presentation: Record<string, unknown>
  before(async () => {
    presentation = await didAuthentication(await mintProfile(), 'the-exchange')
  })

  const verifier = createPresentationVerifier()
  after(() => verifier.close())

  it('verifies the wallet’s presentation for its challenge, with every document asked of the caller’s loader', async () => {
    const asked: string[] = []
    const loader: DocumentLoader = (url) => {
      asked.push(url)
      return didAuthenticationLoader(url)
    }
    assert.deepEqual(await verifier.verifyAuthentication(presentation, { challenge: 'the-exchange' }, loader), { verified: true })
    assert.ok(asked.includes('https://www.w3.org/ns/credentials/v2'), asked.join(', '))
    assert.ok(
      asked.some((url) => url.startsWith(`${String(presentation.holder)}#`)),
      'the key, from the caller',
    )
    const tampered = { ...presentation, id: 'urn:uuid:3f1c1f7e-5b7e-4a4e-9a53-0d5c1b6f2a10' }
    assert.deepEqual(await verifier.verifyAuthentication(tampered, { challenge: 'the-exchange' }, didAuthenticationLoader), {
      verified: false,
      reason: "The presentation's proof does not verify (Invalid signature.)",
    })
  })

  it('keeps the calling thread idle while checks run', async () => {
    const before = performance.eventLoopUtilization()
    const checks = await Promise.all(
      Array.from({ length: 20 }, () => verifier.verifyAuthentication(presentation, { challenge: 'the-exchange' }, didAuthenticationLoader)),
    )
    const { utilization } = performance.eventLoopUtilization(before)
    assert.ok(
      checks.every((check) => check.verified),
      JSON.stringify(checks[0]),
    )
    // Canonicalizing on this thread would keep its loop busy nearly all the while; here it only passes messages.
    assert.ok(utilization < 0.5, `the event loop was busy ${(utilization * 100).toFixed(0)}% of the time`)
  })

  it('refuses a check at once when its queue is full, and checks those it took', async () => {
    const bounded = createPresentationVerifier({ maxWaiting: 2 })
    try {
      const checks = await Promise.all(
        Array.from({ length: 8 }, () => bounded.verifyAuthentication(presentation, { challenge: 'the-exchange' }, didAuthenticationLoader)),
      )
      const busy = checks.filter((check) => !check.verified && /busy/.test(check.reason))
      assert.ok(busy.length >= 5, `at most one running and two waiting: ${JSON.stringify(checks)}`)
      assert.equal(checks.filter((check) => check.verified).length, checks.length - busy.length, 'the others verify')
    } finally {
      await bounded.close()
    }
  })

  it('fails a check past its time budget, and checks the next on a fresh thread', async () => {
    const budgeted = createPresentationVerifier({ timeBudgetMs: 1_000 })
    try {
      // Warm: the budget counts from when the thread, its libraries loaded, takes the check.
      assert.equal((await budgeted.verifyAuthentication(presentation, { challenge: 'the-exchange' }, didAuthenticationLoader)).verified, true)
      const never: DocumentLoader = () => new Promise(() => {})
      const started = performance.now()
      const stuck = await budgeted.verifyAuthentication(presentation, { challenge: 'the-exchange' }, never)
      const elapsed = performance.now() - started
      assert.deepEqual(stuck, { verified: false, reason: 'The presentation took longer than 1000 ms to check.' })
      assert.ok(elapsed >= 990 && elapsed < 5_000, `${elapsed.toFixed(0)} ms`)
      assert.deepEqual(await budgeted.verifyAuthentication(presentation, { challenge: 'the-exchange' }, didAuthenticationLoader), { verified: true })
    } finally {
      await budgeted.close()
    }
  })

  it('refuses a presentation not of the wallet’s shape without asking the loader', async () => {
    let asked = 0
    const loader: DocumentLoader = (url) => {
      asked++
      return didAuthenticationLoader(url)
    }
    const stuffed = { ...presentation, verifiableCredential: Array.from({ length: 300 }, () => ({ type: 'VerifiableCredential' })) }
    const result = await verifier.verifyAuthentication(stuffed, { challenge: 'the-exchange' }, loader)
    assert.equal(result.verified, false)
    assert.match((result as { reason: string }).reason, /not "verifiableCredential"/)
    assert.equal(asked, 0)
  })

  it('refuses once closed', async () => {
    const closing = createPresentationVerifier()
    await closing.close()
    assert.deepEqual(await closing.verifyAuthentication(presentation, { challenge: 'the-exchange' }, didAuthenticationLoader), {
      verified: false,
      reason: 'The presentation verifier is closed.',
    })
  })
})
