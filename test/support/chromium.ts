import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

/** Debian's chromium: the only browser the tests drive (playwright-core never downloads one). */
export const CHROMIUM = '/usr/bin/chromium'

/** CI installs chromium (.ci/run); a developer machine without it skips, saying why. */
export const noChromium = !existsSync(CHROMIUM) && !process.env.CI ? `${CHROMIUM} is not installed (apt-get install chromium)` : false

/** Debian's chromium, headless, as every browser suite launches it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      // The server listens on 127.0.0.1 only; never try ::1 for localhost or a club's share host.
      '--host-resolver-rules=MAP localhost 127.0.0.1, MAP *.localhost 127.0.0.1',
    ],
  })
}
