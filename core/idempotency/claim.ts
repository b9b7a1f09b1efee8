import { ProblemError, validationFailed } from '../errors.ts'
import { canonicalJson } from '../crypto/canonical-json.ts'
import { toBase64Url } from '../crypto/base64url.ts'
import type { IssuerContext } from '../context.ts'
import type { UnitOfWork } from '../ports/storage.ts'

/** Keys are kept 24 hours (docs/decisions/0013-issuing.md). */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000
/**
 * A claim whose request never finished (the process died) is taken over after this long. Safe: the
 * response is stored in the same unit of work as the operation, so an unfinished claim did nothing.
 */
export const IDEMPOTENCY_IN_FLIGHT_MS = 60 * 1000

/** A claimed key: the operation MUST store its result with `completeClaim` in its own unit of work. */
export interface IdempotencyClaim {
  scope: string
  key: string
}

export type ClaimOutcome = { claim: IdempotencyClaim } | { replay: { status: number; body: string } }

/** 1..255 printable ASCII characters (docs/decisions/0013-issuing.md; after the IETF httpapi Idempotency-Key draft). */
const KEY = /^[\x20-\x7e]{1,255}$/

/**
 * Claims an `Idempotency-Key` for one client and route. Same key, same body, finished: the stored
 * response to replay. Same key, other body: 422 `idempotency-key-reused`. Same key, still running:
 * 409 `idempotency-in-flight`. Exactly one of concurrent first requests gets the claim.
 */
export async function claimIdempotencyKey(ctx: IssuerContext, club: string, scope: string, key: string, body: unknown): Promise<ClaimOutcome> {
  if (!KEY.test(key)) {
    throw validationFailed([{ message: 'invalid-idempotency-key', path: 'Idempotency-Key' }], 'An Idempotency-Key is 1 to 255 printable ASCII characters.')
  }
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonicalJson(body ?? null)))
  const requestHash = toBase64Url(new Uint8Array(digest))
  const now = ctx.clock.now()
  // A key's scope names its club: a unit of the club is enough to give the claim to one request only.
  return ctx.storage.transaction(
    async (tx) => {
      const existing = await tx.idempotency.find(scope, key)
      if (existing && existing.expiresAt > now) {
        if (existing.requestHash !== requestHash) {
          throw new ProblemError('idempotency-key-reused', { detail: 'This Idempotency-Key was used with another request body.' })
        }
        if (existing.response) return { replay: existing.response }
        if (now - existing.createdAt < IDEMPOTENCY_IN_FLIGHT_MS) {
          throw new ProblemError('idempotency-in-flight', { detail: 'A request with this Idempotency-Key is still being processed.' })
        }
      }
      if (existing) await tx.idempotency.delete(scope, key)
      await tx.idempotency.insert({ scope, key, requestHash, response: null, createdAt: now, expiresAt: now + IDEMPOTENCY_RETENTION_MS })
      return { claim: { scope, key } }
    },
    { club },
  )
}

/** Gives a claim up after its operation failed, so that the client may retry with the same key. */
export async function releaseIdempotencyKey(ctx: IssuerContext, club: string, claim: IdempotencyClaim): Promise<void> {
  await ctx.storage.transaction((tx) => tx.idempotency.delete(claim.scope, claim.key), { club })
}

/**
 * Stores an operation's result as the answer of its claim, in the operation's unit of work. The result
 * is kept as its JSON text: the one place it is serialised, because a replay must come back from storage.
 * JSON text parsed and written again is the same text, so whoever writes the replayed result (the HTTP
 * answer) writes the first answer's bytes.
 */
export async function completeClaim<T>(tx: UnitOfWork, claim: IdempotencyClaim, result: T): Promise<void> {
  await tx.idempotency.complete(claim.scope, claim.key, { status: 200, body: JSON.stringify(result) })
}

/**
 * Runs an operation under an optional Idempotency-Key. `run` receives the claim (or `null`) and MUST
 * `completeClaim` it with its result in the unit of work that does the operation. Returns the result,
 * the first one's on a replay, and whether it is a replay.
 */
export async function withIdempotency<T>(
  ctx: IssuerContext,
  idempotency: { club: string; scope: string; key: string | null; body: unknown },
  run: (claim: IdempotencyClaim | null) => Promise<T>,
): Promise<{ result: T; replayed: boolean }> {
  if (idempotency.key === null) return { result: await run(null), replayed: false }
  const outcome = await claimIdempotencyKey(ctx, idempotency.club, idempotency.scope, idempotency.key, idempotency.body)
  // What completeClaim stored for this scope's operation, so of its type.
  if ('replay' in outcome) return { result: JSON.parse(outcome.replay.body) as T, replayed: true }
  try {
    return { result: await run(outcome.claim), replayed: false }
  } catch (error) {
    await releaseIdempotencyKey(ctx, idempotency.club, outcome.claim)
    throw error
  }
}
