import { defaultUrls, type IssuerUrls } from '../core/config.ts'

/** The standalone server's settings, read from the environment (DESIGN §3). */
export interface ServerConfig {
  port: number
  host: string
  dataDir: string
  /** `CLUBCRED_MASTER_KEY` as given (base64url or hex of 32 bytes), or `undefined` to use the data dir's key file. */
  masterKey: string | undefined
  /** URL overrides from the environment; the rest follow the port the server listens on. */
  urlOverrides: Partial<IssuerUrls>
  smtpUrl: string | undefined
  /** `CLUBCRED_MAIL_FROM`: the From of recipient mail. */
  mailFrom: string | undefined
}

export function readServerConfig(env: Record<string, string | undefined> = process.env): ServerConfig {
  const port = env.PORT === undefined || env.PORT === '' ? 8787 : Number(env.PORT)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new TypeError(`PORT must be a port number, got ${env.PORT}`)
  const overrides: Partial<IssuerUrls> = {}
  const set = (name: keyof IssuerUrls, value: string | undefined) => {
    if (value) overrides[name] = value
  }
  set('base', env.CLUBCRED_BASE_URL)
  set('auth', env.CLUBCRED_AUTH_URL)
  set('public', env.CLUBCRED_PUBLIC_URL)
  set('shareHost', env.CLUBCRED_SHARE_HOST)
  set('legacyBase', env.CLUBCRED_LEGACY_BASE_URL)
  return {
    port,
    host: env.HOST || '127.0.0.1',
    dataDir: env.CLUBCRED_DATA_DIR || './data',
    masterKey: env.CLUBCRED_MASTER_KEY || undefined,
    urlOverrides: overrides,
    smtpUrl: env.CLUBCRED_SMTP_URL || undefined,
    mailFrom: env.CLUBCRED_MAIL_FROM || undefined,
  }
}

/** The issuer URLs for a server listening on `port`: the defaults of DESIGN §3 under the overrides. */
export function resolveUrls(config: ServerConfig, port: number): IssuerUrls {
  return { ...defaultUrls(port), ...config.urlOverrides }
}
