import type { IRequest } from 'itty-router'
import type { GenericSchema } from 'valibot'
import type { CoreIssuer } from '../../core/core-issuer.ts'
import type { ScopeName } from '../../core/scopes.ts'
import type { Principal } from '../../core/tokens/principal.ts'
import type { Surface } from './surface-bases.ts'

/** What every handler gets: its request and the issuer, plus what a few handlers need. */
export interface Call {
  request: IRequest
  issuer: CoreIssuer
  /** Reports an error that becomes a 500 (the legacy surface renders its own 500). */
  onError: (error: unknown, request: Request) => void
  /** The OpenAPI document of the operations served, as JSON text, made on first call. */
  openApiJson: () => string
}

/** The call of a scoped operation, after the router verified the token, its club and the scope. */
export interface ScopedCall extends Call {
  principal: Principal
  /** The club the token was checked against: the path's `{clubDomain}`, or the token's own club on v1. */
  club: string
}

interface OperationDoc {
  method: 'GET' | 'POST' | 'PATCH'
  /**
   * The surface's base, then the path with `{name}` placeholders: `{base}/v2/clubs/{clubDomain}/`. A
   * well-known address has its name before the base (RFC 8615 insertion, OID4VCI 1.0 §12.2.2):
   * `/.well-known/openid-credential-issuer{public}/open-badges/v3/issuers/{domain}`.
   */
  path: `{${Surface}}/${string}` | `/.well-known/${string}{${Surface}}/${string}`
  summary: string
  tag: 'oauth' | 'clubs' | 'achievements' | 'designs' | 'issuances' | 'events' | 'verification' | 'wallets' | 'v1' | 'legacy' | 'meta'
  /** The valibot schema core validates the body with, for the document (core itself validates). */
  body?: GenericSchema
  /** The media type of `body`; JSON unless said otherwise. */
  bodyType?: 'application/json' | 'application/x-www-form-urlencoded'
  /** The body may be left out (revoke: `{ reason }` is optional). */
  bodyOptional?: true
  /** What the schema cannot say (each recipient checked on its own...). */
  bodyNote?: string
  query?: string[]
  /** Honours `Idempotency-Key` (docs/decisions/0013-issuing.md). */
  idempotent?: true
  /** The success status when it is not 200. */
  status?: 201 | 202 | 303
  /**
   * The success answer's body by media type: the valibot schema of core's response shape, wrapped as
   * the handler wraps it (`dataOf`, `pageSchema`), or `null` for bytes no schema describes (files, images).
   */
  answer: Readonly<Record<string, GenericSchema | null>>
  /** Errors in a shape of their own instead of a problem document (RFC 6749 §5.2, OID4VCI 1.0 §8.3.1.2, NestJS). */
  errorShape?: 'oauth' | 'credential' | 'legacy'
  /** A 404 answers the success shape too: the verdict that there is no credential (docs/api.md §2.11). */
  notFoundAnswers?: true
  /** Honours `If-None-Match` with a 304 (an ETag on every answer). */
  conditional?: true
  /** The request header the answer is negotiated on, sent as `Vary` on every answer, errors and 304s included (public operations). */
  vary?: 'Accept'
}

/** An operation of a club: bearer token, club binding and scope are checked by the router from `scope`. */
export interface ScopedOperation extends OperationDoc {
  /** The scope the access token must hold (docs/decisions/0003-scopes-per-operation.md). */
  scope: ScopeName
  handle: (call: ScopedCall) => Promise<Response>
}

/** An operation without a scope; `auth` says who checks what instead. */
export interface UnscopedOperation extends OperationDoc {
  scope?: never
  /**
   * `public`: nobody (the verification surface and this document); `client`: the token endpoint
   * authenticates the client itself (HTTP Basic, RFC 6749 §2.3.1); `api-key`: the legacy surface checks
   * its API key itself, to answer in its own error shape (docs/api.md §4.13).
   */
  auth: 'public' | 'client' | 'api-key'
  handle: (call: Call) => Promise<Response> | Response
}

/** One row of the operation table (`operation-table.ts`): what the router serves and the document shows. */
export type Operation = ScopedOperation | UnscopedOperation
