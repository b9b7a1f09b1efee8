import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { ProblemError } from '../errors.ts'
import { isoSeconds } from '../credentials/build-ob3.ts'
import { statusListUrl } from '../credentials/urls.ts'
import { clubDid, clubKeyOwner } from '../did-documents/did.ts'
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

/**
 * The club's revocation list as a Bitstring Status List credential, a VC-JWT signed by the club's key.
 * `listId` `null` is the club's first list (the address of docs/api.md §4.11). Re-signed only when the set of
 * revoked entries changes or the club's key is rotated.
 */
export function createStatusListPublisher(ctx: IssuerContext, cacheSize = 1000) {
  // Keyed by list; an entry serves while both the revoked set (its etag) and the club's active key are
  // those it was signed with. Both are read from storage on every call, so a revocation or a key rotation
  // made through another node is published by this one at once (docs/decisions/0030-several-nodes.md).
  const cache = new Lru<number, SignedStatusList & { kid: string }>(cacheSize)

  return async function publish(club: string, listId: number | null): Promise<SignedStatusList> {
    const lists = await ctx.storage.statusLists.listByClub(club)
    const list = listId === null ? lists[0] : lists.find((item) => item.id === listId && item.id !== lists[0]?.id)
    if (!list) throw new ProblemError('status-list-not-found', { detail: `The club ${club} has no such status list.` })

    const revoked = (await ctx.storage.credentials.listRevokedIndexes(list.id)).sort((a, b) => a - b)
    const etag = `W/"${bytesToHex(sha256(new TextEncoder().encode(`${list.id}:${revoked.join(',')}`))).slice(0, 32)}"`
    const key = await ctx.keys.activeKey(clubKeyOwner(club))
    const cached = cache.get(list.id)
    if (cached?.etag === etag && cached.kid === key.kid) return { jwt: cached.jwt, etag }

    const did = clubDid(ctx.config, club)
    const url = statusListUrl(ctx.config, club, { id: list.id, first: list.id === lists[0]!.id })
    const issuedAt = Math.floor(ctx.clock.now() / 1000) * 1000
    const vc = {
      '@context': ['https://www.w3.org/ns/credentials/v2'],
      id: url,
      type: ['VerifiableCredential', 'BitstringStatusListCredential'],
      issuer: did,
      validFrom: isoSeconds(issuedAt),
      credentialSubject: {
        id: `${url}#list`,
        type: 'BitstringStatusList',
        statusPurpose: 'revocation',
        encodedList: await encodeStatusList(list.size, revoked),
      },
    }
    const [jwt] = await ctx.signer.signMany(key, { alg: 'ES256', typ: 'JWT', kid: `${did}#${key.kid}` }, [
      JSON.stringify({ iss: did, jti: url, nbf: issuedAt / 1000, vc }),
    ])
    cache.set(list.id, { jwt: jwt!, etag, kid: key.kid })
    return { jwt: jwt!, etag }
  }
}
