/**
 * The Learner Credential Wallet takes a credential from the share page (docs/learner-credential-wallet.md):
 * the button's link, the redirect to the wallet's request page, the deep link the app parses, its DID
 * Authentication signed with its own did:key by the libraries the app uses (test/support/lcw-wallet.ts),
 * the POST, and the credential in hand, verified with Digital Bazaar's VC library. Then every refusal:
 * a second wallet, a revoked credential, an expired exchange, a wrong challenge, a bad signature.
 */
import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import Database from 'better-sqlite3'
import { decodeJwt } from 'jose'
import { createDataIntegritySigner } from '../../../adapters/node/data-integrity-signer.ts'
import { createPresentationVerifier } from '../../../adapters/node/presentation-verifier.ts'
import { jsonLdFormOf } from '../../../core/credentials/json-ld-form.ts'
import type { PresentationVerifier } from '../../../core/ports/presentation-verifier.ts'
import { verifyDataIntegrity } from '../../support/data-integrity-verifier.ts'
import type { RawResponse } from '../../support/api-harness.ts'
import {
  deepLinkFromRequestPage,
  didAuthentication,
  extractCredentialsFrom,
  legacyRequestParams,
  mintProfile,
  postPresentation,
  type CredentialRequestParams,
} from '../../support/lcw-wallet.ts'
import { CREDENTIAL_ISSUER, openWalletHarness, type WalletHarness } from '../../support/wallet-harness.ts'
import { setStoredProof } from '../../support/stored-proof.ts'

let h: WalletHarness
/** How many presentations reached the verifier: a refusal on the JSON alone never does. */
let verifierCalls = 0

beforeEach(async () => {
  const verifier = createPresentationVerifier()
  const presentationVerifier: PresentationVerifier = {
    verifyAuthentication(...args) {
      verifierCalls++
      return verifier.verifyAuthentication(...args)
    },
    close: () => verifier.close(),
  }
  h = await openWalletHarness({ presentationVerifier, dataIntegritySigner: createDataIntegritySigner() })
})
afterEach(() => h.close())

/** Issues a credential, signed and proved by the worker; returns it with its stored JSON-LD form. */
async function issueWithJsonLdForm(options: { mode?: 'none' | 'email' } = {}) {
  const pointer = await h.issueOne(options)
  const form = jsonLdFormOf((await h.storage.credentials.findById(pointer.id))!)
  assert.equal(form.state, 'ready', 'the worker made its proof')
  const credential = form.state === 'ready' ? form.credential : {}
  const jwt = await (await h.fetch(pointer.jwtUrl)).text()
  const { proof: _proof, ...unsecured } = credential
  assert.deepStrictEqual(unsecured, decodeJwt(jwt).vc, 'the JSON-LD form is the credential of the JWT')
  return { ...pointer, credential }
}

/** The share page's "Add to Learner Credential Wallet" href, or `null` when the page has none. */
async function lcwButtonOf(shareUrl: string): Promise<string | null> {
  const page = await (await h.fetch(shareUrl)).text()
  const match =
    /<a class="button button--lcw" href="([^"]*)">Learner Credential Wallet에 추가 <span lang="en">Add to Learner Credential Wallet<\/span><\/a>/.exec(page)
  return match ? match[1]!.replace(/&amp;/g, '&') : null
}

/** The recipient taps the button: the browser follows the redirect to the wallet's page, which opens the app. */
async function tap(link: string): Promise<CredentialRequestParams> {
  const redirect = await h.fetch(link, { redirect: 'manual' })
  assert.equal(redirect.status, 303, await redirect.clone().text())
  assert.equal(redirect.headers.get('cache-control'), 'no-store')
  return legacyRequestParams(deepLinkFromRequestPage(redirect.headers.get('location')!))
}

const wallet = (params: CredentialRequestParams, presentation: unknown) => postPresentation(h.fetch as typeof fetch, params, presentation)

/** The verifier's view of the server: its did:web over http on loopback is the harness's https host. */
const get = async (url: string): Promise<RawResponse> => {
  const response = await h.fetch(url.replace(/^http:/, 'https:'))
  const text = await response.text()
  let body = null
  try {
    body = JSON.parse(text)
  } catch {
    // not JSON
  }
  return { status: response.status, headers: response.headers, text, body }
}

const storedIn = (scope: string) => {
  const db = new Database(h.dbFile, { readonly: true })
  try {
    return (db.prepare('SELECT count(*) AS n FROM idempotency_keys WHERE scope = ?').get(scope) as { n: number }).n
  } finally {
    db.close()
  }
}
const redemptions = () => storedIn('oid4vci-code')
const failedAttempts = () => storedIn('lcw-exchange-failure')

/** The presentation with its proof changed by `change`. */
async function withProof(presentation: Record<string, unknown>, change: (proof: Record<string, unknown>) => unknown): Promise<Record<string, unknown>> {
  return { ...presentation, proof: await change(presentation.proof as Record<string, unknown>) }
}

describe('Learner Credential Wallet', () => {
  it('takes the credential from the share page: link, request page, DID Authentication, the signed JSON-LD credential', async () => {
    const issued = await issueWithJsonLdForm()
    const link = await lcwButtonOf(issued.shareUrl)
    assert.ok(link, 'the share page shows the button')
    const params = await tap(link)
    assert.equal(params.auth_type, 'bearer', 'the wallet accepts only auth_type=bearer')
    assert.equal(params.issuer, CREDENTIAL_ISSUER)
    assert.ok(params.vc_request_url.startsWith(`${CREDENTIAL_ISSUER}/lcw-exchanges/`))

    const profile = await mintProfile()
    const response = await wallet(params, await didAuthentication(profile, params.challenge!))
    assert.equal(response.status, 200, await response.clone().text())
    const credentials = extractCredentialsFrom(await response.json())
    assert.equal(credentials?.length, 1)
    assert.deepEqual(credentials![0], issued.credential, 'the stored JSON-LD form, unchanged')
    const verified = await verifyDataIntegrity(credentials![0], get, { now: new Date(h.clock.now()) })
    assert.equal(
      verified.verified,
      true,
      JSON.stringify(verified, (k, v) => (v instanceof Error ? { message: v.message, errors: (v as Error & { errors?: unknown }).errors } : v)).slice(0, 3000),
    )
  })

  it('is one-time: a second wallet with the same request is refused, and a new tap works', async () => {
    const issued = await issueWithJsonLdForm()
    const params = await tap((await lcwButtonOf(issued.shareUrl))!)
    assert.equal((await wallet(params, await didAuthentication(await mintProfile(), params.challenge!))).status, 200)
    const second = await wallet(params, await didAuthentication(await mintProfile(), params.challenge!))
    assert.equal(second.status, 409)
    const problem = await second.json()
    assert.equal(problem.code, 'wallet-exchange-used')
    assert.match(second.headers.get('content-type')!, /problem\+json/)
    const again = await tap((await lcwButtonOf(issued.shareUrl))!)
    assert.equal((await wallet(again, await didAuthentication(await mintProfile(), again.challenge!))).status, 200)
  })

  it('refuses a revoked credential: no button, no request, and an open exchange fails', async () => {
    const issued = await issueWithJsonLdForm()
    const link = (await lcwButtonOf(issued.shareUrl))!
    const params = await tap(link)
    await h.issuer.issuances.revoke('chess', issued.issuanceId, { reason: 'test' })
    assert.equal(await lcwButtonOf(issued.shareUrl), null)
    const redirect = await h.fetch(link, { redirect: 'manual' })
    assert.equal(redirect.status, 410)
    const response = await wallet(params, await didAuthentication(await mintProfile(), params.challenge!))
    assert.equal(response.status, 410)
    assert.equal((await response.json()).code, 'credential-revoked')
    assert.equal(redemptions(), 0, 'nothing stored')
  })

  it('refuses an expired exchange', async () => {
    const issued = await issueWithJsonLdForm()
    const params = await tap((await lcwButtonOf(issued.shareUrl))!)
    h.clock.advance(10 * 60 * 1000 + 1000)
    const response = await wallet(params, await didAuthentication(await mintProfile(), params.challenge!))
    assert.equal(response.status, 404)
    assert.equal((await response.json()).code, 'wallet-exchange-not-found')
    assert.equal(redemptions(), 0)
  })

  it('refuses a bad DID Authentication with a 400 that says why, and stores nothing but the failed attempt', async () => {
    const issued = await issueWithJsonLdForm()
    const link = (await lcwButtonOf(issued.shareUrl))!
    const profile = await mintProfile()
    const other = await mintProfile()
    const { challenge } = await tap(link)
    const valid = await didAuthentication(profile, challenge!)
    const proof = valid.proof as Record<string, unknown> & { proofValue: string }
    const forgedProof = { ...proof, proofValue: `${proof.proofValue.slice(0, -4)}${proof.proofValue.endsWith('1111') ? '2222' : '1111'}` }
    // The other wallet's key, named as a key of the holder's DID: the holder's did:key has no such key.
    const otherKeyAsHolders = {
      did: profile.did,
      verificationKey: { ...other.verificationKey, id: `${profile.did}#${other.did.slice('did:key:'.length)}`, controller: profile.did },
    }
    const { proof: _proof, ...unproved } = valid
    // Each case on an exchange of its own (the presentation answers its challenge): five failures use one up.
    const cases: [string, (challenge: string) => Promise<unknown>, RegExp][] = [
      ['wrong challenge', () => didAuthentication(profile, 'another-challenge'), /does not answer this exchange’s challenge/],
      [
        'bad signature',
        async (c) => withProof(await didAuthentication(profile, c), (p) => ({ ...p, proofValue: forgedProof.proofValue })),
        /does not verify \(Invalid signature\.\)/,
      ],
      ['another holder', (c) => didAuthentication(profile, c, other.did), /not by a key of the holder/],
      // jsonld-signatures accepts a document when any one of its proofs verifies.
      ['two proofs, one of them valid', async (c) => withProof(await didAuthentication(profile, c), (p) => [p, forgedProof]), /exactly one proof/],
      [
        'two valid proofs',
        async (c) => withProof(await didAuthentication(profile, c), async (p) => [p, (await didAuthentication(profile, c)).proof]),
        /exactly one proof/,
      ],
      ['no proof', async () => unproved, /exactly one proof/],
      [
        'another suite',
        async (c) => withProof(await didAuthentication(profile, c), (p) => ({ ...p, type: 'DataIntegrityProof' })),
        /must be an Ed25519Signature2020 proof/,
      ],
      [
        'another purpose',
        async (c) => withProof(await didAuthentication(profile, c), (p) => ({ ...p, proofPurpose: 'assertionMethod' })),
        /purpose must be authentication/,
      ],
      ['a key the holder’s did:key does not have', (c) => didAuthentication(otherKeyAsHolders, c), /not by a key of the holder/],
      ['no presentation', async () => ({}), /Send a DID Authentication verifiable presentation/],
    ]
    for (const [name, body, reason] of cases) {
      const params = await tap(link)
      const response = await wallet(params, await body(params.challenge!))
      assert.equal(response.status, 400, name)
      const problem = await response.json()
      assert.equal(problem.code, 'invalid-presentation', name)
      assert.match(problem.detail, reason, name)
    }
    assert.equal(redemptions(), 0, 'nothing redeemed')
    assert.equal(failedAttempts(), cases.length, 'each refusal a failed attempt of its exchange')
  })

  it('uses an exchange up after five failed attempts: stored, refused before its body is read, and a new tap works', async () => {
    const issued = await issueWithJsonLdForm()
    const link = (await lcwButtonOf(issued.shareUrl))!
    const profile = await mintProfile()
    const params = await tap(link)
    const wrong = await didAuthentication(profile, 'another-challenge')
    for (let attempt = 1; attempt <= 4; attempt++) assert.equal((await wallet(params, wrong)).status, 400)
    // Four failures leave the exchange open: the genuine wallet still completes it.
    assert.equal((await wallet(params, await didAuthentication(profile, params.challenge!))).status, 200)

    const again = await tap(link)
    const bodies = [wrong, 'not json', { ...wrong, verifiableCredential: [] }, wrong, wrong]
    for (const body of bodies) {
      const response = await h.fetch(again.vc_request_url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      })
      assert.equal(response.status, 400, await response.clone().text())
    }
    const calls = verifierCalls
    const used = await wallet(again, await didAuthentication(profile, again.challenge!))
    assert.equal(used.status, 409)
    const problem = await used.json()
    assert.equal(problem.code, 'wallet-exchange-used')
    assert.match(problem.detail, /failed 5 times and is used up/)
    assert.equal(verifierCalls, calls, 'the used-up exchange never reached the verifier')
    const fresh = await tap(link)
    assert.equal((await wallet(fresh, await didAuthentication(profile, fresh.challenge!))).status, 200)
  })

  it('refuses a presentation stuffed with credentials or other members, or a proof of another kind, before any JSON-LD work', async () => {
    const issued = await issueWithJsonLdForm()
    const link = (await lcwButtonOf(issued.shareUrl))!
    const profile = await mintProfile()
    const stuffed = (valid: Record<string, unknown>) => ({ ...valid, verifiableCredential: [issued.credential, issued.credential] })
    const cases: [string, (valid: Record<string, unknown>) => unknown, RegExp][] = [
      ['credentials', stuffed, /holds only @context, type, id, holder and proof, not "verifiableCredential"/],
      ['another member', (valid) => ({ ...valid, name: 'x' }), /not "name"/],
      [
        'an inline context',
        (valid) => ({ ...valid, '@context': [...(valid['@context'] as string[]), { '@vocab': 'https://example.com/#' }] }),
        /@context must name at most 4 contexts by URL/,
      ],
      ['a holder of another DID method', (valid) => ({ ...valid, holder: 'did:web:example.com' }), /holder must be an Ed25519 did:key/],
      ['a proof with more members', (valid) => withProof(valid, (p) => ({ ...p, nonce: { deep: [1, 2, 3] } })), /which a DID Authentication proof does not/],
      ['a proof value too long', (valid) => withProof(valid, (p) => ({ ...p, proofValue: `z${'1'.repeat(2000)}` })), /one Ed25519 signature/],
      ['an array', () => [], /Send a DID Authentication verifiable presentation/],
    ]
    for (const [name, body, reason] of cases) {
      const params = await tap(link)
      const calls = verifierCalls
      const response = await wallet(params, await body(await didAuthentication(profile, params.challenge!)))
      assert.equal(response.status, 400, name)
      const problem = await response.json()
      assert.equal(problem.code, 'invalid-presentation', name)
      assert.match(problem.detail, reason, name)
      assert.equal(verifierCalls, calls, `${name}: refused before the verifier`)
    }
  })

  it('reads at most 32 KiB of a presentation: 413 payload-too-large, a failed attempt', async () => {
    const issued = await issueWithJsonLdForm()
    const params = await tap((await lcwButtonOf(issued.shareUrl))!)
    const valid = await didAuthentication(await mintProfile(), params.challenge!)
    const padded = JSON.stringify({ ...valid, id: `urn:x:${'a'.repeat(32 * 1024)}` })
    const response = await h.fetch(params.vc_request_url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: padded })
    assert.equal(response.status, 413)
    assert.match(response.headers.get('content-type')!, /application\/problem\+json/)
    const problem = await response.json()
    assert.equal(problem.code, 'payload-too-large')
    assert.equal(problem.detail, 'The request body exceeds 32768 bytes.')
    assert.equal(failedAttempts(), 1)
    assert.equal((await wallet(params, valid)).status, 200, 'the same exchange, in bounds, still works')
  })

  it('stops reading a chunked body that never ends at the limit', async () => {
    const issued = await issueWithJsonLdForm()
    const params = await tap((await lcwButtonOf(issued.shareUrl))!)
    let pulled = 0
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 4096
        controller.enqueue(new Uint8Array(4096).fill(0x20))
      },
    })
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: endless, duplex: 'half' }
    const response = await h.fetch(params.vc_request_url, init as RequestInit)
    assert.equal(response.status, 413)
    assert.equal((await response.json()).code, 'payload-too-large')
    assert.ok(pulled <= 32 * 1024 + 2 * 4096, `${pulled} bytes pulled`)
  })

  it('shows no button and refuses a request for a credential without a JSON-LD form', async () => {
    const pointer = await h.issueOne()
    setStoredProof(h.dbFile, pointer.id, '')
    assert.equal(await lcwButtonOf(pointer.shareUrl), null)
    const redirect = await h.fetch(`${CREDENTIAL_ISSUER}/lcw-requests/${pointer.id}`, { redirect: 'manual' })
    assert.equal(redirect.status, 409)
    assert.equal((await redirect.json()).code, 'json-ld-form-unavailable')
    setStoredProof(h.dbFile, pointer.id, null)
    assert.equal(await lcwButtonOf(pointer.shareUrl), null)
    assert.equal((await h.fetch(`${CREDENTIAL_ISSUER}/lcw-requests/${pointer.id}`, { redirect: 'manual' })).status, 409)
  })

  it('the mail carries the link, in the text and the HTML part', async () => {
    const issued = await issueWithJsonLdForm({ mode: 'email' })
    const db = new Database(h.dbFile, { readonly: true })
    const row = db.prepare('SELECT text_body, html_body FROM outbox WHERE issuance_id = ?').get(issued.issuanceId) as { text_body: string; html_body: string }
    db.close()
    const link = `${CREDENTIAL_ISSUER}/lcw-requests/${issued.id}`
    assert.ok(row.text_body.includes(`Learner Credential Wallet에 추가 / Add to Learner Credential Wallet: ${link}`), row.text_body)
    assert.ok(row.html_body.includes(`<a href="${link}">Learner Credential Wallet에 추가 / Add to Learner Credential Wallet</a>`), row.html_body)
    assert.equal(await lcwButtonOf(issued.shareUrl), link, 'the same link as the share page')
  })
})

describe('Learner Credential Wallet, on an issuer without a presentation verifier', () => {
  it('answers its request link and its exchange as a route it does not serve: 404 route-not-found, as before core said it in its own words', async () => {
    const bare = await openWalletHarness({ dataIntegritySigner: createDataIntegritySigner() })
    try {
      const pointer = await bare.issueOne()
      const request = await bare.fetch(`${CREDENTIAL_ISSUER}/lcw-requests/${pointer.id}`, { redirect: 'manual' })
      const exchange = await bare.fetch(`${CREDENTIAL_ISSUER}/lcw-exchanges/anything`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
      for (const response of [request, exchange]) {
        assert.equal(response.status, 404)
        assert.equal(response.headers.get('content-type'), 'application/problem+json')
        const { requestId: _requestId, ...problem } = await response.json()
        assert.deepStrictEqual(problem, {
          type: 'https://clubcred.dev/problems/route-not-found',
          title: 'Route not found',
          status: 404,
          detail: 'This issuer offers no Learner Credential Wallet exchange.',
          code: 'route-not-found',
        })
      }
    } finally {
      await bare.close()
    }
  })
})
