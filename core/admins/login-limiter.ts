import { createFailureLimiter } from '../clients/failure-limiter.ts'
import type { AdminConsoleLimits } from '../config.ts'
import type { Clock } from '../ports/clock.ts'
import type { StoragePort } from '../ports/storage.ts'

/** The limits of failed console logins, per account and per client address (docs/admin-console.md § Limits). */
export interface LoginLimiter {
  /**
   * Seconds until a login for this account from this address may be tried, or 0 when now. A `null`
   * account (a passkey login that names none yet) is the address's count alone.
   */
  retryAfter(account: LoginAccount | null, address: string): Promise<number>
  recordFailure(account: LoginAccount | null, address: string): Promise<void>
  recordSuccess(account: LoginAccount): Promise<void>
}

/** The account a login is for: its e-mail, and its admin's id when an admin has it. */
export interface LoginAccount {
  email: string
  adminId: string | null
}

/**
 * The mechanism of the token endpoint's limit (`core/clients/client-auth-limiter.ts`, decision 0005):
 * an existing account's failures are counted in storage, so that the limit holds across nodes; an
 * e-mail no admin has is counted in this process's bounded `FailureLimiter`, so that sprayed addresses
 * write no rows; both lock after the same count, so the answers do not tell which e-mails exist. The
 * client address is counted per process in a second `FailureLimiter` under its own key namespace.
 */
export function createLoginLimiter({ storage, clock, limits }: { storage: StoragePort; clock: Clock; limits: AdminConsoleLimits }): LoginLimiter {
  const { failuresPerAccount, failuresPerAddress, windowSeconds } = limits
  const windowMs = windowSeconds * 1000
  const unknownAccounts = createFailureLimiter({ clock, limit: failuresPerAccount, windowSeconds })
  const addresses = createFailureLimiter({ clock, limit: failuresPerAddress, windowSeconds })
  const accountKey = (email: string) => `admin-login:account:${email}`
  const addressKey = (address: string) => `admin-login:address:${address}`

  return {
    async retryAfter(account, address) {
      const now = clock.now()
      const atAddress = addresses.retryAfter(addressKey(address))
      if (account === null) return atAddress
      const { email, adminId } = account
      let stored = 0
      if (adminId !== null) {
        const window = await storage.admins.findLoginFailures(adminId, now)
        if (window && window.failures >= failuresPerAccount) stored = Math.max(1, Math.ceil((window.endsAt - now) / 1000))
      }
      return Math.max(stored, unknownAccounts.retryAfter(accountKey(email)), atAddress)
    },
    async recordFailure(account, address) {
      addresses.recordFailure(addressKey(address))
      if (account === null) return
      const { email, adminId } = account
      const window =
        adminId === null ? null : await storage.transaction((tx) => tx.admins.recordLoginFailure(adminId, clock.now(), windowMs), { concurrent: true })
      if (window === null) unknownAccounts.recordFailure(accountKey(email))
    },
    async recordSuccess({ email, adminId }) {
      // The address keeps its count: one good account must not wash out guesses at others from there.
      unknownAccounts.recordSuccess(accountKey(email))
      if (adminId !== null && (await storage.admins.findLoginFailures(adminId, clock.now()))) {
        await storage.transaction((tx) => tx.admins.clearLoginFailures(adminId), { concurrent: true })
      }
    },
  }
}
