import { decodeJwt } from 'jose'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { badgeImageOf } from '../files/badge-picture.ts'
import { createRenderCache } from '../files/render-cache.ts'
import { createRenderGate } from '../files/render-gate.ts'
import { shareCardSvg, type ShareCardContent } from './card-svg.ts'
import type { IssuerContext } from '../context.ts'
import type { ShareCardRenderer } from '../ports/share-card-renderer.ts'

/**
 * Bumped whenever the card's layout changes, so that every card gets a new `ETag` and caches that kept
 * the old picture fetch the new one.
 */
export const SHARE_CARD_RENDITION = 1

/** Cards kept in memory: about 40 to 120 KiB each, so some hundreds of templates' cards. */
const CACHE_BYTES = 16 * 1024 * 1024
/**
 * Two cards draw at once (each on a thread of its own, docs/decisions/0043-share-card.md); a burst of
 * crawlers queues up to 32 more, and beyond that gets 503 `server-busy` at once rather than a backlog.
 */
const GATE = { concurrency: 2, queue: 32, busyDetail: 'Too many share cards are being drawn right now; try again in a moment.' }

/** A credential's share card: its strong `ETag` (known without drawing) and its PNG. */
export interface ShareCardFile {
  etag: string
  png(): Promise<Uint8Array>
}

export interface ShareCards {
  /** The share card of a credential of `club`, or `null` when there is none (no such credential, or no renderer). */
  card(club: string, credentialId: string): Promise<ShareCardFile | null>
}

/**
 * Share cards (docs/share-card.md), one per template and name rather than per credential: a card shows the
 * badge, the achievement's name and the issuing club's name as the signed credential carries them, and
 * nothing of the recipient, so every credential of one template snapshot shares one picture, drawn once
 * and kept by its strong `ETag` (a digest of exactly those inputs).
 */
export function createShareCards(ctx: IssuerContext, renderer: ShareCardRenderer | null): ShareCards {
  const cache = createRenderCache({ maxBytes: CACHE_BYTES })
  const gate = createRenderGate(GATE)
  return {
    async card(club, credentialId) {
      if (!renderer) return null
      const credential = await ctx.storage.credentials.findById(credentialId)
      if (!credential || credential.club !== club) return null
      const content = await contentOf(ctx, credential.jwt, club)
      const etag = `"card.${digestOf(content)}"`
      return { etag, png: () => cache.getOrRender(etag, () => gate.run(() => renderer.renderPng(shareCardSvg(content)))) }
    },
  }
}

type SignedCredential = { issuer?: { name?: unknown }; credentialSubject?: { achievement?: { name?: unknown; image?: { id?: unknown } } } }

/** What the card shows, from the signed credential (as the share page and the baked badge read it). */
async function contentOf(ctx: IssuerContext, jwt: string, club: string): Promise<ShareCardContent> {
  const vc = (decodeJwt(jwt).vc ?? {}) as SignedCredential
  const achievement = vc.credentialSubject?.achievement ?? {}
  const image = typeof achievement.image?.id === 'string' ? achievement.image.id : null
  return {
    achievementName: String(achievement.name ?? ''),
    clubName: typeof vc.issuer?.name === 'string' ? vc.issuer.name : club,
    badge: await badgeImageOf(ctx, image),
  }
}

function digestOf({ achievementName, clubName, badge }: ShareCardContent): string {
  const value = JSON.stringify({ rendition: SHARE_CARD_RENDITION, achievementName, clubName, badge: badge?.hash ?? null })
  return bytesToHex(sha256(new TextEncoder().encode(value))).slice(0, 32)
}
