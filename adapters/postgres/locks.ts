/**
 * clubcred's advisory locks, two-key: the first key the hash of `clubcred:<schema>` (two clubcred
 * schemas in one database never block each other), the second which lock. The two-key space is apart
 * from the single bigint keys a host app may use. What each lock orders: storage.ts (`unit`),
 * status-lists.ts (`status-lists`), migrate.ts (`migrations`).
 *
 * A club has two locks, each in a space of its own, its second key the hash of the club's domain: the
 * club's *issuing* lock (`clubcred:<schema>:club`), which a unit of the club holds throughout and which
 * orders the club's issuances (their checks, their sequences), and its *feed* lock
 * (`clubcred:<schema>:feed`), which a unit takes only to number the club's events, until its commit
 * (storage.ts). Two clubs whose domains hash alike share their locks, which costs them only some waiting.
 */
export const LOCK_IDS = { migrations: 0, unit: 1, 'status-lists': 2 } as const

export type AdvisoryLock = keyof typeof LOCK_IDS

/** The first key's text: hashed by the server (`hashtext`), so every node computes the same key. */
export const lockSpace = (schema: string): string => `clubcred:${schema}`

/** What a club's lock orders: its issuances, or its events. */
export type ClubLock = 'issuing' | 'feed'

/** The first key's text of the clubs' locks of one kind. */
export const clubLockSpace = (schema: string, kind: ClubLock): string => `clubcred:${schema}:${kind === 'issuing' ? 'club' : 'feed'}`
