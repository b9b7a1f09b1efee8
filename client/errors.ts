import type { FieldError, OAuthErrorCode, ProblemCode } from '../core/errors.ts'

/**
 * Every `code` a {@link ClubcredError} can carry: the server's problem codes (docs/decisions/0007-http-face.md § Problem documents;
 * stable and never renamed), plus `unexpected-response` for an error answer that is no problem
 * document (a proxy's HTML 502, for example).
 */
export type ClubcredErrorCode = ProblemCode | 'unexpected-response'

/**
 * An RFC 9457 problem document as the club API sends it (`application/problem+json`). Code-specific
 * members (for example `scope` of `insufficient-scope`) ride along.
 */
export interface ProblemDocument {
  type: string
  title: string
  status: number
  detail: string
  code: ClubcredErrorCode
  /** Validation failures: `message` is a stable code such as `tag-contains-comma`, `path` the field. */
  errors?: FieldError[]
  /** The request's id, as in its `X-Request-Id` header and the server's log (docs/logs.md). */
  requestId?: string
  [member: string]: unknown
}

/**
 * A problem document of the club API (or the public surface) as a typed error. Switch on `code`, or
 * use {@link isProblem} to narrow.
 *
 * @example
 * try {
 *   await client.issuances.credential(id)
 * } catch (error) {
 *   if (isProblem(error, 'credential-pending')) return null // not signed yet
 *   throw error
 * }
 */
export class ClubcredError<C extends ClubcredErrorCode = ClubcredErrorCode> extends Error {
  /** The HTTP status. */
  readonly status: number
  /** The stable problem code. */
  readonly code: C
  readonly title: string
  readonly detail: string
  /** The field failures of a `validation-failed` problem (the codes of docs/api.md §7.3 are here). */
  readonly errors: FieldError[] | undefined
  /** The request's id (`X-Request-Id`), to quote when asking the server's operator; `undefined` from a server without one. */
  readonly requestId: string | undefined
  /** The whole problem document as received. */
  readonly problem: ProblemDocument

  constructor(status: number, problem: ProblemDocument & { code: C }) {
    super(problem.detail && problem.detail !== problem.title ? `${problem.title}: ${problem.detail}` : problem.title)
    this.name = this.constructor.name
    this.status = status
    this.code = problem.code
    this.title = problem.title
    this.detail = problem.detail
    this.errors = problem.errors
    this.requestId = typeof problem.requestId === 'string' ? problem.requestId : undefined
    this.problem = problem
  }
}

/** Every `error` a {@link ClubcredAuthError} can carry: RFC 6749 §5.2 codes, or `unexpected_response`. */
export type ClubcredAuthErrorCode = OAuthErrorCode | 'unexpected_response'

/**
 * The token endpoint refused to give an access token (RFC 6749 §5.2): `invalid_client` for a wrong id or
 * secret (401), `invalid_scope` for a scope the client lacks (400), `rate_limited` (429)...
 */
export class ClubcredAuthError extends Error {
  readonly error: ClubcredAuthErrorCode
  readonly description: string
  /** The HTTP status of the token response. */
  readonly status: number

  constructor(status: number, error: ClubcredAuthErrorCode, description: string) {
    super(`${error}: ${description}`)
    this.name = this.constructor.name
    this.status = status
    this.error = error
    this.description = description
  }
}

/** `waitForCredential(s)` ran out of time; `pending` lists the issuance ids whose credential was not seen. */
export class ClubcredTimeoutError extends Error {
  readonly pending: string[]

  constructor(pending: string[], timeoutMs: number) {
    super(`No issuance.credential_issued event within ${timeoutMs} ms for issuance ${pending.join(', ')}.`)
    this.name = this.constructor.name
    this.pending = pending
  }
}

/**
 * Whether `error` is a {@link ClubcredError}, of the given code (or one of the given codes) when one is
 * given. Narrows the type, so `error.code`, `error.errors` and `error.problem` are typed after it.
 *
 * @example
 * if (isProblem(error, 'validation-failed')) console.log(error.errors?.map((e) => e.message))
 */
export function isProblem<C extends ClubcredErrorCode = ClubcredErrorCode>(error: unknown, code?: C | readonly C[]): error is ClubcredError<C> {
  if (!(error instanceof ClubcredError)) return false
  if (code === undefined) return true
  return typeof code === 'string' ? error.code === code : code.includes(error.code as C)
}

/**
 * The typed error of a failed response: a problem document when the body is one, otherwise
 * `unexpected-response` with the start of the body as its detail. Reads the body.
 */
export async function errorFromResponse(response: Response): Promise<ClubcredError> {
  const text = await response.text().catch(() => '')
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  if (isProblemDocument(body)) {
    return new ClubcredError(response.status, { ...body, detail: typeof body.detail === 'string' ? body.detail : body.title })
  }
  const requestId = response.headers.get('x-request-id')
  return new ClubcredError(response.status, {
    type: 'about:blank',
    title: response.statusText || `HTTP ${response.status}`,
    status: response.status,
    detail: text.slice(0, 500) || `The server answered ${response.status} without a problem document.`,
    code: 'unexpected-response',
    ...(requestId ? { requestId } : {}),
  })
}

function isProblemDocument(body: unknown): body is ProblemDocument {
  if (typeof body !== 'object' || body === null) return false
  const { code, title } = body as Record<string, unknown>
  return typeof code === 'string' && typeof title === 'string'
}
