/**
 * What stands in front of a console handler:
 * - `none`: nothing; the handler checks what it needs itself (the files, and the sign-in pages, which
 *   check `Origin` on every POST and the session where there is one).
 * - `session`: a session, or 303 to the login page; the handler gets the session.
 * - `session-form`: a POST from the public origin, then a session (303 to login without one), then the
 *   session's CSRF token in the form (403); the handler gets the session and the form.
 * - `passkey`: a JSON endpoint of /admin/passkey.js; passkeys.ts checks `Origin` first and, under
 *   `/account/`, the session and the CSRF token in `X-CSRF-Token` (its answers are JSON problems).
 */
export type ConsoleGuard = 'none' | 'session' | 'session-form' | 'passkey'

/** One route of the console: a method and an itty path under `{public_url}/admin`. */
export interface ConsoleRoute {
  readonly method: 'GET' | 'POST'
  readonly path: string
  readonly guard: ConsoleGuard
  /** The entry of the menu at the top of every page behind login, in the table's order. */
  readonly menu?: { readonly ko: string; readonly en: string }
}

/**
 * Every route of the staff console (docs/admin-console.md), in the order the router tries them: a
 * fixed path before the `:id` path it would also match (`/templates/new` before `/templates/:id`). The
 * router, the 405s of every other method (with this `Allow`; so a fixed path comes before an `:id` path of
 * another method too: `/issuances/revoke` before `/issuances/:id`), the menu and the club-boundary test
 * (test/admin/club-boundary.test.ts, every path with an `:id`) are all read from here; each page module
 * gives the handler of its rows by `METHOD path` (route-handlers.ts), so a new page is a row here and a
 * handler there. A GET also answers HEAD.
 */
export const CONSOLE_ROUTES = [
  { method: 'GET', path: '/admin.css', guard: 'none' },
  { method: 'GET', path: '/passkey.js', guard: 'none' },
  { method: 'GET', path: '/issue-csv.js', guard: 'none' },
  { method: 'GET', path: '/login', guard: 'none' },
  { method: 'POST', path: '/login', guard: 'none' },
  { method: 'POST', path: '/logout', guard: 'none' },
  { method: 'GET', path: '/setup', guard: 'none' },
  { method: 'POST', path: '/setup', guard: 'none' },
  { method: 'GET', path: '/', guard: 'session', menu: { ko: '개요', en: 'Overview' } },

  { method: 'GET', path: '/templates', guard: 'session', menu: { ko: '템플릿', en: 'Templates' } },
  { method: 'GET', path: '/templates/new', guard: 'session' },
  { method: 'POST', path: '/templates/new', guard: 'session-form' },
  { method: 'GET', path: '/templates/:id', guard: 'session' },
  { method: 'POST', path: '/templates/:id', guard: 'session-form' },
  { method: 'POST', path: '/templates/:id/co-issuers', guard: 'session-form' },
  { method: 'POST', path: '/templates/:id/co-issuers/remove', guard: 'session-form' },
  { method: 'GET', path: '/templates/:id/preview', guard: 'session' },

  { method: 'GET', path: '/issue', guard: 'session', menu: { ko: '발급', en: 'Issue' } },
  { method: 'POST', path: '/issue', guard: 'session-form' },
  { method: 'GET', path: '/issue/csv', guard: 'session' },
  { method: 'POST', path: '/issue/csv', guard: 'session-form' },
  { method: 'POST', path: '/issue/csv/confirm', guard: 'session-form' },
  // A kept file by its digest, not an id: its other-club case is in test/admin/issue-csv.test.ts.
  { method: 'GET', path: '/issue/csv/files/:digest/outcomes.csv', guard: 'session' },
  { method: 'GET', path: '/issue/csv/:id', guard: 'session' },
  { method: 'GET', path: '/issue/csv/:id/progress', guard: 'session' },
  { method: 'GET', path: '/issue/csv/:id/results', guard: 'session' },
  { method: 'GET', path: '/issue/csv/:id/results.csv', guard: 'session' },

  { method: 'GET', path: '/issuances/:id/file', guard: 'session' },
  { method: 'POST', path: '/issuances/:id/reissue', guard: 'session-form' },
  { method: 'POST', path: '/issuances/renew', guard: 'session-form' },
  { method: 'POST', path: '/issuances/revoke', guard: 'session-form' },
  { method: 'GET', path: '/issuances', guard: 'session', menu: { ko: '발급 내역', en: 'Issuances' } },
  { method: 'GET', path: '/issuances/:id', guard: 'session' },
  { method: 'POST', path: '/issuances/:id/revoke', guard: 'session-form' },
  { method: 'POST', path: '/issuances/:id/notify', guard: 'session-form' },

  { method: 'GET', path: '/clients', guard: 'session', menu: { ko: '연동', en: 'Integrations' } },
  { method: 'POST', path: '/clients', guard: 'session-form' },
  { method: 'GET', path: '/clients/:id', guard: 'session' },
  { method: 'POST', path: '/clients/:id/rotate', guard: 'session-form' },
  { method: 'POST', path: '/clients/:id/delete', guard: 'session-form' },
  { method: 'GET', path: '/api-keys', guard: 'session' },
  { method: 'POST', path: '/api-keys', guard: 'session-form' },
  { method: 'GET', path: '/api-keys/:id', guard: 'session' },
  { method: 'POST', path: '/api-keys/:id/revoke', guard: 'session-form' },
  { method: 'GET', path: '/webhooks', guard: 'session' },
  { method: 'POST', path: '/webhooks', guard: 'session-form' },
  { method: 'GET', path: '/webhooks/:id', guard: 'session' },
  { method: 'POST', path: '/webhooks/:id/enabled', guard: 'session-form' },
  { method: 'POST', path: '/webhooks/:id/rotate', guard: 'session-form' },
  { method: 'POST', path: '/webhooks/:id/delete', guard: 'session-form' },
  { method: 'POST', path: '/webhooks/:id/replay', guard: 'session-form' },

  { method: 'GET', path: '/events', guard: 'session', menu: { ko: '이벤트', en: 'Events' } },

  { method: 'GET', path: '/designs', guard: 'session', menu: { ko: '디자인', en: 'Designs' } },
  { method: 'GET', path: '/designs/new', guard: 'session' },
  { method: 'POST', path: '/designs/new', guard: 'session-form' },
  { method: 'GET', path: '/designs/:id', guard: 'session' },
  { method: 'POST', path: '/designs/:id', guard: 'session-form' },
  { method: 'GET', path: '/designs/:id/preview', guard: 'session' },

  { method: 'GET', path: '/account', guard: 'session', menu: { ko: '내 계정', en: 'Account' } },
  { method: 'POST', path: '/account/passkeys/:id/remove', guard: 'session-form' },
  { method: 'POST', path: '/passkeys/login/options', guard: 'passkey' },
  { method: 'POST', path: '/passkeys/login', guard: 'passkey' },
  { method: 'POST', path: '/passkeys/setup/options', guard: 'passkey' },
  { method: 'POST', path: '/passkeys/setup', guard: 'passkey' },
  { method: 'POST', path: '/account/passkeys/options', guard: 'passkey' },
  { method: 'POST', path: '/account/passkeys', guard: 'passkey' },
] as const satisfies readonly ConsoleRoute[]

/**
 * Every path of the table and the methods it answers, as an `Allow` header (`GET, HEAD, POST`), in
 * the table's order: the frame answers any other method 405 with it.
 */
export const CONSOLE_PATHS: readonly (readonly [path: string, allow: string])[] = allowedMethods(CONSOLE_ROUTES)

function allowedMethods(routes: readonly ConsoleRoute[]): [path: string, allow: string][] {
  const methods = new Map<string, Set<string>>()
  for (const { method, path } of routes) methods.set(path, (methods.get(path) ?? new Set()).add(method))
  return [...methods].map(([path, answered]) => [path, ['GET', 'HEAD', 'POST'].filter((method) => answered.has(method === 'HEAD' ? 'GET' : method)).join(', ')])
}
