/**
 * Every example under examples/ runs: each mounts clubcred under /badges in a host app, and a token,
 * a template, an issue and a public verification go through the mount while the host's own route keeps
 * answering. Examples import `clubcred` by name, as an embedder would; tsx resolves the name to the
 * sources through tsconfig.json `paths`.
 */
import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { after, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import type { IssuanceDetail } from '../../core/issuances/present.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))

async function start(
  example: string,
): Promise<{ child: ChildProcess; ready: { listening: string; clubcred: string; client: { client_id: string; client_secret: string } } }> {
  const child = spawn(process.execPath, ['--import', 'tsx', `examples/${example}`], {
    cwd: root,
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stderr!.on('data', (chunk) => (stderr += chunk))
  const ready = await new Promise<Awaited<ReturnType<typeof start>>['ready']>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${example} did not start: ${stderr}`)), 30_000)
    child.stdout!.on('data', (chunk) => {
      stdout += chunk
      const line = stdout.split('\n').find((text) => text.startsWith('{'))
      if (line) {
        clearTimeout(timer)
        resolve(JSON.parse(line))
      }
    })
    child.once('exit', (code) => reject(new Error(`${example} exited with ${code}: ${stderr}`)))
  })
  return { child, ready }
}

for (const example of ['node-http-prefix.ts', 'express-mount.ts', 'fetch-framework.ts']) {
  describe(`examples/${example}`, () => {
    let running: Awaited<ReturnType<typeof start>> | undefined
    after(() => running?.child.kill('SIGTERM'))

    it('serves the host app and clubcred under /badges: token, template, issue, verify', async () => {
      running = await start(example)
      const { listening, clubcred, client } = running.ready
      assert.equal(await (await fetch(`${listening}/`)).text(), 'the host app\n')

      const tokenResponse = await fetch(`${clubcred}/oauth/token`, {
        method: 'POST',
        headers: { authorization: 'Basic ' + btoa(`${client.client_id}:${client.client_secret}`), 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      })
      assert.equal(tokenResponse.status, 200)
      const { access_token } = (await tokenResponse.json()) as { access_token: string }
      const call = (method: string, path: string, body?: unknown) =>
        fetch(`${clubcred}${path}`, {
          method,
          headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
          ...(body ? { body: JSON.stringify(body) } : {}),
        })

      const template = await call('POST', '/v2/clubs/chess/achievements', { name: '체스 입문', description: 'Beginners' })
      assert.equal(template.status, 201)
      assert.equal(template.headers.get('location'), `${clubcred}/v2/clubs/chess/achievements/1`)
      const issued = (await (
        await call('POST', '/v2/clubs/chess/issuances', { achievementFormId: 1, recipients: [{ name: 'Kim', email: 'kim@example.com' }] })
      ).json()) as { summary: { ok: number }; results: { resourceId: number }[] }
      assert.equal(issued.summary.ok, 1)

      let detail: IssuanceDetail | undefined
      for (let i = 0; i < 100 && !detail?.credential; i++) {
        detail = ((await (await call('GET', `/v2/clubs/chess/issuances/${issued.results[0]!.resourceId}`)).json()) as { data: IssuanceDetail }).data
        if (!detail.credential) await new Promise((resolve) => setTimeout(resolve, 50))
      }
      const credential = detail?.credential
      assert.ok(credential, 'the credential was signed in the background')
      assert.ok(credential.verifyUrl.startsWith(`${clubcred}/open-badges/v3/`))
      const verdict = (await (await fetch(credential.verifyUrl)).json()) as { isValid: boolean; status: string }
      assert.equal(verdict.isValid, true)
      assert.equal(verdict.status, 'valid')
      assert.equal((await fetch(`${listening}/nowhere`)).status, 404)
    })
  })
}
