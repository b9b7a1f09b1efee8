import type { Stores } from '../../core/ports/storage.ts'

/** For each store of the port, the adapter's factory of it over the same arguments (its database, or its state and journal). */
export type StoreFactories<Args extends unknown[]> = { [S in keyof Stores]: (...args: Args) => Stores[S] }

/** Every store of the port, each made by its factory over `args`. */
export function createStores<Args extends unknown[]>(factories: StoreFactories<Args>, ...args: Args): Stores {
  const stores: Partial<Record<keyof Stores, unknown>> = {}
  for (const name of Object.keys(factories) as (keyof Stores)[]) stores[name] = factories[name](...args)
  return stores as Stores
}

export type StoreMethod = (...args: unknown[]) => Promise<unknown>

/** Calls `store.method` of `stores` by name. */
const callOn = (stores: Stores, store: keyof Stores, method: string, args: unknown[]) =>
  (stores[store] as unknown as Record<string, StoreMethod>)[method]!(...args)

/** Every method of every store, replaced by what `wrap` makes of it. */
export function mapMethods(stores: Stores, wrap: (store: keyof Stores, method: string, fn: StoreMethod) => StoreMethod): Stores {
  const wrapped: Partial<Record<keyof Stores, Record<string, StoreMethod>>> = {}
  for (const name of Object.keys(stores) as (keyof Stores)[]) {
    const methods: Record<string, StoreMethod> = {}
    for (const [method, fn] of Object.entries(stores[name] as unknown as Record<string, StoreMethod>)) methods[method] = wrap(name, method, fn)
    wrapped[name] = methods
  }
  return wrapped as unknown as Stores
}

/**
 * The stores as the port offers them outside a unit of work, each call run as a unit of its own on
 * that unit's stores: it waits for a running unit, never sees its uncommitted writes, and is
 * all-or-nothing. `direct` may run a method some other way instead (a read beside running units);
 * it returns `null` for the methods it leaves to a unit.
 */
export function outsideUnits(
  stores: Stores,
  unit: <T>(work: (tx: Stores) => Promise<T>) => Promise<T>,
  direct: (store: keyof Stores, method: string, fn: StoreMethod) => StoreMethod | null = () => null,
): Stores {
  return mapMethods(stores, (store, method, fn) => direct(store, method, fn) ?? ((...args) => unit((tx) => callOn(tx, store, method, args))))
}
