import { withIdempotency } from '../idempotency/claim.ts'
import type { IssuerContext } from '../context.ts'
import type { BatchResult } from './batch-result.ts'
import { issueBatch } from './issue.ts'

/** An `Idempotency-Key` and whose keys these are (the API client, `cli`, `console`, `library`). */
export interface IssueKey {
  idempotencyKey?: string | null
  idempotencyScope?: string
}

/**
 * The issue operation as the API, the library and the CSV path call it (docs/api.md §4.3): `issueBatch`
 * under the key when one is given, a repeat with the same key and body replaying the first result. Keys
 * are scoped to their owner, the route and the club.
 */
export function issueKeyed(
  ctx: IssuerContext,
  club: string,
  input: unknown,
  { idempotencyKey = null, idempotencyScope = 'library' }: IssueKey = {},
): Promise<{ result: BatchResult; replayed: boolean }> {
  const scope = `${idempotencyScope} POST issuances ${club}`
  return withIdempotency(ctx, { club, scope, key: idempotencyKey, body: input }, (claim) => issueBatch(ctx, club, input, claim))
}
