/**
 * The package as users get it: `npm pack` (which builds dist/ with `npm run build`), the tarball
 * installed into a fresh project, used from plain JavaScript without tsx: an issuer embedded in-process
 * issues a credential and verifies it.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

describe('the packed package', () => {
  const dir = mkdtempSync(join(tmpdir(), 'clubcred-pack-'))
  after(() => rmSync(dir, { recursive: true, force: true }))

  it('installs into a fresh project and works from plain JavaScript', { timeout: 300_000 }, () => {
    const tarball = execFileSync(npm, ['pack', '--silent', '--pack-destination', dir], { cwd: root, encoding: 'utf8' }).trim().split('\n').at(-1)!
    const project = join(dir, 'app')
    execFileSync('mkdir', ['-p', project])
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }))
    // --ignore-scripts: this embedder uses the memory storage, so better-sqlite3 need not be compiled.
    execFileSync(npm, ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', join(dir, tarball)], { cwd: project, stdio: 'ignore' })
    writeFileSync(
      join(project, 'main.js'),
      `import { createIssuer, defaultUrls } from 'clubcred'
import { createMemoryStorage } from 'clubcred/memory'
const issuer = createIssuer({ storage: createMemoryStorage(), masterKey: new Uint8Array(32).fill(3), urls: defaultUrls(8787) })
await issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
const template = await issuer.achievements.create('chess', { name: '체스 입문', description: 'Beginners', tag: ['chess'] })
const { result } = await issuer.issuances.issue('chess', { achievementFormId: template.id, recipients: [{ name: 'Kim', email: 'kim@example.com' }] })
await issuer.worker.drain()
const verdict = await issuer.verification.verify(result.results[0].resourceId)
const response = await issuer.fetch(new Request('http://localhost:8787/open-badges/v3/achievements/' + result.results[0].resourceId + '/verify'))
console.log(JSON.stringify({ isValid: verdict.isValid, status: verdict.status, name: verdict.payload.vc.name, http: response.status }))
await issuer.close()
`,
    )
    const output = execFileSync(process.execPath, ['main.js'], { cwd: project, encoding: 'utf8' })
    assert.deepEqual(JSON.parse(output.trim().split('\n').at(-1)!), { isValid: true, status: 'valid', name: '체스 입문', http: 200 })
  })
})
