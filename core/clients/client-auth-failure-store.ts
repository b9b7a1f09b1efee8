import type { ClientAuthFailureWindow } from './auth-failure-window.ts'

/**
 * Failed client authentications, shared by every node on the storage. Rows exist only for clients that
 * exist, so that sprayed made-up ids cannot grow the store; ended windows are purged by housekeeping.
 */
export interface ClientAuthFailureStore {
  /**
   * Counts one failure of the client in fixed windows: when the client has no window, or its window
   * ended at or before `now` (`endsAt <= now`), a new one starts with `failures: 1` and
   * `endsAt: now + windowMs`; else `failures` goes up by 1 and `endsAt` stays. Returns the window as
   * counted. When no client has this id it MUST write nothing and return `null`. Counting MUST be atomic
   * (one statement, not a read then a write): of N concurrent calls within one window, from any number
   * of processes on the storage, each MUST count once, so the calls return N distinct counts.
   */
  recordFailure(clientId: string, now: number, windowMs: number): Promise<ClientAuthFailureWindow | null>
  /** The client's window when it has not ended at `now` (`endsAt > now`); `null` when absent or ended. */
  find(clientId: string, now: number): Promise<ClientAuthFailureWindow | null>
  /** Deletes the client's window (a successful authentication); harmless when absent. */
  clear(clientId: string): Promise<void>
  /** Deletes every window that ended at or before `now`; returns how many. */
  purgeEnded(now: number): Promise<number>
}
