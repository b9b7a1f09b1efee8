/**
 * The fast path of Data Integrity proofs (docs/decisions/0044-data-integrity-proofs-without-a-json-ld-processor.md):
 * its canonical N-Quads equal, byte for byte, what `jsonld` + `rdf-canonize` make in safe mode (the
 * cryptosuite's own `canonize`) over generated credentials and status lists; what it is not sure of goes the
 * reference path, where safe mode refuses an undefined term as before; its proofs are the reference's,
 * byte for byte, and verify with `@digitalbazaar/vc`. The long run (10,000 credentials) is
 * bench/data-integrity-differential.bench.ts.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { DataIntegrityProof } from '@digitalbazaar/data-integrity'
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite'
import { verifyCredential } from '@digitalbazaar/vc'
import didContext from 'did-context'
import multikeyContext from '@digitalbazaar/multikey-context'
import rdfCanonize from 'rdf-canonize'
import { canonicalNQuads } from '../../adapters/node/data-integrity/canonize.ts'
import { escapeLiteral } from '../../adapters/node/data-integrity/n-quads.ts'
import { documentShapeOf, writeQuads } from '../../adapters/node/data-integrity/credential-quads.ts'
import { createEddsaRdfc2022 } from '../../adapters/node/data-integrity/eddsa-rdfc-2022.ts'
import { base58btc, base58btcDecode } from '../../adapters/node/data-integrity/base58btc.ts'
import { createDataIntegritySigner } from '../../adapters/node/data-integrity-signer.ts'
import { contextLoader, statusListContextLoader } from '../../core/credentials/context-loader.ts'
import type { DocumentLoader } from '../../core/ports/data-integrity-signer.ts'
import { openBadgeCredential, statusListCredential } from '../support/credential-arbitrary.ts'
import { VERIFIER_CONTEXTS } from '../support/data-integrity-verifier.ts'

const BOTH = ['open-badge-credential', 'status-list-credential']

/** The reference: what DataIntegrityProof hashes, or the error safe mode throws. */
async function reference(document: Record<string, unknown>, documentLoader: DocumentLoader): Promise<string | Error> {
  return cryptosuite.canonize(document, { documentLoader, safe: true, base: null }).catch((error: Error) => error)
}

async function fast(document: Record<string, unknown>): Promise<string | null> {
  const shape = documentShapeOf(document)
  const quads = shape && writeQuads(document, shape)
  return quads ? canonicalNQuads(quads) : null
}

/**
 * Compares both on `document`: never fast where the reference refuses; where it canonicalizes, the fast
 * path's N-Quads equal its own, or (`mayDecline`) the fast path declines and signing takes the reference.
 * `accepted`: the reference must canonicalize it (what clubcred engraves always has a proof).
 */
async function compare(document: Record<string, unknown>, documentLoader: DocumentLoader, { mayDecline = false, accepted = false } = {}): Promise<void> {
  const [expected, actual] = await Promise.all([reference(document, documentLoader), fast(document)])
  if (accepted) assert.ok(!(expected instanceof Error), `JSON-LD refuses a credential clubcred made: ${String(expected)}`)
  if (expected instanceof Error) assert.equal(actual, null, `the reference refuses (${expected.message}), so the fast path must not write it`)
  else if (!(mayDecline && actual === null)) assert.equal(actual, expected)
}

function baseCredential(): Record<string, unknown> {
  return fc.sample(openBadgeCredential, { numRuns: 1, seed: 39 })[0]!
}

describe('the fast path of eddsa-rdfc-2022', () => {
  it('writes the canonical N-Quads jsonld + rdf-canonize make in safe mode, for generated credentials', async () => {
    await fc.assert(
      // Co-issuers without a url among them, which JSON-LD refused when engraved with `"id": null` (docs/decisions/0051-one-csv-path-and-no-null-id.md).
      fc.asyncProperty(openBadgeCredential, (credential) => compare(credential, contextLoader, { accepted: true })),
      { numRuns: 150 },
    )
  })

  it('writes the canonical N-Quads of generated status lists', async () => {
    await fc.assert(
      fc.asyncProperty(statusListCredential, (list) => compare(list, statusListContextLoader)),
      { numRuns: 40 },
    )
  })

  it('labels blank nodes with equal first-degree hashes (two identical evidences) as RDFC-1.0 does', async () => {
    const credential = baseCredential()
    const same = { type: ['Evidence'], name: 'Game', description: 'A won game' }
    const twice = { ...credential, evidence: [same, { ...same }, { type: ['Evidence'], name: 'Other' }] }
    await compare(twice, contextLoader)
    assert.notEqual(await fast(twice), null)
  })

  it('writes a quad once where JSON nodes share an id or an array repeats a value, as jsonld merges them', async () => {
    const credential = baseCredential()
    const subject = credential.credentialSubject as Record<string, unknown>
    const achievement = subject.achievement as Record<string, unknown>
    const issuer = credential.issuer as { id: string; name: string }
    const withAchievement = (changes: Record<string, unknown>) => ({
      ...credential,
      credentialSubject: { ...subject, achievement: { ...achievement, ...changes } },
    })
    const partner = (id: string, name: string) => ({ id, name, url: null, role: 'partner', isVerified: false })
    const documents: Record<string, Record<string, unknown>> = {
      'the issuer again as a co-issuer, with its name': withAchievement({
        'x-partnerOrganizations': [partner(issuer.id, issuer.name), partner(issuer.id, 'Other')],
      }),
      'a co-issuer whose id is the achievement’s own, before its other members': {
        ...credential,
        credentialSubject: {
          ...subject,
          achievement: { 'x-partnerOrganizations': [partner(String(achievement.id), String(achievement.name))], ...achievement },
        },
      },
      'two evidences with one id': {
        ...credential,
        evidence: [
          { id: 'https://evidence.example/1', type: ['Evidence'], name: 'Game' },
          { id: 'https://evidence.example/1', type: ['Evidence'], name: 'Game', description: 'Won' },
        ],
      },
      'an evidence whose id is the credential’s, with its name': {
        ...credential,
        evidence: [{ id: credential.id, type: ['Evidence'], name: credential.name }],
      },
      'a tag twice': withAchievement({ tag: ['chess', 'endgames', 'chess'] }),
    }
    for (const [name, document] of Object.entries(documents)) {
      assert.notEqual(await fast(document), null, name)
      await compare(document, contextLoader)
    }
  })

  it('orders lines whose blank nodes are labelled past _:c14n9 as rdf-canonize does', async () => {
    const credential = baseCredential()
    const evidence = Array.from({ length: 12 }, (_, i) => ({ type: ['Evidence'], name: `Game ${i}`, ...(i % 3 ? { description: `Move ${i}` } : {}) }))
    const document = { ...credential, evidence }
    const canonical = await fast(document)
    assert.match(canonical ?? '', /_:c14n11 /)
    await compare(document, contextLoader)
  })

  it('leaves to the reference path what its shapes do not hold, and safe mode still refuses an undefined term', async () => {
    const credential = baseCredential()
    const subject = credential.credentialSubject as Record<string, unknown>
    const achievement = subject.achievement as Record<string, unknown>
    const changed: Record<string, Record<string, unknown>> = {
      'an undefined term': { ...credential, favouriteColour: 'green' },
      'a term another context defines': { ...credential, description: 'defined by VC 2.0, not by the shape' },
      'another type': { ...credential, type: ['VerifiableCredential', 'AchievementCredential'] },
      'types in another order': { ...credential, type: ['OpenBadgeCredential', 'VerifiableCredential'] },
      'another context list': { ...credential, '@context': (credential['@context'] as unknown[]).slice(0, 2) },
      'the inline context with its members in another order': {
        ...credential,
        '@context': (credential['@context'] as unknown[]).map((entry) =>
          typeof entry === 'string' ? entry : Object.fromEntries(Object.entries(entry as object).reverse()),
        ),
      },
      'the inline context with one more term': {
        ...credential,
        '@context': (credential['@context'] as unknown[]).map((entry) =>
          typeof entry === 'string' ? entry : { ...(entry as object), colour: 'https://example.com/colour' },
        ),
      },
      'a number where text goes': { ...credential, name: 42 },
      'an object where text goes': { ...credential, name: { '@value': 'x', '@language': 'en' } },
      'a co-issuer whose id is null': {
        ...credential,
        credentialSubject: {
          ...subject,
          achievement: { ...achievement, 'x-partnerOrganizations': [{ id: null, name: 'P', role: 'partner', isVerified: false }] },
        },
      },
      'an IRI with a space': { ...credential, id: 'urn:uuid:a b' },
      'a relative IRI': { ...credential, issuer: { ...(credential.issuer as object), id: 'chess' } },
      'a blank node identifier': { ...credential, issuer: { ...(credential.issuer as object), id: '_:b0' } },
      'a keyword member': { ...credential, '@id': 'urn:uuid:x' },
      'a proof already': { ...credential, proof: { type: 'DataIntegrityProof' } },
    }
    for (const [name, document] of Object.entries(changed)) {
      assert.equal(await fast(document), null, name)
      await compare(document, contextLoader, { mayDecline: true })
    }
    const refused = await reference(changed['an undefined term']!, contextLoader)
    assert.ok(refused instanceof Error && /safe mode/i.test(refused.message), String(refused))
  })

  it('makes the proofs the reference path makes, byte for byte, which @digitalbazaar/vc verifies', async () => {
    const { privateKey, publicKey } = (await crypto.subtle.generateKey('Ed25519', true, ['sign', 'verify'])) as CryptoKeyPair
    const publicKeyMultibase = `z${base58btc(new Uint8Array([0xed, 0x01, ...new Uint8Array(await crypto.subtle.exportKey('raw', publicKey))]))}`
    const suite = createEddsaRdfc2022()
    const credentials = fc.sample(openBadgeCredential, { numRuns: 12, seed: 3939 })
    for (const credential of credentials) {
      const did = String((credential.issuer as { id: string }).id)
      const verificationMethod = `${did}#key-1`
      const request = [{ credential, created: String(credential.validFrom) }]
      const [viaFast] = await suite.sign(privateKey, verificationMethod, request, contextLoader, BOTH)
      const [viaReference] = await suite.sign(privateKey, verificationMethod, request, contextLoader, [])
      assert.equal(viaFast!.path, 'fast')
      assert.equal(viaReference!.path, 'reference')
      assert.equal(JSON.stringify(viaFast!.secured), JSON.stringify(viaReference!.secured))
      assert.equal(await suite.verify(viaFast!.secured, publicKey, contextLoader, BOTH), true)

      const method = { id: verificationMethod, type: 'Multikey', controller: did, publicKeyMultibase }
      const controller = {
        '@context': [didContext.CONTEXT_URL, multikeyContext.CONTEXT_URL],
        id: did,
        verificationMethod: [method],
        assertionMethod: [method.id],
      }
      const documentLoader = async (url: string) => {
        const document =
          VERIFIER_CONTEXTS.get(url) ?? (url === did ? controller : url === verificationMethod ? { '@context': controller['@context'], ...method } : undefined)
        if (document === undefined) throw new Error(`no document ${url}`)
        return { contextUrl: null, documentUrl: url, document }
      }
      const result = await verifyCredential({
        credential: viaFast!.secured,
        now: new Date(String(credential.validFrom)),
        suite: new DataIntegrityProof({ cryptosuite }),
        documentLoader,
        checkStatus: async () => ({ verified: true }),
      })
      assert.equal(result.verified, true, JSON.stringify(result.error ?? result))
      const tampered = { ...viaFast!.secured, name: `${String(credential.name)}!` }
      assert.equal(await suite.verify(tampered, publicKey, contextLoader, BOTH), false)
    }
  })

  it('takes the reference path for a loader that does not answer clubcred’s copies, the fast path for the status list’s, and counts each path', async () => {
    const { privateKey } = (await crypto.subtle.generateKey('Ed25519', true, ['sign', 'verify'])) as CryptoKeyPair
    const privateJwk = await crypto.subtle.exportKey('jwk', privateKey)
    const key = { kid: 'key-1', owner: 'club-ed25519:chess', alg: 'Ed25519' as const, privateKey, privateJwk, publicJwk: {}, active: true, createdAt: 0 }
    const credential = baseCredential()
    const vm = `${String((credential.issuer as { id: string }).id)}#key-1`
    const counted: string[] = []
    const signer = createDataIntegritySigner({ threads: 0, onProofs: (path, count) => counted.push(`${path} ${count}`) })
    // The same contexts, their members in another order: the same meaning, but not clubcred's copies as they are.
    const ownLoader: DocumentLoader = async (url) => {
      const loaded = await contextLoader(url)
      const { '@context': terms } = loaded.document as { '@context': object }
      return { ...loaded, document: { '@context': Object.fromEntries(Object.entries(terms).reverse()) } }
    }
    const [viaOwn] = await signer.signMany(key, vm, [{ credential, created: String(credential.validFrom) }], ownLoader)
    const [viaClubcred] = await signer.signMany(key, vm, [{ credential, created: String(credential.validFrom) }], contextLoader)
    assert.deepEqual(viaOwn, viaClubcred)
    // The status list's own proof (core/status-lists/credential.ts signs it under statusListContextLoader) takes the fast path too.
    const list = fc.sample(statusListCredential, { numRuns: 1, seed: 39 })[0]!
    const [listProved] = await signer.signMany(key, vm, [{ credential: list, created: String(list.validFrom) }], statusListContextLoader)
    assert.ok(listProved!.proof)
    assert.deepEqual(counted, ['reference 1', 'fast 1', 'fast 1'])
  })

  it('escapes literals as rdf-canonize’s N-Quads writer does, for every character it escapes and for the rest', () => {
    const serialized = (value: string) =>
      rdfCanonize.NQuads.serializeQuadComponents(
        { termType: 'BlankNode', value: 'x' },
        { termType: 'NamedNode', value: 'urn:p' },
        { termType: 'Literal', value, datatype: { termType: 'NamedNode', value: 'http://www.w3.org/2001/XMLSchema#string' } },
        { termType: 'DefaultGraph', value: '' },
      )
    for (let code = 0; code <= 0xffff; code++) {
      const value = `a${String.fromCharCode(code)}b`
      assert.equal(`_:x <urn:p> "${escapeLiteral(value)}" .\n`, serialized(value), `U+${code.toString(16)}`)
    }
  })

  it('encodes base58btc with leading zeros as 1s, and decodes it back', () => {
    assert.equal(base58btc(new TextEncoder().encode('Hello World!')), '2NEpo7TZRRrLZSi2U')
    assert.equal(base58btc(new Uint8Array([0, 0, 1])), '112')
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), fc.nat({ max: 4 }), (bytes, zeros) => {
        const input = new Uint8Array([...new Array<number>(zeros).fill(0), ...bytes])
        assert.deepEqual(base58btcDecode(base58btc(input)), input)
        assert.equal(base58btc(input), slowBase58btc(input))
      }),
      { numRuns: 300 },
    )
  })
})

/** Base58btc by the textbook: the number in base 256, divided by 58 digit by digit. */
function slowBase58btc(bytes: Uint8Array): string {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
  let value = 0n
  for (const byte of bytes) value = value * 256n + BigInt(byte)
  let text = ''
  for (; value > 0n; value /= 58n) text = alphabet[Number(value % 58n)]! + text
  return '1'.repeat(bytes.findIndex((byte) => byte !== 0) === -1 ? bytes.length : bytes.findIndex((byte) => byte !== 0)) + text
}
