import { AssertionError } from 'node:assert'
import { AsyncLocalStorage } from 'node:async_hooks'
import type { StoragePort, UnitOptions } from '../../core/ports/storage.ts'

/**
 * Every store method whose name does not start with one of these is a write. The rule is by name so
 * that stores added later (achievements, issuances, ...) are checked without touching this file.
 */
const READ_PREFIXES = ['find', 'list', 'count']

export const isWriteMethod = (method: string): boolean => !READ_PREFIXES.some((prefix) => method.startsWith(prefix))

/** A StoragePort that asserts core's use of it, plus what it saw. */
export interface CheckedStorage extends StoragePort {
  /** Every misuse seen so far, in order (also the ones whose AssertionError core may have swallowed). */
  readonly violations: readonly string[]
  /** Store writes made inside units of work, as `store.method`, in order. */
  readonly writes: readonly string[]
  /** Units of work that committed and that rolled back. */
  readonly units: { committed: number; rolledBack: number }
  /** Throws an AssertionError listing the violations, if any. */
  assertClean(): void
}

interface UnitScope {
  open: boolean
}

/**
 * Wraps any StoragePort and checks how core uses it (docs/architecture.md § Layers):
 * - a write (any method not named find…/list…/count…) outside `transaction` is a violation;
 * - a unit's stores used after the unit ended (an escaped `tx`) is a violation;
 * - calling the outer storage (a store or `transaction`) from inside a unit is a violation: adapters
 *   serialise units, so that call would wait for the unit that waits for it, forever.
 * Each violation throws an AssertionError at the call and is recorded for `assertClean()`.
 */
export function checkedStorage(inner: StoragePort): CheckedStorage {
  const violations: string[] = []
  const writes: string[] = []
  const units = { committed: 0, rolledBack: 0 }
  const insideUnit = new AsyncLocalStorage<UnitScope>()

  const violation = (message: string): never => {
    violations.push(message)
    throw new AssertionError({ message: `checked storage: ${message}` })
  }

  function wrapStore(name: string, store: object, scope: UnitScope | null): object {
    return new Proxy(store, {
      get(target, method, receiver) {
        const value = Reflect.get(target, method, receiver)
        if (typeof value !== 'function' || typeof method !== 'string') return value
        const label = `${name}.${method}`
        return async (...args: unknown[]) => {
          if (scope === null) {
            if (insideUnit.getStore()?.open) violation(`${label} called on the outer storage from inside a unit of work`)
            if (isWriteMethod(method)) violation(`${label} is a write outside a unit of work`)
          } else {
            if (!scope.open) violation(`${label} called on a unit's stores after the unit ended`)
            if (isWriteMethod(method)) writes.push(label)
          }
          return value.apply(target, args)
        }
      },
    })
  }

  function wrapStores(stores: object, scope: UnitScope | null): Record<string, unknown> {
    const wrapped: Record<string, unknown> = {}
    for (const [name, store] of Object.entries(stores)) {
      if (store && typeof store === 'object') wrapped[name] = wrapStore(name, store, scope)
    }
    return wrapped
  }

  const outer = wrapStores(inner, null)

  const checked = {
    ...outer,
    async transaction<T>(work: (tx: Parameters<Parameters<StoragePort['transaction']>[0]>[0]) => Promise<T>, options?: UnitOptions): Promise<T> {
      if (insideUnit.getStore()?.open) violation('transaction called from inside a unit of work (units must not nest)')
      try {
        const result = await inner.transaction((tx) => {
          const scope: UnitScope = { open: true }
          const wrappedTx = wrapStores(tx, scope) as unknown as typeof tx
          return insideUnit.run(scope, async () => {
            try {
              return await work(wrappedTx)
            } finally {
              scope.open = false
            }
          })
        }, options)
        units.committed++
        return result
      } catch (error) {
        units.rolledBack++
        throw error
      }
    },
    ping: () => inner.ping(),
    close: () => inner.close(),
    get violations() {
      return violations
    },
    get writes() {
      return writes
    },
    units,
    assertClean() {
      if (violations.length > 0) {
        throw new AssertionError({ message: `checked storage saw misuse:\n  ${violations.join('\n  ')}` })
      }
    },
  }
  return checked as unknown as CheckedStorage
}
