/**
 * How long a failed signing job or proof waits before it is claimed again, after its `attempts`-th
 * attempt: exponential back-off, 1 s doubling, at most 5 min. A failure that lasts (a key that does not
 * open) costs one cheap attempt every 5 minutes, and never holds up the work behind it.
 */
export function retryDelayMs(attempts: number): number {
  return Math.min(300_000, 1000 * 2 ** Math.min(Math.max(attempts, 1) - 1, 9))
}
