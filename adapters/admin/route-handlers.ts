import type { IRequest } from 'itty-router'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import type { SessionForm } from './frame.ts'
import type { Words } from './pages.ts'
import type { CONSOLE_ROUTES, ConsoleGuard } from './route-table.ts'

/** A handler behind `session-form`: the session and the form it was checked with. */
export type SessionFormHandler = (posted: SessionForm, request: IRequest) => Promise<Response>

/**
 * What a `session-form` route may say of its body besides its handler: more than the 16 KiB of a
 * short form (`maxBytes`), `multipart/form-data` with files, and what the 413 page then says.
 */
export interface SessionFormRoute {
  body: { maxBytes: number; multipart?: boolean; tooLarge?: Words }
  handle: SessionFormHandler
}

/** The handler each guard calls, with what the guard checked. */
export interface GuardedHandlers {
  none: (request: IRequest) => Response | Promise<Response>
  session: (session: ConsoleSession, request: IRequest) => Promise<Response>
  'session-form': SessionFormHandler | SessionFormRoute
  passkey: (request: IRequest) => Promise<Response>
}

type Row = (typeof CONSOLE_ROUTES)[number]

/** `METHOD path` of a row of the table, as a page module names the handler it gives. */
export type ConsoleRouteKey = `${Row['method']} ${Row['path']}`

/** A handler for every row of the table, by `METHOD path`, each of the shape its guard calls. */
export type ConsoleHandlers = { [R in Row as `${R['method']} ${R['path']}`]: GuardedHandlers[R['guard'] & ConsoleGuard] }
