/**
 * clubcred's advisory locks, two-key: the first key the hash of `clubcred:<schema>` (two clubcred
 * schemas in one database never block each other), the second which lock. The two-key space is apart
 * from the single bigint keys a host app may use. What each lock orders: storage.ts (`unit`),
 * status-lists.ts (`status-lists`), migrate.ts (`migrations`).
 */
export const LOCK_IDS = { migrations: 0, unit: 1, 'status-lists': 2 } as const

export type AdvisoryLock = keyof typeof LOCK_IDS

/** The first key's text: hashed by the server (`hashtext`), so every node computes the same key. */
export const lockSpace = (schema: string): string => `clubcred:${schema}`
