import { ed25519DidKeyDocument } from './did-key.ts'

/** What a DID Authentication presentation may hold: the wallet's is about 1.5 KB and holds no credential. */
const PRESENTATION_MEMBERS: ReadonlySet<string> = new Set(['@context', 'type', 'id', 'holder', 'proof'])

/** What the wallet's `Ed25519Signature2020` proof holds (LCW `app/lib/present.ts`), `domain` when a request names one. */
const PROOF_MEMBERS: ReadonlySet<string> = new Set(['type', 'created', 'verificationMethod', 'proofPurpose', 'challenge', 'domain', 'proofValue'])

/** The wallet names two contexts (VC and the suite's); a few more are let through, none inline. */
const MAX_CONTEXTS = 4

/** An Ed25519 signature in base58btc is about 88 characters. */
const MAX_PROOF_VALUE_LENGTH = 128

/** A member name as the refusal quotes it: the caller's text, so bounded. */
const quoted = (name: string) => `"${name.length > 40 ? `${name.slice(0, 40)}…` : name}"`

/**
 * Why `body` is no DID Authentication of the kind the Learner Credential Wallet sends, or `null` when
 * it is one in shape (docs/learner-credential-wallet.md § Before any JSON-LD work): a presentation of
 * `@context`, `type`, `id`, `holder` and `proof` only, by an Ed25519 did:key, with exactly one
 * `Ed25519Signature2020` proof for `authentication` that answers `challenge`, by the holder's one key.
 * Checked on the JSON alone, before anything canonicalizes it: the presentation is the caller's, and
 * canonicalizing what it stuffs in (thousands of credentials) is the cost this check keeps off.
 */
export function didAuthenticationRefusal(body: unknown, challenge: string): string | null {
  if (!isObject(body) || ![body.type].flat().includes('VerifiablePresentation')) {
    return 'Send a DID Authentication verifiable presentation whose proof answers this exchange’s challenge.'
  }
  const extra = Object.keys(body).filter((name) => !PRESENTATION_MEMBERS.has(name))
  if (extra.length > 0) {
    return `A DID Authentication holds only @context, type, id, holder and proof, not ${extra.slice(0, 3).map(quoted).join(', ')}.`
  }
  const contexts = [body['@context']].flat()
  if (contexts.length === 0 || contexts.length > MAX_CONTEXTS || !contexts.every((context) => typeof context === 'string')) {
    return `The presentation's @context must name at most ${MAX_CONTEXTS} contexts by URL.`
  }
  if (![body.type].flat().every((type) => typeof type === 'string') || (body.id !== undefined && typeof body.id !== 'string')) {
    return 'The presentation’s type and id must be strings.'
  }
  const holder = body.holder
  if (typeof holder !== 'string' || ed25519DidKeyDocument(holder) === null) return 'The presentation’s holder must be an Ed25519 did:key.'
  // jsonld-signatures accepts a document when any one of its proofs verifies.
  const proofs = [body.proof].flat().filter((proof) => proof !== undefined)
  if (proofs.length !== 1 || !isObject(proofs[0])) return 'The presentation must carry exactly one proof.'
  return proofRefusal(proofs[0], holder, challenge)
}

function proofRefusal(proof: Record<string, unknown>, holder: string, challenge: string): string | null {
  if (proof.type !== 'Ed25519Signature2020') return 'The presentation’s proof must be an Ed25519Signature2020 proof.'
  if (proof.proofPurpose !== 'authentication') return 'The proof purpose must be authentication.'
  if (proof.challenge !== challenge) return 'The proof does not answer this exchange’s challenge.'
  // The key must be the holder's (its did:key has one, `did#fingerprint`): a presentation of one DID signed by another's key proves nothing.
  if (proof.verificationMethod !== `${holder}#${holder.slice('did:key:'.length)}`) return 'The proof is not by a key of the holder.'
  const extra = Object.keys(proof).filter((name) => !PROOF_MEMBERS.has(name))
  if (extra.length > 0) return `The proof holds ${extra.slice(0, 3).map(quoted).join(', ')}, which a DID Authentication proof does not.`
  if (!Object.values(proof).every((value) => typeof value === 'string')) return 'Every member of the proof must be a string.'
  if (typeof proof.proofValue !== 'string' || proof.proofValue.length > MAX_PROOF_VALUE_LENGTH)
    return 'The proof must carry one Ed25519 signature as its proofValue.'
  return null
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
