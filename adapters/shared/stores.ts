import type { ConsoleUnitOfWork } from '../../core/ports/storage.ts'

/** For each store of the port, the adapter's factory of it over the same arguments (its database, or its state and journal). */
export type StoreFactories<Args extends unknown[]> = { [S in keyof ConsoleUnitOfWork]: (...args: Args) => ConsoleUnitOfWork[S] }

/** Every store of the port, each made by its factory over `args`. */
export function createStores<Args extends unknown[]>(factories: StoreFactories<Args>, ...args: Args): ConsoleUnitOfWork {
  const stores: Partial<Record<keyof ConsoleUnitOfWork, unknown>> = {}
  for (const name of Object.keys(factories) as (keyof ConsoleUnitOfWork)[]) stores[name] = factories[name](...args)
  return stores as ConsoleUnitOfWork
}

export type StoreMethod = (...args: unknown[]) => Promise<unknown>

/** Calls `store.method` of `stores` by name. */
const callOn = (stores: ConsoleUnitOfWork, store: keyof ConsoleUnitOfWork, method: string, args: unknown[]) =>
  (stores[store] as unknown as Record<string, StoreMethod>)[method]!(...args)

/** Every method of every store, replaced by what `wrap` makes of it. */
export function mapMethods(
  stores: ConsoleUnitOfWork,
  wrap: (store: keyof ConsoleUnitOfWork, method: string, fn: StoreMethod) => StoreMethod,
): ConsoleUnitOfWork {
  const wrapped: Partial<Record<keyof ConsoleUnitOfWork, Record<string, StoreMethod>>> = {}
  for (const name of Object.keys(stores) as (keyof ConsoleUnitOfWork)[]) {
    const methods: Record<string, StoreMethod> = {}
    for (const [method, fn] of Object.entries(stores[name] as unknown as Record<string, StoreMethod>)) methods[method] = wrap(name, method, fn)
    wrapped[name] = methods
  }
  return wrapped as unknown as ConsoleUnitOfWork
}

/**
 * The stores as the port offers them outside a unit of work, each call run as a unit of its own on
 * that unit's stores: it waits for a running unit, never sees its uncommitted writes, and is
 * all-or-nothing. `direct` may run a method some other way instead (a read beside running units);
 * it returns `null` for the methods it leaves to a unit.
 */
export function outsideUnits(
  stores: ConsoleUnitOfWork,
  unit: <T>(work: (tx: ConsoleUnitOfWork) => Promise<T>) => Promise<T>,
  direct: (store: keyof ConsoleUnitOfWork, method: string, fn: StoreMethod) => StoreMethod | null = () => null,
): ConsoleUnitOfWork {
  return mapMethods(stores, (store, method, fn) => direct(store, method, fn) ?? ((...args) => unit((tx) => callOn(tx, store, method, args))))
}
