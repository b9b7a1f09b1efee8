import { KeyObject, hash, sign as signWith } from 'node:crypto'
import { DataIntegrityProof, type DataIntegritySigningKey } from '@digitalbazaar/data-integrity'
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite'
import jsigs from 'jsonld-signatures'
import type { DocumentLoader, ProofRequest } from '../../../core/ports/data-integrity-signer.ts'
import { proofRequestOfJwt } from '../../../core/credentials/prove-jwts.ts'
import type { DataIntegrityProofPath } from '../../../core/ports/metrics.ts'
import { base58btc, base58btcDecode } from './base58btc.ts'
import { canonicalNQuads } from './canonize.ts'
import { documentShapeOf, writeQuads } from './credential-quads.ts'
import type { DocumentShape } from './shapes.ts'

/** `fast`: quads written from the shape, RDFC-1.0 labelled here; `reference`: Digital Bazaar's libraries end to end. */
export type ProofPath = DataIntegrityProofPath

export interface Proved {
  secured: Record<string, unknown>
  path: ProofPath
}

/** A stored credential's proof by its JWT: the proof's JSON text, as the proof round stores it. */
export interface ProvedJwt {
  path: ProofPath
  json: string
}

/** The proof's members before `proofValue`, in the order jsonld-signatures writes them. */
interface ProofOptions {
  type: 'DataIntegrityProof'
  created: string
  verificationMethod: string
  cryptosuite: 'eddsa-rdfc-2022'
  proofPurpose: 'assertionMethod'
}

/**
 * The canonical proof options of one shape and verification method, split where `created` goes, and the
 * hash of the last options made from it: the credentials of one round mostly share their `created` (their
 * `validFrom`, in whole seconds), so the options' hash is made once for them.
 */
interface OptionsTemplate {
  before: string
  after: string
  last: { created: string; hash: Uint8Array } | null
}

/** A `created` DataIntegrityProof keeps as it is (`w3cDate`: whole seconds, UTC), and N-Quads never escapes. */
const CREATED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/
/** The stand-in `created` of the template, found once in the canonical options and replaced. */
const PROBE = '2000-01-01T00:00:00Z'

/**
 * `eddsa-rdfc-2022` proofs (W3C Data Integrity EdDSA Cryptosuites v1.0 §3.3), the same bytes as Digital
 * Bazaar's libraries make (docs/decisions/0044-data-integrity-proofs-without-a-json-ld-processor.md). The
 * fast path: the credential's quads written from its shape (credential-quads.ts), canonicalized
 * (canonize.ts), the canonical proof options from a template made once per shape and verification method
 * by the reference itself; then SHA-256 of each, the Ed25519 signature, base58btc. Whatever the fast path
 * is not sure of (a shape it does not know, a loader that does not answer clubcred's contexts, an odd
 * `created`) goes through jsonld-signatures as before, in JSON-LD safe mode. `trusted` names the shapes
 * whose contexts the call's loader answers with clubcred's copies (trusted-contexts.ts).
 */
export function createEddsaRdfc2022() {
  const templates = new Map<string, Promise<OptionsTemplate | null>>()

  /** The hash of the canonical proof options and the canonical document for a shape's fast path, or `null` for the reference path. */
  async function fastForms(
    document: Record<string, unknown>,
    options: ProofOptions,
    documentLoader: DocumentLoader,
    trusted: readonly string[],
  ): Promise<Forms | null> {
    const shape = documentShapeOf(document)
    if (!shape || !trusted.includes(shape.name)) return null
    const quads = writeQuads(document, shape)
    if (!quads) return null
    const template = await templateOf(shape, options.verificationMethod, documentLoader)
    const optionsHash = template && optionsHashOf(template, options.created)
    if (!optionsHash) return null
    return { optionsHash, document: await canonicalNQuads(quads) }
  }

  /** The hash of the canonical options with `created`; `null` for a `created` the template cannot take. */
  function optionsHashOf(template: OptionsTemplate, created: string): Uint8Array | null {
    if (template.last?.created === created) return template.last.hash
    if (!CREATED.test(created) || new Date(created).toISOString().slice(0, -5) + 'Z' !== created) return null
    template.last = { created, hash: sha256(template.before + created + template.after) }
    return template.last.hash
  }

  function templateOf(shape: DocumentShape, verificationMethod: string, documentLoader: DocumentLoader): Promise<OptionsTemplate | null> {
    const key = `${shape.name} ${verificationMethod}`
    let template = templates.get(key)
    if (!template) {
      if (templates.size >= 1000) templates.clear()
      const probe = proofOptions(verificationMethod, PROBE)
      // As DataIntegrityProof.canonizeProof does: the document's context, the proof without its value.
      template = cryptosuite
        .canonize({ '@context': shape.context, ...probe }, { documentLoader, safe: true, base: null, skipExpansion: false })
        .then((text) => {
          const parts = text.split(`"${PROBE}"`)
          return parts.length === 2 ? { before: `${parts[0]}"`, after: `"${parts[1]}`, last: null } : null
        })
      templates.set(key, template)
      template.catch(() => templates.delete(key))
    }
    return template
  }

  async function referenceSign(privateKey: CryptoKey, verificationMethod: string, { credential, created }: ProofRequest, documentLoader: DocumentLoader) {
    const suite = new DataIntegrityProof({ signer: ed25519Signer(privateKey, verificationMethod), date: created, cryptosuite })
    // A shallow copy: jsonld-signatures adds `proof` to the object it is given.
    return jsigs.sign({ ...credential }, { suite, purpose: new jsigs.purposes.AssertionProofPurpose(), documentLoader })
  }

  const suite = {
    /** Each credential with its proof, in order, one at a time (canonicalization is CPU-bound), and the path each took. */
    async sign(privateKey: CryptoKey, verificationMethod: string, requests: ProofRequest[], documentLoader: DocumentLoader, trusted: readonly string[]) {
      const proved: Proved[] = []
      for (const request of requests) {
        const options = proofOptions(verificationMethod, request.created)
        const forms = 'proof' in request.credential ? null : await fastForms(request.credential, options, documentLoader, trusted)
        if (!forms) {
          proved.push({ secured: await referenceSign(privateKey, verificationMethod, request, documentLoader), path: 'reference' })
          continue
        }
        const signature = await ed25519(privateKey, verifyData(forms))
        proved.push({ secured: { ...request.credential, proof: { ...options, proofValue: `z${base58btc(signature)}` } }, path: 'fast' })
      }
      return proved
    },

    /** The proofs of stored credentials by their JWTs (core/credentials/prove-jwts.ts), each as its JSON text, in order. */
    async proveJwts(privateKey: CryptoKey, verificationMethod: string, jwts: string[], documentLoader: DocumentLoader, trusted: readonly string[]) {
      const proved = await suite.sign(privateKey, verificationMethod, jwts.map(proofRequestOfJwt), documentLoader, trusted)
      return proved.map((one): ProvedJwt => ({ path: one.path, json: JSON.stringify(one.secured.proof) }))
    },

    /**
     * Whether `secured`'s proof verifies with `publicKey` (its verification method's key, which the caller
     * resolved): the canonical forms as signing makes them, fast where signing would be, else through the
     * cryptosuite in safe mode; a proof other than clubcred's kind of `eddsa-rdfc-2022` proof is `false`.
     */
    async verify(secured: Record<string, unknown>, publicKey: CryptoKey, documentLoader: DocumentLoader, trusted: readonly string[]): Promise<boolean> {
      const { proof, ...document } = secured
      const candidate = (Array.isArray(proof) && proof.length === 1 ? proof[0] : proof) as Record<string, unknown> | undefined
      if (!candidate || typeof candidate !== 'object') return false
      const { proofValue, ...rest } = candidate
      const options = proofOptions(String(rest.verificationMethod), String(rest.created))
      if (JSON.stringify(rest) !== JSON.stringify(options) || typeof proofValue !== 'string' || !proofValue.startsWith('z')) return false
      const forms = (await fastForms(document, options, documentLoader, trusted)) ?? {
        optionsHash: sha256(await cryptosuite.canonize({ '@context': document['@context'], ...options }, { documentLoader, safe: true, base: null })),
        document: await cryptosuite.canonize(document, { documentLoader, safe: true, base: null }),
      }
      const signature = base58btcDecode(proofValue.slice(1))
      if (!signature) return false
      return crypto.subtle.verify('Ed25519', publicKey, signature, verifyData(forms))
    },
  }
  return suite
}

const keyObjects = new WeakMap<CryptoKey, KeyObject | null>()

/**
 * The Ed25519 signature of `data`: node:crypto's, synchronous, where the key converts to a KeyObject (a
 * WebCrypto signature waits for the thread pool, which costs a proof more than the signing); WebCrypto's
 * where it does not. Ed25519 is deterministic: the same bytes either way.
 */
async function ed25519(privateKey: CryptoKey, data: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  let keyObject = keyObjects.get(privateKey)
  if (keyObject === undefined) {
    try {
      keyObject = KeyObject.from(privateKey)
    } catch {
      keyObject = null
    }
    keyObjects.set(privateKey, keyObject)
  }
  if (keyObject) return new Uint8Array(signWith(null, data, keyObject))
  return new Uint8Array(await crypto.subtle.sign('Ed25519', privateKey, data))
}

function proofOptions(verificationMethod: string, created: string): ProofOptions {
  return { type: 'DataIntegrityProof', created, verificationMethod, cryptosuite: 'eddsa-rdfc-2022', proofPurpose: 'assertionMethod' }
}

/** What is signed: the SHA-256 hash of the canonical proof options, and the canonical document, to be hashed. */
interface Forms {
  optionsHash: Uint8Array
  document: string
}

/** SHA-256 of the canonical proof options, then of the canonical document (§3.3.4 hashing), as @digitalbazaar/data-integrity hashes them. */
function verifyData(forms: Forms): Uint8Array<ArrayBuffer> {
  const data = new Uint8Array(64)
  data.set(forms.optionsHash, 0)
  data.set(sha256(forms.document), 32)
  return data
}

/** One call, without a Hash object: half the cost of `createHash` for a short text (node:crypto's `hash`, Node 20.12 and Deno 2). */
function sha256(text: string): Uint8Array {
  return hash('sha256', text, 'buffer')
}

function ed25519Signer(privateKey: CryptoKey, verificationMethod: string): DataIntegritySigningKey {
  return {
    id: verificationMethod,
    algorithm: 'Ed25519',
    async sign({ data }) {
      return new Uint8Array(await crypto.subtle.sign('Ed25519', privateKey, data))
    },
  }
}
