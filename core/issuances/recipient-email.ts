/**
 * The one rule by which recipients' e-mail addresses compare (docs/decisions/0048-storage-port-per-store.md
 * § One e-mail rule): two addresses are the same recipient's when they are equal once their ASCII letters
 * are lower-cased; every other character compares as it is (`ÄBC@example.com` and `äbc@example.com`
 * differ). It is what SQLite's NOCASE and PostgreSQL's `lower()` under the "C" collation do, so that every
 * adapter finds what core expects; and the schema admits ASCII addresses only, on which it is what users
 * expect of `Kim@Example.COM` and `kim@example.com`.
 */
export function recipientEmailKey(email: string): string {
  return email.replace(/[A-Z]+/g, (letters) => letters.toLowerCase())
}

/** Whether two addresses are the same recipient's by `recipientEmailKey`. */
export function sameRecipientEmail(a: string, b: string): boolean {
  return recipientEmailKey(a) === recipientEmailKey(b)
}
