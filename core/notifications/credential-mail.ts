import type { TemplateView } from '../achievements/present.ts'
import type { IssuerContext } from '../context.ts'
import { shareUrl } from '../credentials/urls.ts'
import type { Issuance } from '../issuances/issuance.ts'
import { credentialOfferLink, lcwRequestLink } from '../wallets/urls.ts'
import { composeCredentialEmail } from './compose.ts'
import type { NewOutboxMessage } from './outbox-message.ts'

/**
 * The recipient's mail of a signed credential, ready for the outbox: what `mode: "email"` sends once the
 * credential exists, and what a resend sends again (the same links, to the address on the issuance).
 */
export function credentialMessage(ctx: IssuerContext, snapshot: TemplateView, issuance: Issuance, credentialId: string, now: number): NewOutboxMessage {
  const walletLink = credentialOfferLink(ctx.config, issuance.club, credentialId)
  // Every credential signed now gets its JSON-LD form (docs/data-integrity.md), so its mail offers the wallet that takes it.
  const lcwLink = ctx.presentationVerifier && ctx.dataIntegritySigner ? lcwRequestLink(ctx.config, issuance.club, credentialId) : null
  const message = composeCredentialEmail(snapshot, issuance, shareUrl(ctx.config, issuance.club, credentialId), walletLink, lcwLink)
  return { club: issuance.club, issuanceId: issuance.id, ...message, nextAttemptAt: now, createdAt: now }
}
