import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { decodeProtectedHeader } from 'jose'
import { verifyCredential } from 'did-jwt-vc'
import { Resolver, type DIDResolutionResult, type ParsedDID } from 'did-resolver'
import { openVerificationApi, type VerificationApi } from '../../support/api-harness.ts'
import {
  clubPaths,
  createTemplate,
  credentialOf,
  detailOf,
  expectStatus,
  issueTo,
  members,
  statusEntryOf,
  verdictOf,
} from '../../support/verification-steps.ts'
import { fetchStatusList, verifyWithDidDocument } from '../../support/verification-status-list.ts'

/**
 * Verification by tools no one here wrote (docs/api.md §4.11, docs/decisions/0014-signed-credential.md):
 * the issuer served on a real port, its credential verified by did-jwt-vc resolving the
 * club's did:web over HTTP through did-resolver, and its revocation list decoded by Digital Bazaar's
 * Bitstring Status List implementation. The only thing written here is the did:web mapping to plain http
 * on the local port.
 */

/**
 * did:web resolution (https://w3c-ccg.github.io/did-method-web/) with one change: http instead of https,
 * since the test server listens on a local port without TLS. `did:web:host%3Aport:a:b` → `http://host:port/a/b/did.json`.
 */
function localDidWeb(): Resolvable {
  const resolver = new Resolver({
    async web(did: string, parsed: ParsedDID): Promise<DIDResolutionResult> {
      const [host, ...path] = parsed.id.split(':').map(decodeURIComponent)
      const url = `http://${host}/${path.length > 0 ? path.join('/') : '.well-known'}/did.json`
      const response = await fetch(url, { headers: { accept: 'application/did+json, application/json' } })
      if (!response.ok) {
        return { didDocument: null, didDocumentMetadata: {}, didResolutionMetadata: { error: 'notFound', message: `${url} answered ${response.status}` } }
      }
      const didDocument = await response.json()
      if (didDocument.id !== did) {
        return { didDocument: null, didDocumentMetadata: {}, didResolutionMetadata: { error: 'invalidDid', message: `${url} holds ${didDocument.id}` } }
      }
      return { didDocument, didDocumentMetadata: {}, didResolutionMetadata: { contentType: 'application/did+json' } }
    },
  })
  // did-jwt-vc bundles its own (older) did-resolver whose DIDResolutionResult types `@context` more
  // narrowly; the objects are the same at run time.
  return resolver as unknown as Resolvable
}

type Resolvable = Parameters<typeof verifyCredential>[1]

let api: VerificationApi
let issuanceId: number
let jwt: string
let credentialId: string
before(async () => {
  api = await openVerificationApi({ listen: true })
  const templateId = await createTemplate(api, { name: 'Endgame study', description: 'Studied king and pawn endings.' })
  ;[issuanceId] = (await issueTo(api, templateId, members(1))) as [number]
  await api.issuer.worker.drain()
  const pointer = (await detailOf(api, issuanceId)).credential
  credentialId = pointer.id
  // The JWT as anyone gets it: the public jwtUrl, over the real socket.
  const response = await api.get(pointer.jwtUrl)
  assert.equal(response.status, 200)
  jwt = response.text
  assert.equal(jwt, (await credentialOf(api, issuanceId)).jwt)
})
after(async () => {
  await api.close()
})

describe('did-jwt-vc verifies a credential through the did:web DID document served here', () => {
  it('verifyCredential resolves the issuer DID over HTTP and verifies the signature', async () => {
    assert.ok(api.did.startsWith(`did:web:127.0.0.1%3A${new URL(api.origin).port}:`), api.did)
    // OB 3.0 credentials use the VC Data Model 2.0 context; did-jwt-vc's optional `format` check only
    // knows the 1.1 context, so it is switched off. Signature, DID resolution, nbf/exp stay on.
    const verified = await verifyCredential(jwt, localDidWeb(), { policies: { format: false } })
    assert.equal(verified.issuer, api.did)
    assert.equal(verified.payload.iss, api.did)
    assert.equal(verified.didResolutionResult.didDocument?.id, api.did)
    assert.equal(verified.signer.id, decodeProtectedHeader(jwt).kid, 'the key the header names')
    assert.ok(verified.signer.id.startsWith(`${api.did}#`))
    assert.equal(verified.signer.type, 'JsonWebKey2020')
    assert.equal(verified.verifiableCredential.id, `urn:uuid:${credentialId}`)
    const issuer = verified.verifiableCredential.issuer as { id: string }
    assert.equal(issuer.id, api.did)
  })

  it('a JWT with one altered payload character does not verify', async () => {
    const [header, payload, signature] = jwt.split('.') as [string, string, string]
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString())
    claims.vc.credentialSubject.achievement.name = 'Grandmaster'
    const forged = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`
    await assert.rejects(verifyCredential(forged, localDidWeb(), { policies: { format: false } }), /invalid_signature|signature/i)
  })

  it('a DID that names another club does not resolve (404 club-not-found behind it)', async () => {
    const result = await localDidWeb().resolve(api.did.replace(/chess$/, 'checkers'))
    assert.equal(result.didDocument, null)
    assert.equal(result.didResolutionMetadata.error, 'notFound')
  })
})

describe('the revocation list read with @digitalbazaar/vc-bitstring-status-list', () => {
  it('holds at least 131,072 entries, is signed by a key of the DID document, and the bit follows revocation', async () => {
    const entry = statusEntryOf(jwt)
    assert.equal(entry.type, 'BitstringStatusListEntry')
    assert.equal(entry.statusPurpose, 'revocation')
    assert.equal(entry.statusListCredential, api.origin + clubPaths().statusList)
    assert.equal(entry.id, `${entry.statusListCredential}#${entry.statusListIndex}`)
    assert.match(entry.statusListIndex, /^(0|[1-9]\d*)$/)
    const index = Number(entry.statusListIndex)

    const didDocument = expectStatus(await api.get(clubPaths().didDocument), 200, 'did.json')
    const before = await fetchStatusList(api.get, entry.statusListCredential)
    assert.ok(before.list.length >= 131_072, `list length ${before.list.length}`)
    assert.ok(index < before.list.length)
    assert.equal(before.list.getStatus(index), false, 'not revoked yet')
    const claims = await verifyWithDidDocument(before.jwt, didDocument)
    assert.equal(claims.iss, api.did)
    assert.equal(claims.vc.issuer, api.did)
    assert.equal(claims.vc.id, entry.statusListCredential)
    assert.ok(claims.vc.type.includes('BitstringStatusListCredential'))

    expectStatus(await api.call('POST', clubPaths().revoke(issuanceId)), 200, 'revoke')

    const afterRevoke = await fetchStatusList(api.get, entry.statusListCredential)
    assert.equal(afterRevoke.list.getStatus(index), true, 'revoked')
    assert.equal(afterRevoke.list.length, before.list.length)
    for (let other = 0; other < afterRevoke.list.length; other++) {
      if (other !== index && afterRevoke.list.getStatus(other)) assert.fail(`bit ${other} is set too`)
    }
    await verifyWithDidDocument(afterRevoke.jwt, didDocument)
    assert.notEqual(afterRevoke.jwt, before.jwt, 're-signed')

    // did-jwt-vc still says the signature holds: revocation is the list's business, not the JWT's.
    await verifyCredential(jwt, localDidWeb(), { policies: { format: false } })
    const verdict = expectStatus(await verdictOf(api, issuanceId), 200, 'verdict')
    assert.equal(verdict.isValid, true)
    assert.equal(verdict.status, 'revoked')
  })
})
