import type { CoreIssuer } from '../../../core/core-issuer.ts'
import type { ConsoleSession } from '../../../core/admins/sessions.ts'
import type { Words } from './pages.ts'

/** A POST of a session that passed every check: its session and its form. */
export interface SessionForm {
  session: ConsoleSession
  form: URLSearchParams
}

/** A multipart POST (a file upload) of a session that passed every check: its session and its form. */
export interface SessionUpload {
  session: ConsoleSession
  form: FormData
}

/** What the console's frame (adapters/http/admin/surface.ts) lends a page module. */
export interface ConsoleFrame {
  issuer: CoreIssuer
  base: string
  sessionOf(request: Request): Promise<ConsoleSession | null>
  /** The form of a POST from the public origin, at most `maxBytes` (16 KiB unless given), or the refusal to send instead. */
  formOf(request: Request, maxBytes?: number): Promise<URLSearchParams | Response>
  /**
   * The session and form of a POST, checked in this order: Origin (403), session (none: 303 to login),
   * CSRF token (403); or the answer to send instead. Every POST of a session goes through it.
   */
  sessionForm(request: Request, maxBytes?: number): Promise<SessionForm | Response>
  /**
   * `sessionForm` for a multipart/form-data POST (a file upload), with the same checks in the same order;
   * a body over `maxBytes` is 413 with `tooLarge` said on the page.
   */
  sessionUpload(request: Request, maxBytes: number, tooLarge: Words): Promise<SessionUpload | Response>
  notFound(session: ConsoleSession): Response
  forbidden(session: ConsoleSession): Response
}
