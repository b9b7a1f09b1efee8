import * as v from 'valibot'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { ProblemError } from '../errors.ts'
import { isoSeconds } from '../credentials/build-ob3.ts'
import { statusListContextLoader } from '../credentials/context-loader.ts'
import { signDataIntegrity, type CredentialObject } from '../credentials/sign-data-integrity.ts'
import { statusListUrl } from '../credentials/urls.ts'
import { clubDataIntegrityKeyOwner, clubDid, clubKeyOwner } from '../did-documents/did.ts'
import { encodeStatusList } from './encode.ts'
import { Lru } from '../util/lru.ts'
import type { IssuerContext } from '../context.ts'

export interface SignedStatusList {
  jwt: string
  /**
   * Changes exactly when the set of revoked entries changes. Weak (`W/"..."`): the same entries signed
   * again (after a restart, by another process) are other bytes, a new signature and validFrom, with the
   * same meaning (RFC 9110 §8.8.1).
   */
  etag: string
}

/** The list as JSON-LD with a Data Integrity proof (docs/data-integrity.md § Status list). */
export interface SecuredStatusList {
  /** The JSON text of the credential with its `proof`, serialized once. */
  document: string
  /** Weak like the JWT's and changes with it, yet never equal to it: a 304 never answers one form for the other. */
  etag: string
}

/** The JSON-LD form's shape: the credential of the JWT's `vc`, and its proof. */
export const securedStatusListSchema = v.object({
  '@context': v.array(v.string()),
  id: v.string(),
  type: v.array(v.string()),
  issuer: v.string(),
  validFrom: v.string(),
  credentialSubject: v.object({ id: v.string(), type: v.literal('BitstringStatusList'), statusPurpose: v.literal('revocation'), encodedList: v.string() }),
  proof: v.object({
    type: v.literal('DataIntegrityProof'),
    created: v.string(),
    verificationMethod: v.string(),
    cryptosuite: v.literal('eddsa-rdfc-2022'),
    proofPurpose: v.literal('assertionMethod'),
    proofValue: v.string(),
  }),
})

/** One list's revoked set, and each form signed over it, with the kid of the key that signed it. */
interface Published {
  digest: string
  credential: Promise<CredentialObject>
  jwt?: { kid: string; signed: Promise<string> }
  jsonLd?: { kid: string; signed: Promise<string> }
}

/**
 * The club's revocation list as a Bitstring Status List credential, in two forms of one credential: a
 * VC-JWT signed by the club's ES256 key, and the same credential as JSON-LD secured by an
 * `eddsa-rdfc-2022` proof of the club's Ed25519 key. `listId` `null` is the club's first list (the
 * address of docs/api.md §4.11). A form is signed again only when the set of revoked entries changes or
 * the key of that form is rotated; concurrent requests share one signature.
 */
export function createStatusListPublisher(ctx: IssuerContext, cacheSize = 1000) {
  // Keyed by list; an entry serves while both the revoked set (its digest) and the club's active key are
  // those it was signed with. Both are read from storage on every call, so a revocation or a key rotation
  // made through another node is published by this one at once (docs/decisions/0030-several-nodes.md).
  // Both forms hang on one entry: they are signed over the same credential, the same validFrom.
  const cache = new Lru<number, Published>(cacheSize)

  async function current(club: string, listId: number | null): Promise<Published> {
    const lists = await ctx.storage.statusLists.listByClub(club)
    const list = listId === null ? lists[0] : lists.find((item) => item.id === listId && item.id !== lists[0]?.id)
    if (!list) throw new ProblemError('status-list-not-found', { detail: `The club ${club} has no such status list.` })

    const revoked = (await ctx.storage.credentials.listRevokedIndexes(list.id)).sort((a, b) => a - b)
    const digest = bytesToHex(sha256(new TextEncoder().encode(`${list.id}:${revoked.join(',')}`))).slice(0, 32)
    const cached = cache.get(list.id)
    if (cached?.digest === digest) return cached

    const url = statusListUrl(ctx.config, club, { id: list.id, first: list.id === lists[0]!.id })
    const issuedAt = Math.floor(ctx.clock.now() / 1000) * 1000
    const credential = encodeStatusList(list.size, revoked).then((encodedList) => ({
      '@context': ['https://www.w3.org/ns/credentials/v2'],
      id: url,
      type: ['VerifiableCredential', 'BitstringStatusListCredential'],
      issuer: clubDid(ctx.config, club),
      validFrom: isoSeconds(issuedAt),
      credentialSubject: { id: `${url}#list`, type: 'BitstringStatusList', statusPurpose: 'revocation', encodedList },
    }))
    const entry: Published = { digest, credential }
    cache.set(list.id, entry)
    credential.catch(() => {
      if (cache.get(list.id) === entry) cache.delete(list.id)
    })
    return entry
  }

  /** The form's signature of `entry` by the key `kid`, signed once; a failed signing is forgotten, to be tried again. */
  function signedOnce(entry: Published, form: 'jwt' | 'jsonLd', kid: string, sign: () => Promise<string>): Promise<string> {
    const held = entry[form]
    if (held?.kid === kid) return held.signed
    const signed = sign()
    entry[form] = { kid, signed }
    signed.catch(() => {
      if (entry[form]?.signed === signed) delete entry[form]
    })
    return signed
  }

  return {
    async jwt(club: string, listId: number | null): Promise<SignedStatusList> {
      const entry = await current(club, listId)
      const key = await ctx.keys.activeKey(clubKeyOwner(club))
      const did = clubDid(ctx.config, club)
      const jwt = await signedOnce(entry, 'jwt', key.kid, async () => {
        const vc = await entry.credential
        const [jwt] = await ctx.signer.signMany(key, { alg: 'ES256', typ: 'JWT', kid: `${did}#${key.kid}` }, [
          JSON.stringify({ iss: did, jti: vc.id, nbf: Date.parse(String(vc.validFrom)) / 1000, vc }),
        ])
        return jwt!
      })
      return { jwt, etag: `W/"${entry.digest}"` }
    },

    /**
     * `null` when the issuer has no Data Integrity signer (an embedder that passed none): the JWT is
     * then the only form. The club's Ed25519 key is made here if it has none yet: this is its first proof.
     */
    async jsonLd(club: string, listId: number | null): Promise<SecuredStatusList | null> {
      const signer = ctx.dataIntegritySigner
      if (!signer) return null
      const entry = await current(club, listId)
      const key = await ctx.keys.activeKey(clubDataIntegrityKeyOwner(club))
      const document = await signedOnce(entry, 'jsonLd', key.kid, async () => {
        const [secured] = await signDataIntegrity(signer, key, clubDid(ctx.config, club), [await entry.credential], statusListContextLoader)
        return JSON.stringify(secured)
      })
      return { document, etag: `W/"${entry.digest}-ld"` }
    },
  }
}
