/**
 * `--help` for every command of `clubcred`: text on stdout, exit 0, the usage line and every option the
 * command accepts. The commands come from the same table the CLI runs (`COMMANDS`), so a new command is
 * covered without touching this file; the admin commands keep their JSON contract for everything that is
 * not help. What the real entry `server/bin.ts` decides itself (`serve`, `version`, handing the rest to
 * the admin CLI) runs it as a process; the admin commands' help runs `main` in this process.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { COMMANDS } from '../../server/cli.ts'
import { usageLine } from '../../server/command-line.ts'
import { VARIABLES } from '../../server/environment.ts'
import { freshDataDir, removeDataDir, ROOT } from '../support/server.ts'
import { cliInProcess, dataDirEnv } from '../support/cli.ts'

interface Run {
  code: number
  stdout: string
  stderr: string
}

/** `clubcred ...args` from the sources, on `dataDir`, with none of the test's CLUBCRED_* variables. */
function clubcred(dataDir: string, ...args: string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('CLUBCRED_') && name !== 'PORT') env[name] = value
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'server/bin.ts'), ...args],
      { cwd: ROOT, env: { ...env, CLUBCRED_DATA_DIR: dataDir }, timeout: 20_000 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error)
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr })
      },
    )
  })
}

describe('clubcred --help', () => {
  const dataDir = freshDataDir()
  /** An admin command's `main`, in this process. */
  const admin = (...args: string[]): Promise<Run> => cliInProcess(dataDirEnv(dataDir), args)

  it('clubcred --help lists serve and the usage line of every admin command, exit 0', async () => {
    for (const run of [() => clubcred(dataDir, '--help'), () => admin('-h')]) {
      const { code, stdout } = await run()
      assert.equal(code, 0)
      assert.match(stdout, /^usage: clubcred <command> \[options\]\n/)
      assert.match(stdout, /\n {2}serve /)
      for (const [name, spec] of Object.entries(COMMANDS)) assert.ok(stdout.includes(`\n  ${usageLine(name, spec)}\n`), `lists ${name}`)
    }
  })

  it('clubcred version prints the version of package.json, exit 0', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
    for (const word of ['version', '--version']) assert.deepEqual(await clubcred(dataDir, word), { code: 0, stdout: `${version}\n`, stderr: '' })
  })

  it('clubcred serve --help lists every variable with its default, exit 0, and starts nothing', async () => {
    const { code, stdout, stderr } = await clubcred(dataDir, 'serve', '--help')
    assert.equal(code, 0)
    assert.match(stdout, /^usage: clubcred serve\n/)
    for (const row of Object.values(VARIABLES)) {
      assert.ok(stdout.includes(`\n  ${row.name}  (default: ${row.shown.replaceAll('`', '')})\n`), `lists ${row.name} with its default`)
    }
    assert.doesNotMatch(stderr, /listening/)
  })

  it('clubcred serve with arguments starts nothing, exit 2, and quotes none of them (a key given as an option)', async () => {
    const key = 'f'.repeat(64)
    const { code, stdout, stderr } = await clubcred(dataDir, 'serve', '--master-key', key)
    assert.equal(code, 2)
    assert.equal(stdout, '')
    assert.match(stderr, /^clubcred serve takes no arguments; [^\n]*clubcred serve --help\n$/)
    assert.ok(!stderr.includes(key))
  })

  it('clubcred <command> --help prints the usage and every option of each admin command, exit 0', async () => {
    const names = Object.keys(COMMANDS)
    assert.ok(names.length >= 22, 'every admin command')
    const runs = await Promise.all(names.map((name) => admin(...name.split(' '), '--help')))
    names.forEach((name, i) => {
      const spec = COMMANDS[name]!
      const { code, stdout } = runs[i]!
      assert.equal(code, 0, name)
      assert.ok(stdout.startsWith(`usage: clubcred ${usageLine(name, spec)}\n\n${spec.summary}\n`), `${name}: usage and summary\n${stdout}`)
      for (const option of spec.options) assert.match(stdout, new RegExp(`\\n {2}--${option.name}\\b[^\\n]* {2}\\S`), `${name}: describes --${option.name}`)
    })
  })

  it('a group lists its commands; an unknown command is a usage error in the JSON shape, exit 2', async () => {
    const group = await admin('webhook', '--help')
    assert.equal(group.code, 0)
    for (const name of Object.keys(COMMANDS).filter((name) => name.startsWith('webhook '))) assert.ok(group.stdout.includes(`\n  ${name} `), name)
    const word = await admin('help', 'webhook', 'create')
    assert.equal(word.code, 0)
    assert.equal(word.stdout, (await admin('webhook', 'create', '--help')).stdout, 'help <command> is <command> --help')
    const unknown = await admin('frobnicate', '--help')
    assert.equal(unknown.code, 2)
    assert.equal(JSON.parse(unknown.stdout).error.code, 'usage')
  })

  it('the admin commands keep their contract: one JSON object, usage errors for an unknown or missing option', async (t) => {
    t.after(() => removeDataDir(dataDir))
    const created = await admin('club', 'create', '--domain', 'chess', '--name', 'Chess Club')
    assert.equal(created.code, 0, created.stderr)
    assert.deepEqual(JSON.parse(created.stdout).domain, 'chess')
    const unknownOption = await admin('club', 'create', '--domain', 'go', '--name', 'Go', '--club', 'go')
    assert.deepEqual([unknownOption.code, JSON.parse(unknownOption.stdout).error.code], [2, 'usage'])
    const missing = await admin('webhook', 'create', '--club', 'chess')
    assert.deepEqual([missing.code, JSON.parse(missing.stdout)], [2, { error: { code: 'usage', message: '--url is required' } }])
  })
})
