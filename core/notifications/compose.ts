import type { TemplateView } from '../achievements/present.ts'
import type { Issuance } from '../issuances/issuance.ts'
import { escapeHtml } from '../util/escape-html.ts'

/**
 * The e-mail that tells a recipient their credential exists, with the share link and the link that opens
 * a wallet with the credential's offer (OID4VCI; it stays valid, each use mints a fresh code).
 */
export function composeCredentialEmail(
  template: TemplateView,
  issuance: Issuance,
  link: string,
  walletLink: string,
  /** The Learner Credential Wallet link (docs/learner-credential-wallet.md), or `null` when none is offered. */
  lcwLink: string | null = null,
): { to: string; subject: string; text: string; html: string } {
  const name = issuance.recipient.name
  const issuer = template.coIssuers[0]?.name ?? ''
  const subject = `${issuer}: ${template.name}`
  const text = [
    `${name}님, ${issuer}에서 "${template.name}" 배지를 발급했습니다.`,
    `${name}, ${issuer} has issued you "${template.nameEn ?? template.name}".`,
    '',
    `View, verify and share it: ${link}`,
    `디지털 지갑에 추가 / Add it to your digital wallet: ${walletLink}`,
    ...(lcwLink ? [`Learner Credential Wallet에 추가 / Add to Learner Credential Wallet: ${lcwLink}`] : []),
    '',
  ].join('\n')
  const html = `<!doctype html><html><body>
<p>${escapeHtml(name)}님, ${escapeHtml(issuer)}에서 <strong>${escapeHtml(template.name)}</strong> 배지를 발급했습니다.</p>
<p>${escapeHtml(name)}, ${escapeHtml(issuer)} has issued you <strong>${escapeHtml(template.nameEn ?? template.name)}</strong>.</p>
<p><a href="${escapeHtml(link)}">View, verify and share it</a></p>
<p><a href="${escapeHtml(walletLink)}">디지털 지갑에 추가 / Add it to your digital wallet</a></p>
${lcwLink ? `<p><a href="${escapeHtml(lcwLink)}">Learner Credential Wallet에 추가 / Add to Learner Credential Wallet</a></p>\n` : ''}</body></html>`
  return { to: issuance.recipient.email, subject, text, html }
}
