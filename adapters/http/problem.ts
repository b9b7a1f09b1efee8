import * as v from 'valibot'
import { NotOffered, ProblemError, StorageUnavailable, type ProblemCode } from '../../core/errors.ts'

interface ProblemType {
  status: number
  title: string
  headers?: (error: ProblemError) => Record<string, string>
}

const bearer = (attributes: string) => ({ 'www-authenticate': `Bearer realm="clubcred", ${attributes}` })

/** Every problem code with its HTTP status: exhaustive at compile time, the only such table. */
export const PROBLEMS = {
  'invalid-token': { status: 401, title: 'Invalid access token', headers: () => bearer('error="invalid_token"') },
  'insufficient-scope': {
    status: 403,
    title: 'Insufficient scope',
    headers: (error) => bearer(`error="insufficient_scope", scope="${error.extra?.scope ?? ''}"`),
  },
  'club-forbidden': { status: 403, title: 'Token of another club' },
  'club-not-found': { status: 404, title: 'Club not found' },
  'client-not-found': { status: 404, title: 'Client not found' },
  'admin-not-found': { status: 404, title: 'Admin not found' },
  'webhook-not-found': { status: 404, title: 'Webhook not found' },
  'api-key-not-found': { status: 404, title: 'API key not found' },
  'issuing-disabled': { status: 403, title: 'Issuing is disabled for this club' },
  'achievement-not-found': { status: 404, title: 'Achievement template not found' },
  'issuance-not-found': { status: 404, title: 'Issuance not found' },
  'issuance-revoked': { status: 409, title: 'Issuance revoked' },
  'design-not-found': { status: 404, title: 'Design not found' },
  'credential-not-found': { status: 404, title: 'Credential not found' },
  'status-list-not-found': { status: 404, title: 'Status list not found' },
  'image-not-found': { status: 404, title: 'Image not found' },
  'route-not-found': { status: 404, title: 'Route not found' },
  'method-not-allowed': {
    status: 405,
    title: 'Method not allowed',
    headers: (error) => ({ allow: String(error.extra?.allow ?? '') }),
  },
  'invalid-json': { status: 400, title: 'Malformed JSON body' },
  'invalid-host': { status: 400, title: 'Malformed Host header' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type' },
  'payload-too-large': { status: 413, title: 'Payload too large' },
  'validation-failed': { status: 422, title: 'Validation failed' },
  'rate-limited': {
    status: 429,
    title: 'Too many requests',
    headers: (error) => ({ 'retry-after': String(error.extra?.retryAfter ?? 1) }),
  },
  'server-busy': {
    status: 503,
    title: 'Server busy',
    headers: (error) => ({ 'retry-after': String(error.extra?.retryAfter ?? 1) }),
  },
  'credential-pending': {
    status: 409,
    title: 'Credential not yet created',
    headers: (error): Record<string, string> => (error.extra?.retryAfter === undefined ? {} : { 'retry-after': String(error.extra.retryAfter) }),
  },
  'credential-revoked': { status: 410, title: 'Credential revoked' },
  'json-ld-form-unavailable': { status: 409, title: 'Credential has no JSON-LD form' },
  'wallet-exchange-not-found': { status: 404, title: 'Wallet exchange not found' },
  'wallet-exchange-used': { status: 409, title: 'Wallet exchange already completed' },
  'invalid-presentation': { status: 400, title: 'Invalid DID Authentication presentation' },
  'idempotency-key-reused': { status: 422, title: 'Idempotency key reused with another request' },
  'idempotency-in-flight': { status: 409, title: 'A request with this idempotency key is in flight' },
  'too-many-recipients': { status: 422, title: 'Too many recipients' },
  'too-many-issuances': { status: 422, title: 'Too many issuances' },
  conflict: { status: 409, title: 'Conflict' },
  // The database is down or unreachable for now: a client retries, it did nothing wrong.
  'storage-unavailable': { status: 503, title: 'Storage unavailable', headers: () => ({ 'retry-after': '5' }) },
  // This process is draining before it exits (docs/shutdown.md): another node, or this one restarted, answers.
  'shutting-down': { status: 503, title: 'Shutting down', headers: () => ({ 'retry-after': '1' }) },
  'internal-error': { status: 500, title: 'Internal server error' },
} satisfies Record<ProblemCode, ProblemType> as Record<ProblemCode, ProblemType>

/**
 * An RFC 9457 problem document as this service writes it: `code` one of `PROBLEMS`, `errors[]` on
 * validation failures, `scope` on `insufficient-scope`, `retryAfter` (seconds) where a retry is asked for.
 */
export const problemSchema = v.object({
  type: v.string(),
  title: v.string(),
  status: v.pipe(v.number(), v.integer()),
  detail: v.string(),
  code: v.string(),
  /** The id of the request, as in its X-Request-Id answer header and the server log. */
  requestId: v.string(),
  errors: v.optional(v.array(v.object({ message: v.string(), path: v.string() }))),
  scope: v.optional(v.string()),
  retryAfter: v.optional(v.number()),
})
export type Problem = v.InferOutput<typeof problemSchema>

/**
 * The one serializer of RFC 9457 problem documents. `requestId` is the request's (adapters/http/request-id.ts):
 * a member of every problem, so that whoever reports an error names the log line it matches.
 */
export function problemResponse(error: ProblemError, problemBaseUrl: string, requestId: string): Response {
  const type = PROBLEMS[error.code]
  const body: Record<string, unknown> = {
    type: `${problemBaseUrl}/${error.code}`,
    title: type.title,
    status: type.status,
    detail: error.detail ?? type.title,
    code: error.code,
    requestId,
  }
  if (error.extra) {
    for (const [name, value] of Object.entries(error.extra)) body[name] ??= value
  }
  if (error.errors) body.errors = error.errors
  return new Response(JSON.stringify(body), {
    status: type.status,
    headers: {
      'content-type': 'application/problem+json',
      'cache-control': 'no-store',
      ...type.headers?.(error),
    },
  })
}

/**
 * The problem an error answers as, or `null` for an unexpected error (a 500). Besides ProblemError,
 * StorageUnavailable and NotOffered have a problem each: core does not know HTTP, so they are mapped here.
 * What the issuer does not offer is a route it does not serve.
 */
export function asProblem(error: unknown): ProblemError | null {
  if (error instanceof ProblemError) return error
  if (error instanceof StorageUnavailable) {
    return new ProblemError('storage-unavailable', { detail: 'The database cannot be reached right now; try again shortly.', cause: error })
  }
  if (error instanceof NotOffered) return new ProblemError('route-not-found', { detail: error.message, cause: error })
  return null
}
