/**
 * What the backup tests (test/server/backup*.test.ts) check on a server before and after a restore, as a
 * client and a verifier see it (their fixed public address is `ADDRESS` of test/support/origin.ts): a
 * club session, every issuance once signed, and a JWT checked with jose against the DID
 * document.
 */
import assert from 'node:assert/strict'
import { importJWK, jwtVerify, type JWTHeaderParameters } from 'jose'
import { accessToken } from './tokens.ts'
import type { HttpResponse } from './server.ts'
import type { NodeProcess } from './node-process.ts'
import type { Issuance } from '../../client/types.ts'
import type { Json } from './json.ts'

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
export const randomKey = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex')

export async function session(node: NodeProcess, client: { client_id: string; client_secret: string }) {
  const token = await accessToken(node, client)
  return (method: string, path: string, body?: unknown): Promise<HttpResponse> =>
    node.http(`/v2/clubs/rowing${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
}

/** Every issuance of the club, page by page, waiting until each has its credential. */
export async function allSigned(call: Awaited<ReturnType<typeof session>>): Promise<{ id: number; credentialId: string }[]> {
  const deadline = Date.now() + 30_000
  for (;;) {
    const items: { id: number; credentialId: string | null }[] = []
    let cursor: string | null = null
    do {
      const page: HttpResponse = await call('GET', `/issuances?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
      assert.equal(page.status, 200, page.text)
      items.push(...page.json.data.map((item: Issuance) => ({ id: item.id, credentialId: item.credentialId })))
      cursor = page.json.meta.nextCursor
    } while (cursor)
    if (items.every((item) => item.credentialId !== null)) return items as { id: number; credentialId: string }[]
    assert.ok(Date.now() < deadline, 'every issuance is signed within 30 s')
    await sleep(200)
  }
}

/** A verifier's check: the JWT verifies with the DID document's key its header names, and its issuer is that DID. */
export async function verifyWithDidDocument(jwt: string, did: Json): Promise<void> {
  const { payload } = await jwtVerify(
    jwt,
    async (header: JWTHeaderParameters) => {
      const method = did.verificationMethod.find((item: { id: string }) => item.id === header.kid)
      assert.ok(method, `the DID document has the key ${header.kid}`)
      return importJWK(method.publicKeyJwk, 'ES256')
    },
    { algorithms: ['ES256'], issuer: did.id },
  )
  assert.equal(typeof payload.jti, 'string')
}
