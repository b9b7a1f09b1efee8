import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto'
import { formatScryptHash, parseScryptHash, withinLimits, type ScryptParameters } from '../../core/crypto/scrypt-phc.ts'
import { PasswordHasherBusy, type PasswordHasher } from '../../core/ports/password-hasher.ts'

/**
 * OWASP's Password Storage Cheat Sheet: scrypt with N = 2^17, r = 8, p = 1 (128 MiB, about a tenth of a
 * second a hash on a current core: docs/admin-console.md § Passwords has the figure measured here).
 */
export const SCRYPT_DEFAULTS: ScryptParameters = { ln: 17, r: 8, p: 1 }

const SALT_BYTES = 16
const HASH_BYTES = 32

export interface ScryptPasswordHasherOptions {
  /** The parameters of new hashes; stored hashes verify with their own. Tests lower `ln` to stay quick. */
  parameters?: ScryptParameters
  /** Hashes run at once (each holds 128·N·r bytes: 128 MiB at the defaults). Default 2. */
  concurrency?: number
  /** Hashes that may wait for a turn; one more is refused with `PasswordHasherBusy`. Default 16. */
  maxWaiting?: number
}

/**
 * The console's password hasher on `node:crypto`'s scrypt, which runs in libuv's thread pool (the event
 * loop stays free) and exists on Deno's `node:crypto` too. Hashes are PHC strings
 * (`core/crypto/scrypt-phc.ts`) carrying their parameters and a 16-byte random salt.
 *
 * @example
 * const issuer = createIssuer({ storage, masterKey, urls, passwordHasher: createScryptPasswordHasher() })
 */
export function createScryptPasswordHasher({
  parameters = SCRYPT_DEFAULTS,
  concurrency = 2,
  maxWaiting = 16,
}: ScryptPasswordHasherOptions = {}): PasswordHasher {
  if (!withinLimits(parameters)) throw new TypeError('createScryptPasswordHasher: parameters out of bounds (ln 10..20, r 1..16, p 1..16)')
  if (!Number.isInteger(concurrency) || concurrency < 1 || !Number.isInteger(maxWaiting) || maxWaiting < 0) {
    throw new TypeError('createScryptPasswordHasher: concurrency must be an integer ≥ 1 and maxWaiting one ≥ 0')
  }
  // The bound: a flood of logins costs at most `concurrency` hashes' memory and threads (libuv has 4,
  // shared with file and DNS work), and waits no longer than `maxWaiting` hashes' time.
  let running = 0
  const waiting: (() => void)[] = []
  const bounded = async <T>(work: () => Promise<T>): Promise<T> => {
    if (running >= concurrency) {
      if (waiting.length >= maxWaiting) throw new PasswordHasherBusy()
      await new Promise<void>((resolve) => waiting.push(resolve))
    } else running++
    try {
      return await work()
    } finally {
      // A waiting hash takes this turn over, so `running` stays as it is; otherwise the turn is freed.
      const next = waiting.shift()
      if (next) next()
      else running--
    }
  }
  return {
    hash: (password) =>
      bounded(async () => {
        const salt = new Uint8Array(randomBytes(SALT_BYTES))
        const hash = await derive(password, salt, parameters, HASH_BYTES)
        return formatScryptHash({ ...parameters, salt, hash })
      }),
    needsRehash(encoded) {
      const stored = parseScryptHash(encoded)
      return stored !== null && (stored.ln !== parameters.ln || stored.r !== parameters.r || stored.p !== parameters.p)
    },
    async verify(password, encoded) {
      const stored = parseScryptHash(encoded)
      if (!stored) return false
      return bounded(async () => timingSafeEqual(await derive(password, stored.salt, stored, stored.hash.length), stored.hash))
    },
  }
}

function derive(password: string, salt: Uint8Array, { ln, r, p }: ScryptParameters, length: number): Promise<Uint8Array> {
  const N = 2 ** ln
  // node:crypto refuses more than 32 MiB unless told; scrypt needs 128·N·r bytes plus a little.
  const maxmem = 128 * N * r * 2
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, length, { N, r, p, maxmem }, (error, key) => (error ? reject(error) : resolve(new Uint8Array(key))))
  })
}
