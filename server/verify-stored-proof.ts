import { credentialOfJwt } from '../core/credentials/json-ld-form.ts'
import { contextLoader } from '../core/credentials/context-loader.ts'
import { clubDataIntegrityKeyOwner } from '../core/did-documents/did.ts'
import type { StoredKey } from '../core/keys/stored-key.ts'
import { createEddsaRdfc2022 } from '../adapters/node/data-integrity/eddsa-rdfc-2022.ts'
import { shapesTrustedBy } from '../adapters/node/data-integrity/trusted-contexts.ts'

/**
 * Checks a stored credential's Data Integrity proof against the stored keys, as a verifier would against
 * the club's DID document (docs/backup.md, `verify-backup FILE`): the JSON-LD form (the JWT's `vc` with the
 * proof) must carry an `eddsa-rdfc-2022` proof whose verification method names an Ed25519 key of the
 * credential's club, and whose signature verifies with that key's public half over the canonical forms,
 * made as signing makes them (the fast path where signing takes it, else the JSON-LD processor in safe
 * mode). Returns why it fails, or `null`. One checker per run: it keeps the proof options' canonical form
 * per key, as the signer does.
 */
export function createStoredProofCheck(findKey: (kid: string) => StoredKey | null) {
  const suite = createEddsaRdfc2022()
  const publicKeys = new Map<string, Promise<CryptoKey>>()
  return async function check(credential: { club: string; jwt: string; proof: string }): Promise<string | null> {
    let proof: Record<string, unknown>
    try {
      proof = JSON.parse(credential.proof) as Record<string, unknown>
    } catch {
      return 'its Data Integrity proof is not JSON'
    }
    const method = typeof proof.verificationMethod === 'string' ? proof.verificationMethod : ''
    const key = findKey(method.slice(method.lastIndexOf('#') + 1))
    if (!key) return 'the key of its Data Integrity proof is not stored'
    if (key.owner !== clubDataIntegrityKeyOwner(credential.club) || key.alg !== 'Ed25519') return 'its Data Integrity proof is by a key of another owner'
    let publicKey = publicKeys.get(key.kid)
    if (!publicKey) {
      publicKey = crypto.subtle.importKey('jwk', key.publicJwk, { name: 'Ed25519' }, false, ['verify'])
      publicKeys.set(key.kid, publicKey)
    }
    const secured = { ...credentialOfJwt(credential.jwt), proof: [proof] }
    try {
      const verified = await suite.verify(secured, await publicKey, contextLoader, await shapesTrustedBy(contextLoader))
      return verified ? null : 'its Data Integrity proof does not verify'
    } catch (error) {
      return `its Data Integrity proof cannot be checked: ${error instanceof Error ? error.message : String(error)}`
    }
  }
}
