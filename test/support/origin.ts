/**
 * Where the tests' issuers say they are. In process: `defaultUrls(8787)`, every surface on `ORIGIN`,
 * which is what requests are addressed to. A server process gets `ADDRESS` as its public address
 * whatever port it listens on, so that servers started one after another on the same data (a restore,
 * a copy to PostgreSQL, several nodes) publish the same DIDs and URLs; it is a name nothing answers at.
 */
import { defaultUrls } from '../../core/config.ts'

export const URLS = defaultUrls(8787)

export const ORIGIN = URLS.base

const PUBLIC_ORIGIN = 'http://badges.rowing.test'

/** A server process's public address (docs/install.md § Configuration). */
export const ADDRESS = {
  CLUBCRED_BASE_URL: PUBLIC_ORIGIN,
  CLUBCRED_AUTH_URL: `${PUBLIC_ORIGIN}/oauth`,
  CLUBCRED_PUBLIC_URL: PUBLIC_ORIGIN,
  CLUBCRED_SHARE_HOST: new URL(PUBLIC_ORIGIN).host,
  CLUBCRED_LEGACY_BASE_URL: PUBLIC_ORIGIN,
}
