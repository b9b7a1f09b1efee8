/**
 * Several nodes on one database: two full issuers, each with its own caches as two processes
 * have, must agree. Every storage that serves several nodes runs it, with a factory that opens two issuers
 * on one fresh database.
 *
 * @example
 * twoNodesSuite({ name: 'sqlite (one file)', open: openTwoSqliteNodes })
 */
import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { decodeJwt, decodeProtectedHeader } from 'jose'
import { decodeList } from '@digitalbazaar/vc-bitstring-status-list'
import type { Issuer } from '../../index.ts'
import { clientCredentialsGrant } from '../support/tokens.ts'
// Both nodes MUST be configured with the URLs of this origin (one load balancer).
import { ORIGIN } from '../support/origin.ts'
import type { Json } from '../support/json.ts'

const CLUB = 'chess'

/**
 * Two issuers (`createIssuer`) on one fresh, empty database: each with its own storage connection, key
 * store and caches, the same master key, `urls: defaultUrls(8787)`, the Node Data Integrity signer (as
 * the server wires it), the system clock and every other option at its default. `close` closes both and removes the database.
 */
export interface TwoNodes {
  a: Issuer
  b: Issuer
  close(): Promise<void>
}

export function twoNodesSuite({ name, open }: { name: string; open: () => Promise<TwoNodes> }): void {
  describe(`two nodes on one database › ${name}`, { timeout: 60_000 }, () => {
    let nodes: TwoNodes
    beforeEach(async () => {
      nodes = await open()
    })
    afterEach(async () => {
      await nodes.close()
    })

    it('failed authentications spread over both nodes reach the limit, and both nodes answer 429 rate_limited with Retry-After', async () => {
      const { a, b } = nodes
      await a.clubs.create({ domain: CLUB, name: 'Chess Club' })
      const client = await a.clients.create({ club: CLUB })
      const wrong = { ...client, client_secret: 'ccs_wrong' }
      const limit = a.config.clientAuthFailures.limit
      for (let i = 0; i < limit; i++) {
        const response = await tokenResponse(i % 2 === 0 ? a : b, wrong)
        assert.equal(response.status, 401, `failure ${i + 1} is still answered invalid_client`)
      }
      for (const node of [a, b]) {
        const response = await tokenResponse(node, client)
        assert.equal(response.status, 429)
        assert.equal((await response.json()).error, 'rate_limited')
        const retryAfter = Number(response.headers.get('retry-after'))
        assert.ok(retryAfter >= 1 && retryAfter <= a.config.clientAuthFailures.windowSeconds, `Retry-After ${retryAfter}`)
      }
    })

    it('resends raced on both nodes: of six concurrent requests exactly three are accepted, the rest and a later one 429 with Retry-After', async () => {
      const { a, b } = nodes
      const api = await clubApi(a)
      const [id] = await api.issue(a, 1)
      const path = `/v2/clubs/${CLUB}/issuances/${id}/notify`
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => api.call(i % 2 === 0 ? a : b, 'POST', path)))
      const statuses = answers.map((answer) => answer.status).sort()
      assert.deepStrictEqual(statuses, [202, 202, 202, 429, 429, 429], `statuses ${statuses.join(', ')}`)
      for (const refused of answers.filter((answer) => answer.status === 429)) assert.equal(refused.body.code, 'rate-limited')
      for (const node of [a, b]) {
        const response = await node.fetch(new Request(`${ORIGIN}${path}`, { method: 'POST', headers: { authorization: `Bearer ${api.token}` } }))
        assert.equal(response.status, 429)
        const retryAfter = Number(response.headers.get('retry-after'))
        assert.ok(retryAfter > 86_000 && retryAfter <= 86_400, `Retry-After ${retryAfter}`)
      }
    })

    it("a revocation through A is in B's verdict at once and in B's status list within 5 s", async () => {
      const { a, b } = nodes
      const api = await clubApi(a)
      const [revokedId, keptId] = await api.issue(a, 2)
      await a.worker.drain()
      const entry = statusEntry(await api.credentialJwt(b, revokedId!))
      const kept = statusEntry(await api.credentialJwt(b, keptId!))

      // B's caches hold the valid state before the revocation: its verdict and its signed list.
      assert.deepStrictEqual(await verdict(b, revokedId!), { isValid: true, status: 'valid' })
      assert.equal((await statusBits(b, entry.statusListCredential, [entry.statusListIndex]))[0], false)
      assert.equal((await statusBits(b, entry.statusListCredential, [entry.statusListIndex], 'application/ld+json'))[0], false)

      assert.equal((await api.call(a, 'POST', `/v2/clubs/${CLUB}/issuances/${revokedId}/revoke`, {})).status, 200)
      assert.deepStrictEqual(await verdict(b, revokedId!), { isValid: true, status: 'revoked' }, "B's verdict at once")
      assert.deepStrictEqual(await verdict(b, keptId!), { isValid: true, status: 'valid' })
      const bits = await within(5000, async () => {
        const read = await statusBits(b, entry.statusListCredential, [entry.statusListIndex, kept.statusListIndex])
        return read[0] ? read : null
      })
      assert.deepStrictEqual(bits, [true, false], "B's status list shows the revocation, and only it")
      const jsonLdBits = await statusBits(b, entry.statusListCredential, [entry.statusListIndex, kept.statusListIndex], 'application/ld+json')
      assert.deepStrictEqual(jsonLdBits, [true, false], "B's JSON-LD status list shows it as soon as its JWT does")
    })

    it('a key rotation through A is what B signs with, and B publishes the new key in its DID document', async () => {
      const { a, b } = nodes
      const api = await clubApi(a)
      // B signs, publishes its DID document and its status list first, so that its caches hold the old key.
      const [before] = await api.issue(a, 1)
      await b.worker.drain()
      const oldKid = kidOf(await api.credentialJwt(b, before!))
      const oldDocument = await didDocument(b)
      assert.deepStrictEqual(kidsOf(oldDocument), [oldKid])
      const listUrl = statusEntry(await api.credentialJwt(b, before!)).statusListCredential
      assert.equal(kidOf(await (await b.fetch(new Request(listUrl))).text()), oldKid)

      const rotated = await a.keys.rotate(CLUB) // what the CLI's `key rotate` does
      const newKid = `${oldDocument.id}#${rotated.kid}`
      assert.notEqual(newKid, oldKid)

      const [after] = await api.issue(a, 1)
      await b.worker.drain() // A's worker is not running: B signs
      assert.equal(kidOf(await api.credentialJwt(a, after!)), newKid, "B's worker signs with the new key")
      assert.deepStrictEqual(kidsOf(await didDocument(b)), [oldKid, newKid], "B's DID document lists both keys")
      assert.deepStrictEqual(await verdict(b, after!), { isValid: true, status: 'valid' })
      assert.deepStrictEqual(await verdict(b, before!), { isValid: true, status: 'valid' }, 'a credential of the old key still verifies')
      const listKid = await within(5000, async () => {
        const kid = kidOf(await (await b.fetch(new Request(listUrl))).text())
        return kid === newKid ? kid : null
      })
      assert.equal(listKid, newKid, "B's status list is signed with the new key")
    })
  })
}

/** Polls `read` until it answers something other than `null`, for at most `ms`; fails after that. */
async function within<T>(ms: number, read: () => Promise<T | null>): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await read()
    if (value !== null) return value
    if (Date.now() > deadline) assert.fail(`not within ${ms} ms`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

function tokenResponse(node: Issuer, client: { client_id: string; client_secret: string }): Promise<Response> {
  return node.fetch(new Request(`${ORIGIN}/oauth/token`, clientCredentialsGrant(client)))
}

/** A club with a template and an all-scope client, created through `node`; its token works on every node. */
async function clubApi(node: Issuer) {
  await node.clubs.create({ domain: CLUB, name: 'Chess Club' })
  const response = await tokenResponse(node, await node.clients.create({ club: CLUB }))
  const token = ((await response.json()) as { access_token: string }).access_token
  let issued = 0

  async function call(on: Issuer, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
    const init: RequestInit = { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } }
    if (body !== undefined) init.body = JSON.stringify(body)
    const answer = await on.fetch(new Request(`${ORIGIN}${path}`, init))
    const text = await answer.text()
    return { status: answer.status, body: text ? JSON.parse(text) : null }
  }

  const template = await call(node, 'POST', `/v2/clubs/${CLUB}/achievements`, { name: 'Opening theory', description: 'Studied the main openings.' })
  assert.equal(template.status, 201, JSON.stringify(template.body))
  const templateId = template.body.data.id as number

  return {
    call,
    token,
    /** Issues to `count` new members through `on`; returns the issuance ids. */
    async issue(on: Issuer, count: number): Promise<number[]> {
      const recipients = Array.from({ length: count }, () => {
        const n = issued++
        return { externalUserId: `member-${n}`, name: `Member ${n}`, email: `member.${n}@chess.example` }
      })
      const answer = await call(on, 'POST', `/v2/clubs/${CLUB}/issuances`, { achievementFormId: templateId, mode: 'none', recipients })
      assert.equal(answer.status, 200, JSON.stringify(answer.body))
      assert.equal(answer.body.summary.ok, count)
      return answer.body.results.map((item: { resourceId: number }) => item.resourceId)
    },
    async credentialJwt(on: Issuer, issuanceId: number): Promise<string> {
      const answer = await call(on, 'GET', `/v2/clubs/${CLUB}/issuances/${issuanceId}/credential`)
      assert.equal(answer.status, 200, JSON.stringify(answer.body))
      return answer.body.data.jwt
    },
  }
}

async function verdict(node: Issuer, issuanceId: number): Promise<{ isValid: boolean; status: string }> {
  const answer = await node.fetch(new Request(`${ORIGIN}/open-badges/v3/achievements/${issuanceId}/verify`))
  assert.equal(answer.status, 200)
  const { isValid, status } = await answer.json()
  return { isValid, status }
}

async function didDocument(node: Issuer): Promise<DidDocument> {
  const answer = await node.fetch(new Request(`${ORIGIN}/open-badges/v3/issuers/${CLUB}/did.json`))
  assert.equal(answer.status, 200)
  return answer.json()
}

/** The VC-JWT keys of a DID document (its Data Integrity keys are Multikeys). */
const kidsOf = (document: DidDocument): string[] => document.verificationMethod.filter((method) => method.type === 'JsonWebKey2020').map((method) => method.id)
type DidDocument = { id: string; verificationMethod: { id: string; type: string }[] }
const kidOf = (jwt: string): string => String(decodeProtectedHeader(jwt).kid)

function statusEntry(jwt: string): { statusListIndex: number; statusListCredential: string } {
  const status = decodeJwt<{ vc: Json }>(jwt).vc.credentialStatus
  const entry = Array.isArray(status) ? status[0] : status
  return { statusListIndex: Number(entry.statusListIndex), statusListCredential: entry.statusListCredential }
}

/** The bits at `indexes` of the status list `url` as `node` serves it: the VC-JWT, or the JSON-LD form when `accept` asks for it. */
async function statusBits(node: Issuer, url: string, indexes: number[], accept?: string): Promise<boolean[]> {
  const answer = await node.fetch(new Request(url, accept === undefined ? {} : { headers: { accept } }))
  assert.equal(answer.status, 200)
  const jsonLd = accept !== undefined
  assert.equal(answer.headers.get('content-type'), jsonLd ? accept : 'text/plain; charset=utf-8')
  const text = await answer.text()
  const credential: Json = jsonLd ? JSON.parse(text) : decodeJwt<{ vc: Json }>(text).vc
  if (jsonLd) assert.equal(credential.proof.cryptosuite, 'eddsa-rdfc-2022')
  const list = await decodeList({ encodedList: credential.credentialSubject.encodedList })
  return indexes.map((index) => list.getStatus(index))
}
