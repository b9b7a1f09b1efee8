import { htmlResponse } from './responses.ts'
import { overviewPage, type Words } from './pages.ts'
import { activityList } from './overview-activity.ts'
import { activityChart } from './activity-chart.ts'
import { html } from '../http/share-page/html.ts'
import type { ConsoleFrame } from './frame.ts'
import type { ConsoleHandlers } from './route-handlers.ts'

/** The overview's notice after the setup link: the password is set and the person is in. */
const SIGNED_IN_AT_SETUP: Words = { ko: '비밀번호를 설정했고 로그인되었습니다.', en: 'Your password is set, and you are signed in.' }

/** The overview (docs/admin-console.md § Overview): the club's figures, its latest activity and its weeks. */
export function overviewHandlers({ issuer, base, notFound }: ConsoleFrame) {
  return {
    'GET /': async (session, request) => {
      const overview = await issuer.admins.overview(session)
      if (!overview) return notFound(session)
      const done = new URL(request.url).searchParams.get('setup') === 'done' ? SIGNED_IN_AT_SETUP : null
      return htmlResponse(overviewPage(base, session, overview, html`${activityList(base, overview.latestActivity)}${activityChart(overview.weekly)}`, done))
    },
  } satisfies Partial<ConsoleHandlers>
}
