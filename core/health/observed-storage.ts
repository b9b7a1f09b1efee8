import { StorageConflict, StorageUnavailable } from '../errors.ts'
import type { MetricsPort } from '../ports/metrics.ts'
import type { StoragePort } from '../ports/storage.ts'

type AnyMethod = (...args: unknown[]) => Promise<unknown>

/**
 * The storage with its failures counted (`metrics.storageError`), in one place rather than at every
 * caller. A StorageUnavailable counts wherever it surfaces; any other error counts only from a store
 * method called outside a unit, since an error out of `transaction` may be the unit's own work failing
 * (a ProblemError), not the storage. StorageConflict is the storage answering, not failing: not counted.
 */
export function withStorageErrorsObserved(storage: StoragePort, metrics: MetricsPort): StoragePort {
  const observed =
    (fn: AnyMethod, self: unknown, anyError: boolean): AnyMethod =>
    async (...args) => {
      try {
        return await fn.apply(self, args)
      } catch (error) {
        if (error instanceof StorageUnavailable) metrics.storageError('unavailable')
        else if (anyError && !(error instanceof StorageConflict)) metrics.storageError('other')
        throw error
      }
    }
  const wrapped: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(storage)) {
    if (typeof value === 'function') {
      wrapped[name] = name === 'close' ? value.bind(storage) : observed(value as AnyMethod, storage, false)
    } else if (value && typeof value === 'object') {
      const store: Record<string, AnyMethod> = {}
      for (const [method, fn] of Object.entries(value as Record<string, AnyMethod>)) store[method] = observed(fn, value, true)
      wrapped[name] = store
    }
  }
  return wrapped as unknown as StoragePort
}
