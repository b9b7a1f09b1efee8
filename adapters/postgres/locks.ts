/**
 * clubcred's advisory locks, two-key: the first key the hash of `clubcred:<schema>` (two clubcred
 * schemas in one database never block each other), the second which lock. The two-key space is apart
 * from the single bigint keys a host app may use. What each lock orders: storage.ts (`unit`),
 * status-lists.ts (`status-lists`), migrate.ts (`migrations`).
 *
 * A club's lock lives in a space of its own, `clubcred:<schema>:club`, its second key the hash of the
 * club's domain: it orders the club's issuances and events (storage.ts). Two clubs whose domains hash
 * alike share a lock, which costs them only some waiting.
 */
export const LOCK_IDS = { migrations: 0, unit: 1, 'status-lists': 2 } as const

export type AdvisoryLock = keyof typeof LOCK_IDS

/** The first key's text: hashed by the server (`hashtext`), so every node computes the same key. */
export const lockSpace = (schema: string): string => `clubcred:${schema}`

/** The first key's text of the clubs' locks. */
export const clubLockSpace = (schema: string): string => `clubcred:${schema}:club`
