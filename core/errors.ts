/**
 * The one error type every rule raises. Codes are stable and never renamed: integrators
 * switch on them. Core carries no HTTP status; `adapters/http/problem.ts` maps each code.
 */
export type ProblemCode =
  | 'invalid-token'
  | 'insufficient-scope'
  | 'club-forbidden'
  | 'club-not-found'
  | 'client-not-found'
  | 'admin-not-found'
  | 'webhook-not-found'
  | 'api-key-not-found'
  | 'issuing-disabled'
  | 'achievement-not-found'
  | 'issuance-not-found'
  | 'issuance-revoked'
  | 'design-not-found'
  | 'credential-not-found'
  | 'status-list-not-found'
  | 'image-not-found'
  | 'route-not-found'
  | 'method-not-allowed'
  | 'invalid-json'
  | 'invalid-host'
  | 'unsupported-media-type'
  | 'payload-too-large'
  | 'validation-failed'
  | 'rate-limited'
  | 'server-busy'
  | 'credential-pending'
  | 'credential-revoked'
  | 'json-ld-form-unavailable'
  | 'wallet-exchange-not-found'
  | 'wallet-exchange-used'
  | 'invalid-presentation'
  | 'idempotency-key-reused'
  | 'idempotency-in-flight'
  | 'too-many-recipients'
  | 'too-many-issuances'
  | 'conflict'
  | 'storage-unavailable'
  | 'shutting-down'
  | 'internal-error'

/** One failed field of a validation problem: `message` is a stable code, `path` a JSON pointer-ish dotted path. */
export interface FieldError {
  message: string
  path: string
}

export interface ProblemOptions {
  detail?: string
  errors?: FieldError[]
  /** Extra, code-specific members (for example the scope an `insufficient-scope` needed). */
  extra?: Record<string, string | number>
  cause?: unknown
}

export class ProblemError extends Error {
  readonly code: ProblemCode
  readonly detail: string | undefined
  readonly errors: FieldError[] | undefined
  readonly extra: Record<string, string | number> | undefined

  constructor(code: ProblemCode, options: ProblemOptions = {}) {
    super(options.detail ?? code, { cause: options.cause })
    this.name = this.constructor.name
    this.code = code
    this.detail = options.detail
    this.errors = options.errors
    this.extra = options.extra
  }
}

/** A validation failure: 422 `validation-failed` carrying the codes of docs/api.md §7.3 in `errors[]`. */
export function validationFailed(errors: FieldError[], detail = 'The request did not pass validation.'): ProblemError {
  return new ProblemError('validation-failed', { detail, errors })
}

export function insufficientScope(scope: string): ProblemError {
  return new ProblemError('insufficient-scope', {
    detail: `This operation needs the scope ${scope}.`,
    extra: { scope },
  })
}

export function invalidToken(detail: string, cause?: unknown): ProblemError {
  return new ProblemError('invalid-token', { detail, cause })
}

/**
 * RFC 6749 §5.2 errors of the token endpoint. A separate type because the token endpoint answers
 * in OAuth's own shape, never problem+json.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'invalid_scope'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'rate_limited'
  | 'invalid_target'

export class OAuthError extends Error {
  readonly error: OAuthErrorCode
  /** Seconds until a rate-limited client may try again. */
  readonly retryAfter: number | undefined

  constructor(error: OAuthErrorCode, description: string, options: { retryAfter?: number; cause?: unknown } = {}) {
    super(description, { cause: options.cause })
    this.name = this.constructor.name
    this.error = error
    this.retryAfter = options.retryAfter
  }
}

/**
 * Errors of the OID4VCI credential endpoint (OID4VCI 1.0 §8.3.1): `invalid_token` is RFC 6750's (the
 * access token), the others are the credential request errors. A separate type because the endpoint
 * answers in OAuth's JSON shape, never problem+json.
 */
export type CredentialErrorCode =
  | 'invalid_token'
  | 'invalid_credential_request'
  | 'unknown_credential_configuration'
  | 'unknown_credential_identifier'
  | 'invalid_encryption_parameters'
  | 'credential_request_denied'

export class CredentialError extends Error {
  readonly error: CredentialErrorCode
  /** `invalid_token` only: no token was sent at all (RFC 6750 §3.1: then no error code in the challenge). */
  readonly tokenMissing: boolean

  constructor(error: CredentialErrorCode, description: string, options: { tokenMissing?: boolean; cause?: unknown } = {}) {
    super(description, { cause: options.cause })
    this.name = this.constructor.name
    this.error = error
    this.tokenMissing = options.tokenMissing ?? false
  }
}

/** A uniqueness or concurrency conflict raised by a storage adapter, with the driver error as `cause`. */
export class StorageConflict extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause })
    this.name = this.constructor.name
  }
}

/**
 * The database cannot be reached or went away (refused or lost connection, shutdown, too many
 * connections, statement timeout), raised by a storage adapter with the driver error as `cause`. It is
 * temporary: the adapter reconnects by itself, so the same call may succeed later.
 */
export class StorageUnavailable extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause })
    this.name = this.constructor.name
  }
}

/**
 * What this issuer was made without, asked for anyway: the Learner Credential Wallet exchange of an issuer
 * without a presentation verifier. Nothing is wrong with the request and nothing exists to answer it, so
 * an adapter answers as it does for a path it does not serve (HTTP: 404 `route-not-found`).
 */
export class NotOffered extends Error {
  constructor(message: string) {
    super(message)
    this.name = this.constructor.name
  }
}
