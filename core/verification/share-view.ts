import { jwtUrl, shareCardUrl, shareUrl, verifyUrl } from '../credentials/urls.ts'
import { credentialOfferLink, lcwRequestLink } from '../wallets/urls.ts'
import type { IssuerContext } from '../context.ts'
import type { CredentialStatus } from '../credentials/status.ts'
import type { Verdict } from './verify-issuance.ts'
import { jsonLdFormOf, type JsonLdForm } from '../credentials/json-ld-form.ts'

/** Everything the share page shows (docs/api.md §4.11), taken from the signed credential, not the live template. */
export interface ShareView {
  credentialId: string
  club: { domain: string; name: string; issuerVerified: boolean }
  /** The recipient's display name: the page is the recipient's certificate to show (docs/decisions/0014-signed-credential.md § Recipient). */
  recipientName: string
  issuedAt: string
  validUntil: string | null
  verdict: { isValid: boolean; status: CredentialStatus }
  /** When the verdict was computed (ms since the epoch, the issuer's clock): the page's "checked at". */
  checkedAt: number
  achievement: {
    name: string
    nameEn: string | null
    description: string
    narrative: string
    achievementType: string
    tags: string[]
    partners: { name: string; role: string; isVerified: boolean }[]
  }
  /** Whether the JSON-LD form can be downloaded (`ready`), is being made (`pending`), or does not exist (`none`). */
  jsonLd: JsonLdForm['state']
  /**
   * `walletOffer`: the OID4VCI credential offer link (`openid-credential-offer://…`) that opens a wallet.
   * `lcw`: the Learner Credential Wallet link, only when the credential's JSON-LD form exists (that wallet
   * takes nothing else) and the issuer checks DID Authentication; otherwise `null`. `card`: the share card
   * (docs/share-card.md), `null` when the issuer draws none.
   */
  urls: { share: string; verify: string; jwt: string; walletOffer: string; lcw: string | null; card: string | null }
}

/** The achievement as the signed credential carries it: every member is read defensively. */
type SignedAchievement = {
  name?: unknown
  description?: unknown
  criteria?: { narrative?: unknown }
  achievementType?: unknown
  tag?: unknown
  'x-partnerOrganizations'?: unknown
}

/** The share page's content for a credential of `club`, or `null` when there is none (404). */
export async function shareView(
  ctx: IssuerContext,
  verify: (issuanceId: number) => Promise<Verdict>,
  club: string,
  credentialId: string,
): Promise<ShareView | null> {
  const credential = await ctx.storage.credentials.findById(credentialId)
  if (!credential || credential.club !== club) return null
  const [issuance, clubRecord] = await Promise.all([ctx.storage.issuances.findById(club, credential.issuanceId), ctx.storage.clubs.findByDomain(club)])
  if (!issuance || !clubRecord) return null
  const snapshot = await ctx.storage.snapshots.findById(issuance.snapshotId)
  const verdict = await verify(issuance.id)
  const checkedAt = ctx.clock.now()
  const vc = (verdict.payload?.vc ?? {}) as { credentialSubject?: { achievement?: SignedAchievement }; validFrom?: string; validUntil?: string }
  const achievement = vc.credentialSubject?.achievement ?? {}
  return {
    credentialId,
    club: { domain: clubRecord.domain, name: clubRecord.name, issuerVerified: clubRecord.issuerVerified },
    recipientName: issuance.recipient.name,
    issuedAt: vc.validFrom ?? new Date(credential.issuedAt).toISOString(),
    validUntil: vc.validUntil ?? null,
    verdict: { isValid: verdict.isValid, status: verdict.status ?? 'valid' },
    checkedAt,
    jsonLd: jsonLdFormOf(credential).state,
    achievement: {
      name: String(achievement.name ?? ''),
      nameEn: snapshot?.view.nameEn ?? null,
      description: String(achievement.description ?? ''),
      narrative: String(achievement.criteria?.narrative ?? ''),
      achievementType: String(achievement.achievementType ?? ''),
      tags: Array.isArray(achievement.tag) ? achievement.tag.map(String) : [],
      partners: Array.isArray(achievement['x-partnerOrganizations'])
        ? achievement['x-partnerOrganizations'].map((p: { name?: unknown; role?: unknown; isVerified?: unknown }) => ({
            name: String(p.name),
            role: String(p.role),
            isVerified: Boolean(p.isVerified),
          }))
        : [],
    },
    urls: {
      share: shareUrl(ctx.config, club, credentialId),
      verify: verifyUrl(ctx.config, issuance.id),
      jwt: jwtUrl(ctx.config, credentialId),
      walletOffer: credentialOfferLink(ctx.config, club, credentialId),
      lcw: ctx.presentationVerifier && jsonLdFormOf(credential).state === 'ready' ? lcwRequestLink(ctx.config, club, credentialId) : null,
      card: ctx.shareCardRenderer ? shareCardUrl(ctx.config, club, credentialId) : null,
    },
  }
}
