/** A wake-up call between a producer (issuing) and a consumer (the signing worker) in one process. */
export interface Signal {
  notify(): void
  /** Resolves at the next `notify`, or after `timeoutMs`, whichever comes first. */
  wait(timeoutMs: number): Promise<void>
}

export function createSignal(): Signal {
  let waiters: (() => void)[] = []
  let pending = false
  return {
    notify() {
      if (waiters.length === 0) pending = true
      for (const wake of waiters) wake()
      waiters = []
    },
    wait(timeoutMs) {
      if (pending) {
        pending = false
        return Promise.resolve()
      }
      return new Promise((resolve) => {
        const timer = setTimeout(done, timeoutMs)
        function done() {
          clearTimeout(timer)
          waiters = waiters.filter((waiter) => waiter !== done)
          resolve()
        }
        waiters.push(done)
      })
    },
  }
}
