/**
 * What a recipient's name is searched and ordered by (docs/admin-console.md § Issuances): the name with
 * the ASCII letters in lower case and nothing else changed. ASCII only, because that is what SQLite folds
 * (NOCASE) and what PostgreSQL folds under the "C" collation, so that every adapter finds and orders the same
 * names; Hangul has no case.
 */
export function nameKey(name: string): string {
  return name.replace(/[A-Z]+/g, (letters) => letters.toLowerCase())
}

/**
 * Orders two keys code point by code point, as SQLite (BINARY on UTF-8) and PostgreSQL ("C") order
 * them; JavaScript's `<` compares UTF-16 units, which puts U+10000 and above before U+E000..U+FFFF.
 */
export function compareNameKeys(a: string, b: string): number {
  const left = a[Symbol.iterator]()
  const right = b[Symbol.iterator]()
  for (;;) {
    const x = left.next()
    const y = right.next()
    if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1
    const difference = x.value.codePointAt(0)! - y.value.codePointAt(0)!
    if (difference !== 0) return difference
  }
}
