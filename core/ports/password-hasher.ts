/**
 * Hashes and checks the passwords of console administrators with a memory-hard function
 * (docs/admin-console.md § Passwords). Core never sees the function: the server wires scrypt from
 * `node:crypto` (`createScryptPasswordHasher()` from `clubcred/node`), which Deno's `node:crypto` also has.
 */
export interface PasswordHasher {
  /**
   * The password hashed with a fresh random salt, encoded with its function, parameters and salt (a PHC
   * string, `$scrypt$ln=17,r=8,p=1$<salt>$<hash>`), so that the parameters can change later and earlier
   * hashes still verify.
   */
  hash(password: string): Promise<string>
  /**
   * Whether `password` hashes to `encoded` under the parameters `encoded` names, compared in constant
   * time. MUST resolve `false`, never reject, when `encoded` is not a hash this hasher can read. Both may
   * reject with `PasswordHasherBusy` when too many hashes run at once.
   */
  verify(password: string, encoded: string): Promise<boolean>
  /**
   * Whether `encoded` was made with other parameters than new hashes get (they were raised since), so
   * that a login that just verified the password stores a new hash. Absent: never.
   */
  needsRehash?(encoded: string): boolean
}

/** The hasher of an issuer given none: hashing fails with a clear TypeError, checking matches nothing. */
export const unavailablePasswordHasher: PasswordHasher = {
  hash() {
    return Promise.reject(new TypeError('createIssuer: the staff console needs a `passwordHasher` (createScryptPasswordHasher() from clubcred/node)'))
  },
  verify() {
    return Promise.resolve(false)
  },
}

/**
 * Thrown by a hasher that has as many hashes running and waiting as it allows: each scrypt hash holds
 * 128 MiB and a thread for half a second, so a flood of logins must be turned away, not queued without
 * end. The console answers 503 with `Retry-After`.
 */
export class PasswordHasherBusy extends Error {
  constructor() {
    super('Too many password hashes at once; try again shortly.')
    this.name = 'PasswordHasherBusy'
  }
}
