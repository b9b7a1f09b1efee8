import { html, type Markup } from '../http/share-page/html.ts'
import type { ActivityLine } from '../../core/admins/activity.ts'
import { EVENT_WORDS } from './integration-parts.ts'
import { both } from './pages.ts'

/**
 * The overview's recent activity in words (docs/admin-console.md § Overview): "김민준 · 체스 입문 과정 ·
 * 지갑에 담음", who, which template, what happened, not ids and event type names. An event about no
 * issuance (a webhook disabled) reads as what happened alone; a type without words shows its name.
 */
export function activityList(base: string, lines: ActivityLine[]): Markup {
  return html`<section class="card" aria-labelledby="activity-heading">
<h2 id="activity-heading">${both({ ko: '최근 활동', en: 'Recent activity' })}</h2>
${
  lines.length === 0
    ? html`<p>${both({ ko: '아직 활동이 없습니다.', en: 'Nothing yet.' })}</p>`
    : html`<ul class="activity">
${lines.map((line) => {
  const what = EVENT_WORDS[line.type]
  const parts = [line.who, line.template].filter((part): part is string => part !== null && part !== '')
  return html`<li><time datetime="${line.occurredAt}">${line.occurredAt.slice(0, 16).replace('T', ' ')} UTC</time> ${parts.map((part) => html`${part} · `)}${what ? both(what) : html`<code>${line.type}</code>`}</li>`
})}
</ul>`
}
<p><a href="${base}/events">${both({ ko: '모든 이벤트', en: 'All events' })}</a></p>
</section>`
}
