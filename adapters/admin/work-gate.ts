/**
 * A bound on heavy work a process does at once (docs/admin-console.md § Issuing by CSV): a CSV preview
 * or confirmation holds a file of up to 16 MiB and its rows in memory and keeps the event loop busy in
 * turns, so only `atOnce` run side by side; one more is refused at once rather than queued, as the
 * password hasher refuses a hash past its bound, and the caller answers 503 with `Retry-After`.
 */
export interface WorkGate {
  /** `work`'s result, or `null` without running it when `atOnce` runs already. */
  run<T>(work: () => Promise<T>): Promise<T | null>
}

export function createWorkGate(atOnce: number): WorkGate {
  let running = 0
  return {
    async run(work) {
      if (running >= atOnce) return null
      running++
      try {
        return await work()
      } finally {
        running--
      }
    },
  }
}
