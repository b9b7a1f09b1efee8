/** A signed-in console session (docs/admin-console.md § Sessions). */
export interface AdminSession {
  /** `sha256$…` of the 32 random bytes in the cookie; the cookie's value itself is never stored. */
  idHash: string
  adminId: string
  /** The admin's club, fixed at login: every page acts for this club and no other. */
  club: string
  createdAt: number
  /** The last request seen (ms), for the idle timeout; written at most once a minute. */
  lastSeenAt: number
}
