/**
 * Reading a club's revocation list the way a verifier elsewhere does (docs/decisions/0014-signed-credential.md § Status):
 * GET the `statusListCredential` URL, verify the VC-JWT with a key of the club's DID document
 * (jose), and decode `encodedList` with Digital Bazaar's Bitstring Status List implementation, not ours.
 */
import assert from 'node:assert/strict'
import { compactVerify, decodeJwt, decodeProtectedHeader, importJWK, type JWK } from 'jose'
import { decodeList, type BitstringStatusList } from '@digitalbazaar/vc-bitstring-status-list'
import type { RawResponse } from './api-harness.ts'
import type { Json } from './json.ts'

export interface DecodedStatusList {
  response: RawResponse
  jwt: string
  payload: Json
  list: BitstringStatusList
}

/** Fetches (with `get`) and decodes a status list credential; asserts 200. */
export async function fetchStatusList(get: (url: string) => Promise<RawResponse>, url: string): Promise<DecodedStatusList> {
  const response = await get(url)
  assert.equal(response.status, 200, `status list answered ${response.status} ${response.text}`)
  const jwt = response.text
  const payload: Json = decodeJwt(jwt)
  const subject = payload.vc.credentialSubject
  assert.equal(subject.type, 'BitstringStatusList')
  assert.equal(subject.statusPurpose, 'revocation')
  assert.ok(subject.encodedList.startsWith('u'), 'multibase base64url ("u")')
  const list = await decodeList({ encodedList: subject.encodedList })
  return { response, jwt, payload, list }
}

/**
 * Verifies a compact JWS with the DID document's verification method named by its `kid`; asserts that
 * the method is listed in `assertionMethod`. Returns the verified payload.
 */
export async function verifyWithDidDocument(jwt: string, didDocument: Json): Promise<Json> {
  const { kid, alg } = decodeProtectedHeader(jwt)
  assert.equal(alg, 'ES256')
  assert.equal(typeof kid, 'string')
  const method = didDocument.verificationMethod.find((candidate: { id: string }) => candidate.id === kid)
  assert.ok(method, `kid ${kid} is a verification method of ${didDocument.id}`)
  assert.ok(didDocument.assertionMethod.includes(kid), `kid ${kid} is an assertion method`)
  const key = await importJWK(method.publicKeyJwk as JWK, 'ES256')
  const { payload } = await compactVerify(jwt, key, { algorithms: ['ES256'] })
  return JSON.parse(new TextDecoder().decode(payload))
}
