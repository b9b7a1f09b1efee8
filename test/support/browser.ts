/**
 * The staff console in a real browser: the real server as a child process (server/node.ts on a temp data
 * dir and a free loopback port), admins made with the real CLI (`admin create`), Debian's chromium driven
 * by playwright-core (never a downloaded browser). Every page a flow visits goes through `look`: axe-core
 * judges it (no violation of impact serious or critical) and a full-page PNG lands in
 * test-artifacts/console/, named by step, for a person to look at.
 */
import assert from 'node:assert/strict'
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { type Browser, type BrowserContext, type Page, type Response } from 'playwright-core'
import { cliInProcess, dataDirEnv } from './cli.ts'
import { launchChromium } from './chromium.ts'
import type { Json } from './json.ts'
import { ROOT, errorLines, freshDataDir, removeDataDir, startServer, type ServerProcess } from './server.ts'

export const CONSOLE_ARTIFACTS = join(ROOT, 'test-artifacts/console')
const AXE_SOURCE = readFileSync(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8')

/** A port no one listens on now, on 127.0.0.1: the CLI must know it before the server starts, for the links it prints. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

export interface ConsoleUnderTest {
  server: ServerProcess
  browser: Browser
  /** `http://localhost:{port}/admin`: the public URL the server and the CLI derive from the port. */
  base: string
  /** Runs an admin CLI command on the server's data dir and port; asserts exit 0 and returns its JSON. */
  cli(...args: string[]): Promise<Json>
  /**
   * A fresh browser context (own cookies) with the console's CSP in force, so that a CSP violation is a
   * console error the flow can see; axe is run through the DevTools protocol, which the CSP does not govern.
   */
  newContext(): Promise<BrowserContext>
  /** Stops the browser and the server; asserts that no request ended in a 500. */
  close(): Promise<void>
}

/**
 * The server, with what `prepare` makes through the CLI before it starts (clubs, designs, admins: no
 * second process writes the SQLite file while the server runs), and chromium, started side by side.
 * `env` goes to the server only (`CLUBCRED_WEBHOOKS_ALLOW_PRIVATE: '1'` for a receiver on loopback).
 */
export async function startConsoleUnderTest(
  prepare: (cli: ConsoleUnderTest['cli']) => Promise<void>,
  { env: serverEnv = {} }: { env?: Record<string, string> } = {},
): Promise<ConsoleUnderTest> {
  const dataDir = freshDataDir()
  const port = await freePort()
  const env = { ...dataDirEnv(dataDir), PORT: String(port) }
  const cli = async (...args: string[]) => {
    const result = await cliInProcess(env, args)
    assert.equal(result.code, 0, `clubcred ${args.join(' ')}:\n${result.stdout}${result.stderr}`)
    return result.json
  }
  await prepare(cli)
  const [server, browser] = await Promise.all([startServer({ dataDir, env: { ...serverEnv, PORT: String(port) } }), launchChromium()])
  return {
    server,
    browser,
    base: `http://localhost:${port}/admin`,
    cli,
    async newContext() {
      const context = await browser.newContext({ viewport: { width: 1024, height: 768 }, locale: 'ko-KR' })
      // A step that cannot happen fails in seconds, not in playwright's 30.
      context.setDefaultTimeout(15_000)
      return context
    },
    async close() {
      await browser.close()
      const code = await server.stop()
      removeDataDir(dataDir)
      assert.equal(code, 0, server.stderr)
      assert.deepEqual(errorLines(server), [], 'no request ended in a 500')
    },
  }
}

interface AxeResult {
  id: string
  impact: string | null
  help: string
  nodes: { target: unknown[]; failureSummary?: string }[]
}

/**
 * axe-core on the page as it is now; fails with each serious or critical violation (rule, impact, the
 * elements' selectors and what to fix) so that a reader can fix the page from the test's output, and
 * with each `<th>` that has no `scope` (docs/admin-console.md: tables with `<th scope>`).
 */
export async function assertAccessible(page: Page, step: string): Promise<void> {
  // A string, not a function: Runtime.evaluate of the DevTools protocol, outside the page's CSP.
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE)
  const violations = (await page.evaluate(
    'axe.run(document, { resultTypes: ["violations"] }).then((result) => result.violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map(({ target, failureSummary }) => ({ target, failureSummary })) })))',
  )) as AxeResult[]
  const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
  const described = serious.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help}\n` +
      violation.nodes.map((node) => `  at ${node.target.join(' ')}\n    ${(node.failureSummary ?? '').replaceAll('\n', '\n    ')}`).join('\n'),
  )
  if (serious.length > 0) assert.fail(`${step} (${page.url()}): axe found ${serious.length} serious or critical violations:\n${described.join('\n')}`)
  // The house rule axe leaves alone (a simple table passes it without): every header cell says what it heads.
  const unscoped = (await page.evaluate('[...document.querySelectorAll("th:not([scope])")].map((th) => th.outerHTML.slice(0, 120))')) as string[]
  if (unscoped.length > 0) assert.fail(`${step} (${page.url()}): ${unscoped.length} <th> without scope="col" or "row":\n  ${unscoped.join('\n  ')}`)
}

/**
 * Each page a flow visits, judged and photographed: `look(page, 'templates-new')` runs axe and writes
 * `NN-templates-new.png`, NN counting the steps of the whole test file. A test file of another page
 * passes its own `folder` (under test-artifacts/console/), so that files run side by side never remove
 * or overwrite each other's pictures; a run removes the pictures its folder had from the last run.
 */
export function createLook(folder = ''): (page: Page, name: string, options?: { fullPage?: boolean }) => Promise<void> {
  const directory = join(CONSOLE_ARTIFACTS, folder)
  mkdirSync(directory, { recursive: true })
  for (const file of readdirSync(directory)) if (/^\d\d-.*\.png$/.test(file)) rmSync(join(directory, file))
  let step = 0
  // `fullPage: false` photographs the window only: a page of a thousand rows is 60,000 pixels tall,
  // 5 s to capture and 8 MB of PNG that no one scrolls through; axe still judges the whole page.
  return async (page, name, { fullPage = true } = {}) => {
    step += 1
    const file = `${String(step).padStart(2, '0')}-${name}.png`
    // The picture first: a page that fails axe is the one a reader most wants to see.
    writeFileSync(join(directory, file), await page.screenshot({ fullPage }))
    await assertAccessible(page, join(folder, file))
  }
}

/** Collects the page's console errors (a CSP violation is one) and failed requests, to assert none at the end. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('console', (message) => {
    // A 404 or 422 page is an answer the flow asked for, which chromium reports as a failed load.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(`${page.url()}: ${message.text()}`)
  })
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`))
  return errors
}

/**
 * Runs `act` (a click, a key press) and waits until the page is at `url`. A navigation answered 400 or
 * more, other than the `refusal` the step expects (401, 422...), fails at once with its method, address,
 * status and text, instead of waiting for a URL that will never come.
 */
export async function navigate(page: Page, act: () => Promise<unknown>, url: string | RegExp, refusal?: number): Promise<void> {
  let listener: (response: Response) => void = () => {}
  const refused = new Promise<never>((_, reject) => {
    listener = (response) => {
      if (!response.request().isNavigationRequest() || response.frame() !== page.mainFrame()) return
      if (response.status() < 400 || response.status() === refusal) return
      const request = response.request()
      void response.text().then(
        (text) =>
          reject(
            new Error(
              `${request.method()} ${response.url()} answered ${response.status()}: ${text
                .replace(/<[^>]+>/g, ' ')
                .replace(/\s+/g, ' ')
                .trim()}`,
            ),
          ),
        reject,
      )
    }
  })
  page.on('response', listener)
  try {
    await act()
    await Promise.race([page.waitForURL(url), refused])
  } finally {
    page.off('response', listener)
  }
}

/**
 * Runs `act` (a form's submit) and waits for the new document a POST answered in place with `status`: a
 * 422 form, or the 201/200 page that shows a secret once (no 303, so the URL may not change, and
 * `navigate` could not tell the new page from the old one).
 */
export async function answeredInPlace(page: Page, act: () => Promise<unknown>, status: number): Promise<void> {
  // All three at once, so that none is left to reject unheard when another fails.
  const [response] = await Promise.all([
    page.waitForResponse((answer) => answer.request().isNavigationRequest() && answer.frame() === page.mainFrame()),
    page.waitForEvent('load'),
    act(),
  ])
  if (response.status() !== status) {
    const text = (await response.text())
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
    assert.fail(`${response.request().method()} ${response.url()} answered ${response.status()}, not ${status}: ${text}`)
  }
}

export { CHROMIUM, launchChromium, noChromium } from './chromium.ts'
