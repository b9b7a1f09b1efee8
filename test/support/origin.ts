/**
 * Where the tests' issuers say they are: `defaultUrls(8787)`, every surface on one origin. In process it
 * is what requests are addressed to; a server process gets it as its public address (`ADDRESS`) whatever
 * port it listens on, so that servers started one after another on the same data (a restore, a copy to
 * PostgreSQL, several nodes) publish the same DIDs and URLs.
 */
import { defaultUrls } from '../../core/config.ts'

export const URLS = defaultUrls(8787)

export const ORIGIN = URLS.base

/** `URLS` as a server process's environment (docs/install.md, Configuration). */
export const ADDRESS = {
  CLUBCRED_BASE_URL: URLS.base,
  CLUBCRED_AUTH_URL: URLS.auth,
  CLUBCRED_PUBLIC_URL: URLS.public,
  CLUBCRED_SHARE_HOST: URLS.shareHost,
  CLUBCRED_LEGACY_BASE_URL: URLS.legacyBase,
}
