import type { TemplateView } from '../achievements/present.ts'
import type { Issuance } from '../issuances/issuance.ts'
import { escapeHtml } from '../util/escape-html.ts'

/** The e-mail that tells a recipient their credential exists, with the share link. */
export function composeCredentialEmail(template: TemplateView, issuance: Issuance, link: string): { to: string; subject: string; text: string; html: string } {
  const name = issuance.recipient.name
  const issuer = template.coIssuers[0]?.name ?? ''
  const subject = `${issuer}: ${template.name}`
  const text = [
    `${name}님, ${issuer}에서 "${template.name}" 배지를 발급했습니다.`,
    `${name}, ${issuer} has issued you "${template.nameEn ?? template.name}".`,
    '',
    `View, verify and share it: ${link}`,
    '',
  ].join('\n')
  const html = `<!doctype html><html><body>
<p>${escapeHtml(name)}님, ${escapeHtml(issuer)}에서 <strong>${escapeHtml(template.name)}</strong> 배지를 발급했습니다.</p>
<p>${escapeHtml(name)}, ${escapeHtml(issuer)} has issued you <strong>${escapeHtml(template.nameEn ?? template.name)}</strong>.</p>
<p><a href="${escapeHtml(link)}">View, verify and share it</a></p>
</body></html>`
  return { to: issuance.recipient.email, subject, text, html }
}
