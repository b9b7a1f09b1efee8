/**
 * What looks like a secret in free text, masked (docs/logs.md § What never enters a line): the net under
 * the rule that nothing is logged raw. Runtime-agnostic, so that the HTTP face can refuse a request id
 * shaped like a secret by the same rule the server's log masks with.
 *
 * Every pattern starts only where a run of its characters starts (a lookbehind) or always consumes what
 * it started on, so that masking stays linear in the text: a header of 16 KiB is masked whole, before it
 * is cut to a log line's length, without a backtracking blow-up.
 */

/** `scheme://` and everything up to the URL's end: the user and password end at its last `@`. */
const URL_TEXT = /(?<![a-z0-9+.-])([a-z][a-z0-9+.-]*:\/\/)([^\s"'<>]*)/gi

/**
 * An HTTP authentication scheme as a word of its own (not `basic` in `ua-basic`), then what separates it
 * from its credentials as a careless client writes it (spaces, `:`, `=`, `+` or `%20`, `%3A`), then the
 * credentials, unless they are another scheme word (`ua-basic Basic <credentials>` masks the second).
 */
const AUTH_SCHEME = /(?<![\w-])(bearer|basic)(?:[\s:=+]|%20|%3a)+(?!(?:bearer|basic)(?:[\s:=+]|%20|%3a|$))[\w.~/%-][\w.~+/=%-]*/gi

/** A JWT: three base64url segments, the first a JSON object's (`{"` is `eyJ`); anywhere a run starts. */
const JWT = /(?<![\w-])eyJ[\w-]*\.[\w-]*\.[\w-]*/g

/**
 * The secrets clubcred hands out, by their prefixes: client secrets (`ccs_`), legacy API keys
 * (`cck_<id>.<secret>`), setup tokens of the console (`ccsetup_`), webhook signing secrets (`whsec_`).
 * test/adapters/shared/secret-prefixes.test.ts finds every prefix the code makes and holds this list to it.
 */
const CLUBCRED_SECRET = /(?<![A-Za-z0-9])(?:ccsetup|ccs|cck)_[\w.-]+|(?<![A-Za-z0-9])whsec_[\w+/=-]+/g

/**
 * The console's session cookie (`clubcred-admin`, `__Host-clubcred-admin` on https) with its value, as a
 * `Cookie` header copied into another header writes it: the value is a bare session id, with no prefix
 * of its own to be known by.
 */
const SESSION_COOKIE = /(?<![\w-])((?:__Host-)?clubcred-admin)\s*=\s*[^;,\s()"'<>]+/g

/**
 * Basic credentials of a clubcred client however they are written: `base64("cc_…:ccs_…")` always starts
 * `Y2Nf` (the encoding of `cc_`, three bytes to four characters), with or without a scheme before it.
 */
const CLIENT_BASIC_CREDENTIALS = /Y2Nf[\w+/=%-]{16,}/g

/**
 * An e-mail address, starting where a run of address characters starts. Not across a `/`: a path's
 * `node_modules/@scope/pkg/file.js` in a stack frame is not an address.
 */
const EMAIL = /(?<![^\s@<>"'(),;:[\]/])[^\s@<>"'(),;:[\]/]+@[^\s@<>"'(),;:[\]/]+\.[^\s@<>"'(),;:[\]/]+/g

/**
 * `text` with what looks like a secret or an e-mail address masked: a URL's user and password (up to its
 * last `@`, so a password holding `@` goes whole), bearer and basic credentials, a JWT, a client secret
 * (`ccs_`), a legacy API key (`cck_`), a setup token (`ccsetup_`), a webhook secret (`whsec_`), the
 * console's session cookie, a client's Basic credentials in base64 wherever they stand, an e-mail address. A recipient's name cannot be recognised in free text; it
 * stays out of logs because no body and no stored record is ever logged.
 */
export function maskSecrets(text: string): string {
  return text
    .replace(URL_TEXT, (whole, scheme: string, rest: string) => {
      const at = rest.lastIndexOf('@')
      // `file:///…` (a stack frame) has no authority: an `@` in it is a path's (`node_modules/@scope`).
      return at === -1 || rest.startsWith('/') ? whole : `${scheme}[redacted]${rest.slice(at)}`
    })
    .replace(AUTH_SCHEME, (_, scheme: string) => `${scheme} [redacted]`)
    .replace(JWT, '[token]')
    .replace(CLUBCRED_SECRET, '[secret]')
    .replace(SESSION_COOKIE, '$1=[secret]')
    .replace(CLIENT_BASIC_CREDENTIALS, '[secret]')
    .replace(EMAIL, '[email]')
}

/**
 * `text` masked, then cut to `length` characters: masking first, so that a secret across the cut (a JWT
 * whose signature falls after it) is still recognised whole and never shows in part.
 */
export function maskedExcerpt(text: string, length: number): string {
  return maskSecrets(text).slice(0, length)
}

/** Whether `text` holds anything `maskSecrets` would mask. */
export function holdsSecret(text: string): boolean {
  return maskSecrets(text) !== text
}
