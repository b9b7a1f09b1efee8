import type { Issuance } from '../issuances/issuance.ts'
import { escapeHtml } from '../util/escape-html.ts'

/**
 * The e-mail that reminds a recipient their credential expires (docs/api.md §2.3 `expiryReminders`): the
 * expiry date, the share link and the club's name, Korean first with English beside, as the issue mail.
 */
export function composeExpiryReminder(
  clubName: string,
  templateName: string,
  issuance: Issuance,
  validUntil: number,
  link: string,
): { to: string; subject: string; text: string; html: string } {
  const name = issuance.recipient.name
  const date = new Date(validUntil).toISOString().slice(0, 10)
  const subject = `${clubName}: ${templateName} (${date} 만료 / expires ${date})`
  const text = [
    `${name}님, ${clubName}의 "${templateName}" 배지가 ${date}(UTC)에 만료됩니다.`,
    `${name}, your "${templateName}" from ${clubName} expires on ${date} (UTC).`,
    '',
    `보기 / View it: ${link}`,
    '',
  ].join('\n')
  const html = `<!doctype html><html><body>
<p>${escapeHtml(name)}님, ${escapeHtml(clubName)}의 <strong>${escapeHtml(templateName)}</strong> 배지가 <time datetime="${date}">${date}</time>(UTC)에 만료됩니다.</p>
<p>${escapeHtml(name)}, your <strong>${escapeHtml(templateName)}</strong> from ${escapeHtml(clubName)} expires on <time datetime="${date}">${date}</time> (UTC).</p>
<p><a href="${escapeHtml(link)}">보기 / View it</a></p>
</body></html>`
  return { to: issuance.recipient.email, subject, text, html }
}
