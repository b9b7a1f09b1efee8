/**
 * The Learner Credential Wallet exchange on the real server over loopback
 * (docs/learner-credential-wallet.md § Before any JSON-LD work): presentations stuffed with 300 and 5,500
 * credentials, sent with a length or chunked, are refused in under 300 ms each while `/healthz` answers in
 * under 200 ms throughout; one stuffed under the limit is refused on its shape; and the wallet's own DID
 * Authentication still gets the credential. (A body that never ends: test/core/wallets/lcw.test.ts.)
 * @see docs/decisions/0040-wallet-exchange-limits.md (a 968 KiB presentation took 3.0 s and held /healthz for 2.4 s)
 */
import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import { request } from 'undici'
import { demoClientFrom, removeDataDir, startServer, type ServerProcess } from '../support/server.ts'
import { accessToken } from '../support/tokens.ts'
import { eventually } from '../support/issuing-process.ts'
import { didAuthentication, mintProfile, type WalletProfile } from '../support/lcw-wallet.ts'

/** A credential of 179 bytes, the size of the review's: 5,500 of them make 968 KiB, under the API's 1 MiB. */
const STUB_CREDENTIAL = {
  '@context': ['https://www.w3.org/ns/credentials/v2'],
  type: ['VerifiableCredential'],
  issuer: 'did:example:76e12ec712ebc6f1c221ebfeb1f',
  credentialSubject: { id: 'did:example:1' },
}

describe('the LCW exchange under stuffed presentations', { timeout: 120_000 }, () => {
  let server: ServerProcess
  let credentialId: string
  let profile: WalletProfile

  before(async () => {
    server = await startServer()
    const token = await accessToken(server, demoClientFrom(server.stderr)!)
    const post = async (path: string, body: unknown) => {
      const response = await server.http(`/v2/clubs/demo${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      assert.ok(response.status < 300, response.text)
      return response.json as unknown
    }
    const template = await post('/achievements', { name: 'Night watch', description: 'Kept the night watch.' })
    const issued = await post('/issuances', {
      achievementFormId: (template as { data: { id: string } }).data.id,
      mode: 'none',
      recipients: [{ name: 'Watcher', email: 'w@watch.example' }],
    })
    const issuanceId = (issued as { results: { resourceId: string }[] }).results[0]!.resourceId
    await eventually('the credential is signed', async () => {
      const read = await server.http(`/v2/clubs/demo/issuances/${issuanceId}`, { headers: { authorization: `Bearer ${token}` } })
      credentialId = (read.json as { data: { credentialId: string | null } }).data.credentialId ?? ''
      return credentialId !== ''
    })
    // The JSON-LD form's proof is made after the JWT: until then the link answers 409 credential-pending.
    await eventually('the JSON-LD form is ready', async () => (await server.http(`/open-badges/v3/issuers/demo/lcw-requests/${credentialId}`)).status === 303)
    profile = await mintProfile()
  })
  after(async () => {
    await server?.stop()
    if (server) removeDataDir(server.dataDir)
  })

  /** A fresh exchange, as the wallet gets it from the request page: its URL on this server, and its challenge. */
  async function freshExchange(): Promise<{ url: string; challenge: string }> {
    const redirect = await server.http(`/open-badges/v3/issuers/demo/lcw-requests/${credentialId}`)
    assert.equal(redirect.status, 303)
    const query = new URL(redirect.headers.location!).searchParams
    return { url: query.get('vc_request_url')!, challenge: query.get('challenge')! }
  }

  /** The wallet's presentation for the exchange, with `count` credentials stuffed in. */
  async function stuffed(challenge: string, count: number): Promise<string> {
    const presentation = await didAuthentication(profile, challenge)
    return JSON.stringify({ ...presentation, verifiableCredential: Array.from({ length: count }, () => STUB_CREDENTIAL) })
  }

  /** `/healthz` every 20 ms until stopped; the slowest answer. */
  function watchHealth(): { stop(): Promise<{ slowest: number; answers: number }> } {
    let running = true
    let slowest = 0
    let answers = 0
    const loop = (async () => {
      while (running) {
        const started = performance.now()
        const response = await request(`${server.url}/healthz`)
        await response.body.text()
        assert.equal(response.statusCode, 200)
        slowest = Math.max(slowest, performance.now() - started)
        answers++
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    })()
    return {
      async stop() {
        running = false
        await loop
        return { slowest, answers }
      },
    }
  }

  it('refuses presentations stuffed with 300 and 5,500 credentials in under 300 ms each, while /healthz answers in under 200 ms', async () => {
    const bodies = []
    for (const count of [300, 5_500]) {
      for (const chunked of [false, true]) {
        const exchange = await freshExchange()
        bodies.push({ count, chunked, exchange, body: await stuffed(exchange.challenge, count) })
      }
    }
    const largest = bodies.at(-1)!.body.length
    assert.ok(largest > 960 * 1024 && largest < 1024 * 1024, `the review's size, within the API's limit: ${largest} bytes`)
    const health = watchHealth()
    await new Promise((resolve) => setTimeout(resolve, 100))
    try {
      for (const { count, chunked, exchange, body } of bodies) {
        const name = `${count} credentials${chunked ? ', chunked' : ''}`
        const started = performance.now()
        const response = await request(exchange.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          // A stream has no length: undici sends it chunked.
          body: chunked ? Readable.from(inChunks(body, 16 * 1024)) : body,
        })
        const problem = (await response.body.json()) as { code: string; detail: string }
        const elapsed = performance.now() - started
        assert.equal(response.statusCode, 413, name)
        assert.match(response.headers['content-type'] as string, /^application\/problem\+json/)
        assert.equal(problem.code, 'payload-too-large', name)
        assert.equal(problem.detail, 'The request body exceeds 32768 bytes.')
        assert.ok(elapsed < 300, `${name}: refused in ${elapsed.toFixed(0)} ms`)
      }
    } finally {
      const { slowest, answers } = await health.stop()
      assert.ok(answers >= 3, `/healthz answered ${answers} times`)
      assert.ok(slowest < 200, `/healthz took up to ${slowest.toFixed(0)} ms`)
    }
  })

  it('refuses one stuffed under the limit on its shape, and the wallet’s own presentation still gets the credential', async () => {
    const exchange = await freshExchange()
    const small = await request(exchange.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: await stuffed(exchange.challenge, 2) })
    assert.equal(small.statusCode, 400)
    const problem = (await small.body.json()) as { code: string; detail: string }
    assert.equal(problem.code, 'invalid-presentation')
    assert.match(problem.detail, /not "verifiableCredential"/)

    const genuine = await request(exchange.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(await didAuthentication(profile, exchange.challenge)),
    })
    const credential = (await genuine.body.json()) as { id: string; proof?: { type: string }[] }
    assert.equal(genuine.statusCode, 200, JSON.stringify(credential))
    assert.ok(credential.id.includes(credentialId), credential.id)
    assert.deepEqual(
      credential.proof?.map((proof) => proof.type),
      ['DataIntegrityProof'],
    )
  })
})

async function* inChunks(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text)
  for (let from = 0; from < bytes.length; from += size) yield bytes.subarray(from, from + size)
}
