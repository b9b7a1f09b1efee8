/**
 * An async mutex for storage adapters: a unit of work holds it across its awaits, so that no other
 * request's statements land inside the open transaction.
 */
export interface Mutex {
  /** Runs `work` alone: after every earlier holder is done, before any later one starts. */
  exclusive<T>(work: () => Promise<T>): Promise<T>
  /**
   * Runs a read that completes without awaiting anything in between: at once when the mutex is free,
   * else after the current holders, so that it never sees a unit's uncommitted writes.
   */
  read<T>(work: () => T | Promise<T>): Promise<T>
}

export function createMutex(): Mutex {
  let tail: Promise<unknown> = Promise.resolve()
  let held = 0

  function exclusive<T>(work: () => Promise<T>): Promise<T> {
    held++
    const result = tail.then(work)
    tail = result.then(
      () => held--,
      () => held--,
    )
    return result
  }

  return {
    exclusive,
    read(work) {
      if (held === 0) {
        try {
          return Promise.resolve(work())
        } catch (error) {
          return Promise.reject(error)
        }
      }
      return exclusive(async () => work())
    },
  }
}
