import type { IRequest } from 'itty-router'
import type { CoreIssuer } from '../../core/core-issuer.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import type { PostedForm } from './multipart.ts'
import type { SessionCookie } from './cookie.ts'
import type { Words } from './pages.ts'

/** A POST of a session that passed every check: its session, its form and (multipart only) its files. */
export interface SessionForm extends PostedForm {
  session: ConsoleSession
}

/** What the console's frame (adapters/admin/surface.ts) lends a page module. */
export interface ConsoleFrame {
  issuer: CoreIssuer
  base: string
  sessionOf(request: Request): Promise<ConsoleSession | null>
  /** The form of a POST from the public origin, at most `maxBytes` (16 KiB unless given), or the refusal to send instead. */
  formOf(request: Request, maxBytes?: number): Promise<URLSearchParams | Response>
  /**
   * The session and form of a POST, checked in this order: Origin (403), session (none: 303 to login),
   * CSRF token (403); or the answer to send instead. Every POST of a session goes through it. With
   * `multipart`, a `multipart/form-data` body is read too (`readMultipartForm`), its files in `files`;
   * `tooLarge` is what the 413 page says of a body over `maxBytes`.
   */
  sessionForm(request: Request, maxBytes?: number, options?: { multipart?: boolean; tooLarge?: Words }): Promise<SessionForm | Response>
  /** A GET handler behind login: `handler` with the request's session, or 303 to the login page without one. */
  withSession(handler: (session: ConsoleSession, request: IRequest) => Promise<Response>): (request: IRequest) => Promise<Response>
  notFound(session: ConsoleSession): Response
  forbidden(session: ConsoleSession): Response
  /** A page of a title and a sentence, with `status` (and `headers`): a refusal, a dead link. */
  message(status: number, words: readonly [title: Words, text: Words], session?: ConsoleSession | null, headers?: Record<string, string>): Response
  /** The session cookie, which the sign-in pages and the passkey endpoints set and clear. */
  cookie: SessionCookie
}
