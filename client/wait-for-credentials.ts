import { ClubcredTimeoutError } from './errors.ts'
import type { ClubEvent, CredentialRead, Page } from './types.ts'

/** Options of `waitForCredential` and `waitForCredentials`. */
export interface WaitOptions {
  /** Give up after this long (wall time), with a `ClubcredTimeoutError`. Default 60,000. */
  timeoutMs?: number
  /** Pause between two reads of the event feed. Default 1,000. */
  pollMs?: number
  /** Stops waiting, rejecting with the signal's reason. */
  signal?: AbortSignal
}

/** What {@link waitForCredentials} needs of the client: injected, so that it is tested on its own terms. */
export interface WaitDeps {
  /** One page of the event feed, newest first. */
  listEvents(cursor: string | null): Promise<Page<ClubEvent>>
  readCredential(issuanceId: string): Promise<CredentialRead>
  sleep(ms: number, signal?: AbortSignal): Promise<void>
  /** A monotonic wall clock in ms, for the timeout. */
  elapsed(): number
}

const CREDENTIAL_ISSUED = 'issuance.credential_issued'
const ISSUED = 'issuance.issued'
/** Credential reads at once, once the events said they are ready. */
const READ_CONCURRENCY = 8

/**
 * Waits for the credentials of `issuanceIds` by following the event feed (docs/api.md §6: a client waits
 * for `issuance.credential_issued` rather than polling the credential operation), then reads each credential
 * once. One poll reads the feed once for all ids, newest first, and only as far back as it must:
 *
 * - the first poll pages back until it has passed the `issuance.issued` event of every id, since a
 *   credential can only have been issued after that (its event is newer), so a credential issued before
 *   the wait began is found too;
 * - every later poll stops at the newest event the previous poll saw.
 *
 * This relies on the feed's order: newest first by increasing event id (docs/decisions/0009-lists.md).
 * Resolves with the credential reads in the order of `issuanceIds`.
 */
export async function waitForCredentials(deps: WaitDeps, issuanceIds: readonly (number | string)[], options: WaitOptions = {}): Promise<CredentialRead[]> {
  const { timeoutMs = 60_000, pollMs = 1_000, signal } = options
  const ids = issuanceIds.map(String)
  if (ids.length === 0) return []
  const waiting = new Set(ids)
  const issuedSeen = new Set<string>()
  const deadline = deps.elapsed() + timeoutMs
  let newestSeen: string | null = null

  /** Reads the feed down to the newest event of the previous poll (or, first, past every `issuance.issued`). */
  async function poll(): Promise<void> {
    const first = newestSeen === null
    let cursor: string | null = null
    let top: string | null = null
    scan: do {
      const page: Page<ClubEvent> = await deps.listEvents(cursor)
      for (const event of page.data) {
        if (newestSeen !== null && notNewer(event.id, newestSeen)) break scan
        top ??= event.id
        if (event.subject?.type !== 'issuance') continue
        if (event.type === CREDENTIAL_ISSUED) waiting.delete(event.subject.id)
        else if (first && event.type === ISSUED) issuedSeen.add(event.subject.id)
      }
      if (first && [...waiting].every((id) => issuedSeen.has(id))) break
      cursor = page.meta.nextCursor
    } while (cursor !== null)
    if (top !== null) newestSeen = top
  }

  for (;;) {
    signal?.throwIfAborted()
    await poll()
    if (waiting.size === 0) break
    const left = deadline - deps.elapsed()
    if (left <= 0)
      throw new ClubcredTimeoutError(
        ids.filter((id) => waiting.has(id)),
        timeoutMs,
      )
    await deps.sleep(Math.min(pollMs, left), signal)
  }

  const unique = [...new Set(ids)]
  const results = new Map<string, CredentialRead>()
  let next = 0
  const worker = async () => {
    while (next < unique.length) {
      const id = unique[next++]!
      results.set(id, await deps.readCredential(id))
    }
  }
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, unique.length) }, worker))
  return ids.map((id) => results.get(id)!)
}

/**
 * Whether event `id` is the remembered one or older. Event ids are decimal strings that grow; an id of
 * another form is compared by equality only.
 */
function notNewer(id: string, remembered: string): boolean {
  if (id === remembered) return true
  return /^\d+$/.test(id) && /^\d+$/.test(remembered) && BigInt(id) < BigInt(remembered)
}
