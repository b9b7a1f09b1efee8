import { compactVerify, decodeProtectedHeader, importJWK } from 'jose'
import { clubKeyOwner } from '../did-documents/did.ts'
import type { CredentialRecord } from './credential-record.ts'
import type { StoredKey } from '../keys/stored-key.ts'

/**
 * Checks a stored credential against the stored keys, as a verifier would against the club's DID
 * document (whose keys are these public keys): an ES256 JWS whose `kid` names a key of the credential's
 * club, with a valid signature, and whose `jti` is the credential's id. Returns why it fails, or `null`.
 * Used by `verify-backup` (docs/backup.md) on a copy, where no server answers.
 */
export async function verifyStoredCredential(
  credential: Pick<CredentialRecord, 'id' | 'club' | 'jwt'>,
  findKey: (kid: string) => StoredKey | null | Promise<StoredKey | null>,
): Promise<string | null> {
  let header
  try {
    header = decodeProtectedHeader(credential.jwt)
  } catch {
    return 'not a JWS'
  }
  if (header.alg !== 'ES256') return `alg ${String(header.alg)} is not ES256`
  // The header names the verification method `<did>#<kid>`; the DID depends on the public URL, the kid does not.
  const kid = typeof header.kid === 'string' ? header.kid.slice(header.kid.lastIndexOf('#') + 1) : ''
  const key = kid ? await findKey(kid) : null
  if (!key) return 'its signing key is not stored'
  if (key.owner !== clubKeyOwner(credential.club)) return 'signed by a key of another owner'
  let payload: Uint8Array
  try {
    ;({ payload } = await compactVerify(credential.jwt, await importJWK(key.publicJwk, 'ES256'), { algorithms: ['ES256'] }))
  } catch {
    return 'the signature does not verify'
  }
  let jti: unknown
  try {
    jti = (JSON.parse(new TextDecoder().decode(payload)) as { jti?: unknown }).jti
  } catch {
    return 'the payload is not JSON'
  }
  return jti === `urn:uuid:${credential.id}` ? null : 'its jti is not its id'
}
