/**
 * The database drivers are optional dependencies of the package (docs/install.md § Install from the package):
 * `npm install clubcred` installs both, `--omit=optional` leaves them out, and an embedder on the
 * memory storage needs neither. The server and the admin commands load a driver only when the configuration
 * needs it, through here, so that a driver left out is one line naming the package to install instead of
 * a module-resolution stack.
 */

/** What each driver is for, in the words of the line that says it is missing. */
const DRIVERS = {
  'better-sqlite3': 'the SQLite driver',
  postgres: 'the PostgreSQL driver',
} as const

export type DriverPackage = keyof typeof DRIVERS

/** A driver the configuration needs is not installed; the message names the package and the command. */
export class DriverMissing extends Error {
  readonly packageName: DriverPackage

  constructor(packageName: DriverPackage, options?: ErrorOptions) {
    super(`${DRIVERS[packageName]} ${packageName} is not installed (an optional dependency of clubcred): npm install ${packageName}`, options)
    this.name = this.constructor.name
    this.packageName = packageName
  }
}

/**
 * Runs `load` (an `import()` of a module that imports `packageName`, or of the package itself) and
 * turns the failure to find that one package into `DriverMissing`. Anything else, a missing dependency
 * of the driver included, is rethrown as it is: it is not the operator's missing install.
 *
 * @example
 * const { default: postgres } = await loadDriver('postgres', () => import('postgres'))
 */
export async function loadDriver<T>(packageName: DriverPackage, load: () => Promise<T>): Promise<T> {
  try {
    return await load()
  } catch (error) {
    if (isMissingPackage(error, packageName)) throw new DriverMissing(packageName, { cause: error })
    throw error
  }
}

/** Node's resolution error for a bare specifier: `Cannot find package '<name>' imported from <file>`. */
function isMissingPackage(error: unknown, packageName: string): boolean {
  return (
    error instanceof Error &&
    (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' &&
    error.message.startsWith(`Cannot find package '${packageName}' `)
  )
}
