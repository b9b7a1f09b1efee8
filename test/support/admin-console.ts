/**
 * The staff console as tests drive it: a real issuer on a real SQLite file, a test clock, and scrypt
 * at a low cost (ln 10) so that a login costs milliseconds; the limits are the caller's to lower.
 */
import { createIssuer, type Issuer } from '../../index.ts'
import { createScryptPasswordHasher } from '../../adapters/node/password-hasher.ts'
import { createWebhookTransport } from '../../adapters/node/webhook-transport.ts'
import { createPasskeyVerifier } from '../../adapters/node/passkey-verifier.ts'
import { createTestClock, type TestClock } from './clock.ts'
import { openTempSqlite } from './temp-sqlite.ts'
import type { Notifier } from '../../core/ports/notifier.ts'
import type { AdminConsoleLimits, IssuerUrls } from '../../core/config.ts'
import type { ConsoleStoragePort } from '../../core/ports/storage.ts'
import type { CertificateRenderer } from '../../core/ports/certificate-renderer.ts'

export const CONSOLE_ORIGIN = 'http://localhost:8787'
export const PASSWORD = 'correct horse battery staple'

export interface Console {
  issuer: Issuer
  /** The storage under the issuer, for checks of what is stored. */
  storage: ConsoleStoragePort
  /** Its SQLite file. */
  file: string
  clock: TestClock
  origin: string
  /** GET a console path, with the session cookie when given. */
  get(path: string, cookie?: string): Promise<Response>
  /** POST a form to a console path from the public origin (unless `headers` says otherwise). */
  post(path: string, form: Record<string, string>, { cookie, headers }?: { cookie?: string; headers?: Record<string, string> }): Promise<Response>
  /** Creates an admin and sets the password through the setup link; returns the e-mail. */
  adminWithPassword(club: string, email: string): Promise<string>
  /** Logs in; returns the `name=value` of the session cookie and the CSRF token of its pages. */
  login(email: string, password?: string): Promise<{ cookie: string; csrf: string; response: Response }>
  close(): Promise<void>
}

/**
 * `webhooks`: deliveries go out through the real Node transport, loopback receivers allowed, and the
 * clock starts now, since receivers check `webhook-timestamp` against their own clock. `hasher`: the
 * password hasher's bounds. `certificates`: the certificate renderer, none by default.
 */
export async function openConsole({
  origin = CONSOLE_ORIGIN,
  limits = {},
  hasher = {},
  webhooks = false,
  certificates = null,
  notifier = null,
}: {
  origin?: string
  limits?: Partial<AdminConsoleLimits>
  hasher?: { concurrency?: number; maxWaiting?: number }
  webhooks?: boolean
  certificates?: CertificateRenderer | null
  /** Sends recipient mail (the SMTP notifier on a loopback sink); none by default. */
  notifier?: Notifier | null
} = {}): Promise<Console> {
  const sqlite = await openTempSqlite()
  const clock = createTestClock(webhooks ? Date.now() : undefined)
  const transport = webhooks ? createWebhookTransport() : null
  const host = new URL(origin).host
  const urls: IssuerUrls = { base: origin, auth: `${origin}/oauth`, public: origin, shareHost: host, legacyBase: origin }
  const issuer = createIssuer({
    storage: sqlite.storage,
    masterKey: new Uint8Array(32).fill(7),
    urls,
    clock,
    adminConsole: limits,
    certificates,
    ...(notifier && { notifier }),
    passwordHasher: createScryptPasswordHasher({ parameters: { ln: 10, r: 8, p: 1 }, ...hasher }),
    passkeyVerifier: createPasskeyVerifier(),
    http: { onError: (error) => console.error(error) },
    ...(transport && { webhooks: { allowPrivate: true }, webhookTransport: transport }),
  })
  const get = (path: string, cookie?: string) => issuer.fetch(new Request(`${origin}${path}`, { headers: cookie ? { cookie } : {} }))
  const post: Console['post'] = (path, form, { cookie, headers = {} } = {}) =>
    issuer.fetch(
      new Request(`${origin}${path}`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}), ...headers },
        body: new URLSearchParams(form).toString(),
      }),
    )
  const login: Console['login'] = async (email, password = PASSWORD) => {
    const response = await post('/admin/login', { email, password })
    const setCookie = response.headers.getSetCookie()[0] ?? ''
    const cookie = setCookie.split(';')[0]!
    const page = cookie ? await (await get('/admin/', cookie)).text() : ''
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? ''
    return { cookie, csrf, response }
  }
  return {
    issuer,
    storage: sqlite.storage,
    file: sqlite.file,
    clock,
    origin,
    get,
    post,
    login,
    async adminWithPassword(club, email) {
      if (!(await issuer.clubs.find(club))) await issuer.clubs.create({ domain: club, name: `${club} club` })
      const { setupUrl } = await issuer.admins.create({ club, email })
      const token = new URL(setupUrl).searchParams.get('token')!
      const response = await post('/admin/setup', { token, password: PASSWORD, confirmation: PASSWORD })
      if (response.status !== 303) throw new Error(`setup failed: ${response.status} ${await response.text()}`)
      return email
    },
    async close() {
      // The worker never started (tests drain it); the transport's connections and the storage are all there is.
      await transport?.close()
      await sqlite.close()
    },
  }
}

/** The setup token of a setup link. */
export const tokenOf = (setupUrl: string) => new URL(setupUrl).searchParams.get('token')!

/**
 * The template form's members as a browser posts them, each empty (no design: the built-in one; an
 * empty requirement row, which is no requirement), under `fields`.
 */
export const templateForm = (fields: Record<string, string>): Record<string, string> => ({
  name: '',
  nameEn: '',
  type: 'completion',
  description: '',
  descriptionEn: '',
  imprintDescription: '',
  imprintDescriptionEn: '',
  tag: '',
  prefix: '',
  programName: '',
  programUrl: '',
  programShown: '0',
  achievementBadgeDesignId: '',
  achievementCertificateDesignId: '',
  'requirement.0.type': '',
  'requirement.0.description': '',
  'requirement.0.url': '',
  ...fields,
})
