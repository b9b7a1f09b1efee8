import { createFailureLimiter } from '../clients/failure-limiter.ts'
import { Lru } from '../util/lru.ts'
import type { AdminConsoleLimits } from '../config.ts'
import type { Clock } from '../ports/clock.ts'
import type { ConsoleStoragePort } from '../ports/storage.ts'

/**
 * The limits of console logins (docs/admin-console.md § Limits; decision 0042). `address` is the client
 * address as the limits count it: an IPv6 client by its /64 (adapters/http/client-address.ts).
 */
export interface LoginLimiter {
  /** Seconds until a password login for this account from this address may be tried, or 0 when now. */
  retryAfter(account: LoginAccount, address: string): Promise<number>
  recordFailure(account: LoginAccount, address: string): Promise<void>
  recordSuccess(account: LoginAccount, address: string): Promise<void>
  /** Seconds until a passkey login from this address may be tried: passkey failures only, never password ones. */
  passkeyRetryAfter(address: string): number
  recordPasskeyFailure(address: string): void
  /** Counts a passkey login challenge handed out to the address; seconds to wait instead when it has had its share. */
  takeChallenge(address: string): number
}

/** The account a login is for: its e-mail, and its admin's id when an admin has it. */
export interface LoginAccount {
  email: string
  adminId: string | null
}

/** An account's failures in its fixed window: how many, and when the window opened and ends. */
interface AccountWindow {
  failures: number
  start: number
  endsAt: number
}

/** E-mails no admin has, tracked at most: sprayed addresses cannot grow the process without bound. */
const UNKNOWN_ACCOUNTS_TRACKED = 10_000

/**
 * Password failures lock the pair of account and address that made them, so that an outsider who knows
 * an e-mail cannot lock its owner out from elsewhere; the account's failures from everywhere (in storage
 * for an admin, so every node sees them) only space further tries by `accountBackoffSeconds`, which keeps
 * a guesser with many addresses slow. An e-mail no admin has is counted alike in this process, so the
 * answers never tell which e-mails exist. Passkey logins, which cannot be guessed, are counted apart and
 * never wait for password failures; the setup link of `admin reset` clears the account's count
 * (core/admins/setup.ts).
 */
export function createLoginLimiter({ storage, clock, limits }: { storage: ConsoleStoragePort; clock: Clock; limits: AdminConsoleLimits }): LoginLimiter {
  const { failuresPerAccount, accountBackoffSeconds, failuresPerAddress, challengesPerAddress, windowSeconds } = limits
  const windowMs = windowSeconds * 1000
  const pairs = createFailureLimiter({ clock, limit: failuresPerAccount, windowSeconds })
  const passwordAddresses = createFailureLimiter({ clock, limit: failuresPerAddress, windowSeconds })
  const passkeyAddresses = createFailureLimiter({ clock, limit: failuresPerAddress, windowSeconds })
  const challenges = createFailureLimiter({ clock, limit: challengesPerAddress, windowSeconds })
  const unknownAccounts = new Lru<string, AccountWindow>(UNKNOWN_ACCOUNTS_TRACKED)
  // The address first: a key is cut at 128 characters, and a long e-mail must not cut the address off.
  const pairKey = (address: string, email: string) => `${address} ${email}`

  /** Seconds until the account's next password try: none before `failuresPerAccount`, then one per backoff step. */
  function backoff(window: AccountWindow | null, now: number): number {
    if (window === null || window.endsAt <= now) return 0
    const over = window.failures - failuresPerAccount
    if (over < 0) return 0
    const opensAt = Math.min(window.start + (over + 1) * accountBackoffSeconds * 1000, window.endsAt)
    return opensAt > now ? Math.max(1, Math.ceil((opensAt - now) / 1000)) : 0
  }

  async function accountWindow({ email, adminId }: LoginAccount, now: number): Promise<AccountWindow | null> {
    if (adminId === null) return unknownAccounts.get(email) ?? null
    const stored = await storage.admins.findLoginFailures(adminId, now)
    return stored ? { failures: stored.failures, start: stored.endsAt - windowMs, endsAt: stored.endsAt } : null
  }

  return {
    async retryAfter(account, address) {
      const now = clock.now()
      return Math.max(pairs.retryAfter(pairKey(address, account.email)), passwordAddresses.retryAfter(address), backoff(await accountWindow(account, now), now))
    },
    async recordFailure(account, address) {
      pairs.recordFailure(pairKey(address, account.email))
      passwordAddresses.recordFailure(address)
      const now = clock.now()
      const stored =
        account.adminId === null ? null : await storage.transaction((tx) => tx.admins.recordLoginFailure(account.adminId!, now, windowMs), { concurrent: true })
      if (stored !== null) return
      // The stored window's rule (core/ports/storage.ts `recordFailure`), here for an e-mail no admin has.
      const window = unknownAccounts.get(account.email)
      if (window && window.endsAt > now) window.failures++
      else unknownAccounts.set(account.email, { failures: 1, start: now, endsAt: now + windowMs })
    },
    async recordSuccess({ email, adminId }, address) {
      // The address keeps its count: one good account must not wash out guesses at others from there.
      pairs.recordSuccess(pairKey(address, email))
      unknownAccounts.delete(email)
      if (adminId !== null && (await storage.admins.findLoginFailures(adminId, clock.now()))) {
        await storage.transaction((tx) => tx.admins.clearLoginFailures(adminId), { concurrent: true })
      }
    },
    passkeyRetryAfter: (address) => passkeyAddresses.retryAfter(address),
    recordPasskeyFailure: (address) => passkeyAddresses.recordFailure(address),
    takeChallenge(address) {
      const wait = challenges.retryAfter(address)
      if (wait > 0) return wait
      challenges.recordFailure(address)
      return 0
    },
  }
}
