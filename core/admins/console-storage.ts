import type { ConsoleContext, IssuerContext } from '../context.ts'
import type { ConsoleStoragePort, ConsoleStores, StoragePort } from '../ports/storage.ts'

/** Every store of `ConsoleStores`, by name: a record, so that the type check finds one left out. */
const CONSOLE_STORES: Record<keyof ConsoleStores, true> = {
  admins: true,
  adminSessions: true,
  adminPasskeys: true,
  passkeyChallenges: true,
  csvUploads: true,
  activity: true,
}

/** The console's stores that `storage` lacks, in the order of `ConsoleStores`; `[]` when it has them all. */
export function missingConsoleStores(storage: StoragePort): (keyof ConsoleStores)[] {
  return (Object.keys(CONSOLE_STORES) as (keyof ConsoleStores)[]).filter((name) => storage[name] == null)
}

/**
 * `storage` as a storage with the console's stores, after checking that it has every one; a TypeError
 * naming those it lacks otherwise. The staff console's code takes a `ConsoleStoragePort`, and this is
 * the one place that makes one of a `StoragePort`.
 */
export function requireConsoleStorage(storage: StoragePort): ConsoleStoragePort {
  const missing = missingConsoleStores(storage)
  if (missing.length > 0) {
    throw new TypeError(
      `createIssuer: the staff console needs the storage's console stores, and this storage lacks ${missing.join(', ')} ` +
        '(ConsoleStores in core/ports/storage.ts; every storage clubcred ships has them). Pass `console: false` to run without the console.',
    )
  }
  return storage as ConsoleStoragePort
}

/**
 * The context of the staff console's operations, or `null` when the console is off
 * (`IssuerOptions.console`, docs/decisions/0048-storage-port-per-store.md): `true` asks for it, and a
 * storage without the console's stores is then refused; `false` leaves it off; left out, it is on when
 * the storage has the console's stores and off when it has none of them. A storage with some but not
 * all is refused either way but `false`: half a group is a mistake, not a choice.
 */
export function consoleContextOf(ctx: IssuerContext, asked: boolean | undefined): ConsoleContext | null {
  if (asked === false) return null
  const missing = missingConsoleStores(ctx.storage)
  if (asked === undefined && missing.length === Object.keys(CONSOLE_STORES).length) return null
  return { ...ctx, storage: requireConsoleStorage(ctx.storage) }
}

/**
 * What `issuer.admins` and `issuer.csvUploads` are while the console is off: every member is a function
 * whose call rejects with a TypeError saying so, rather than failing later on a store that is not there.
 * Not a thenable (`then` is absent), so that awaiting the object itself does not hang.
 */
export function consoleOff<T extends object>(): T {
  const refuse = () => Promise.reject(new TypeError('the staff console is off (IssuerOptions.console, or a storage without the console stores)'))
  return new Proxy({}, { get: (_target, member) => (member === 'then' || typeof member === 'symbol' ? undefined : refuse) }) as T
}
