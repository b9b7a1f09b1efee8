import { html } from '../http/share-page/html.ts'
import { htmlResponse } from './responses.ts'
import { consoleDocument, type Words } from './pages.ts'
import { eventType, when } from './integration-parts.ts'
import { both } from './pages.ts'
import { isProblem } from './is-problem.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import type { EventView } from '../../core/events/list.ts'
import type { Page } from '../../core/lists/cursor.ts'
import type { ConsoleFrame } from './frame.ts'
import type { ConsoleHandlers } from './route-handlers.ts'

export const EVENTS_TITLE: Words = { ko: '이벤트', en: 'Events' }

/** The subject's page in the console, where it has one. */
function subject(base: string, event: EventView) {
  const { type, id } = event.subject
  if (type === 'issuance') return html`<a href="${base}/issuances/${id}">${both({ ko: '발급', en: 'Issuance' })} ${id}</a>`
  return html`<a href="${base}/webhooks/${id}">${both({ ko: '웹훅', en: 'Webhook' })} <code>${id}</code></a>`
}

export function eventListPage(base: string, session: ConsoleSession, page: Page<EventView>): string {
  return consoleDocument(
    base,
    EVENTS_TITLE,
    html`<section class="card">
<h1>${both(EVENTS_TITLE)}</h1>
<p class="hint">${both({ ko: '클럽의 이벤트, 최신순. API의 이벤트 피드(/events)와 같습니다.', en: "The club's events, newest first: the API's event feed (/events)." })}</p>
${
  page.data.length === 0
    ? html`<p>${both({ ko: '아직 이벤트가 없습니다.', en: 'No events yet.' })}</p>`
    : html`<table>
<thead><tr><th scope="col">${both({ ko: '시각', en: 'When' })}</th><th scope="col">${both({ ko: '종류', en: 'Type' })}</th><th scope="col">${both({ ko: '대상', en: 'Subject' })}</th><th scope="col">ID</th></tr></thead>
<tbody>
${page.data.map((event) => html`<tr><td>${when(event.occurredAt)}</td><td>${eventType(event.type)}</td><td>${subject(base, event)}</td><td>${event.id}</td></tr>`)}
</tbody>
</table>`
}
${page.meta.nextCursor ? html`<p><a href="${base}/events?cursor=${page.meta.nextCursor}">다음 <span lang="en">Next</span></a></p>` : null}
</section>`,
    session,
  )
}

/**
 * The event feed (docs/admin-console.md § Event feed): the club's events newest first, on the API's own
 * operation (`issuer.events.list`) and its cursor pages, for the session's club only.
 */
export function eventHandlers({ issuer, base, notFound }: ConsoleFrame) {
  return {
    'GET /events': async (session, request) => {
      const cursor = new URL(request.url).searchParams.get('cursor')
      try {
        return htmlResponse(eventListPage(base, session, await issuer.events.list(session.club, { cursor })))
      } catch (error) {
        // A cursor that is not one of this list's.
        if (isProblem(error, 'validation-failed')) return notFound(session)
        throw error
      }
    },
  } satisfies Partial<ConsoleHandlers>
}
