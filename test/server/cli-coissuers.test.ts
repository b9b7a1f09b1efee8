/**
 * The admin CLI's co-issuer commands (docs/decisions/0012-co-issuers.md: co-issuers are added by the admin CLI;
 * docs/api.md §2.3 `coIssuers`), run as real CLI processes on a real data dir. Each prints
 * `{ coIssuers: [...] }`: the template's co-issuers as its read shows them, the club first.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { cli, freshDataDir, openAdmin, removeDataDir, runCli, type CliResult } from '../support/server.ts'
import type { Json } from '../support/json.ts'

function assertFailure(result: CliResult, code: string): Json {
  assert.match(result.stdout, /^[^\n]+\n$/, `stdout must be one line:\n${result.stdout}`)
  assert.notEqual(result.code, 0, 'a failure exits non-zero')
  assert.deepStrictEqual(Object.keys(result.json), ['error'])
  assert.equal(result.json.error.code, code, result.stdout)
  assert.ok(result.json.error.message.length > 0)
  return result.json.error
}

describe('the admin CLI: coissuer add, list, remove', () => {
  let dataDir: string
  let template: number
  let other: number
  before(async () => {
    dataDir = freshDataDir()
    const admin = openAdmin(dataDir)
    await admin.clubs.create({ domain: 'chess', name: 'Chess Club' })
    await admin.clubs.create({ domain: 'go', name: 'Go Club' })
    template = (await admin.achievements.create('chess', { name: '체스 입문', description: 'Beginners' })).id
    other = (await admin.achievements.create('go', { name: '바둑 입문', description: 'Beginners' })).id
    await admin.close()
  })
  after(() => removeDataDir(dataDir))

  const run = (...args: string[]) => runCli(dataDir, 'coissuer', ...args)
  const list = async () => (await cli(dataDir, 'coissuer', 'list', '--club', 'chess', '--achievement', String(template))).coIssuers

  it('adds, lists, updates in place and removes co-issuers, printing { coIssuers } each time', async () => {
    const first = await cli(dataDir, 'coissuer', 'list', '--club', 'chess', '--achievement', String(template))
    assert.deepStrictEqual(Object.keys(first), ['coIssuers'])
    const REPRESENTATIVE = first.coIssuers[0]
    assert.deepStrictEqual(first.coIssuers, [{ id: REPRESENTATIVE.id, name: 'Chess Club', url: null, role: 'representative', isVerified: false }])
    assert.match(REPRESENTATIVE.id, /^did:web:.+:open-badges:v3:issuers:chess$/)

    const added = await cli(
      dataDir,
      'coissuer',
      'add',
      '--club',
      'chess',
      '--achievement',
      String(template),
      '--name',
      '대한체스연맹',
      '--url',
      'https://KChess.example',
      '--verified',
    )
    const federation = { id: 'https://kchess.example/', name: '대한체스연맹', url: 'https://kchess.example/', role: 'partner', isVerified: true }
    assert.deepStrictEqual(added, { coIssuers: [REPRESENTATIVE, federation] }, 'the url is stored normalised')

    const go = { id: 'https://go.example/club', name: 'Go Club', url: 'https://go.example/club', role: 'partner', isVerified: false }
    await cli(dataDir, 'coissuer', 'add', '--club', 'chess', '--achievement', String(template), '--name', 'Go Club', '--url', 'https://go.example/club')
    // The same url again updates that co-issuer where it stands (idempotent for scripts).
    const updated = await cli(
      dataDir,
      'coissuer',
      'add',
      '--club',
      'chess',
      '--achievement',
      String(template),
      '--name',
      'KCF',
      '--url',
      'https://kchess.example/',
    )
    assert.deepStrictEqual(updated.coIssuers, [REPRESENTATIVE, { ...federation, name: 'KCF', isVerified: false }, go])
    assert.deepStrictEqual(await list(), updated.coIssuers)

    const removed = await cli(dataDir, 'coissuer', 'remove', '--club', 'chess', '--achievement', String(template), '--url', 'https://kchess.example')
    assert.deepStrictEqual(removed, { coIssuers: [REPRESENTATIVE, go] })

    // The template read shows the same list (the library on the same data dir).
    const admin = openAdmin(dataDir)
    try {
      const read = (await admin.achievements.read('chess', template)).coIssuers
      assert.deepStrictEqual(read.slice(1), removed.coIssuers.slice(1))
      assert.equal(read[0]?.role, 'representative')
      assert.deepStrictEqual(
        (await admin.achievements.read('go', other)).coIssuers.map((c: { role: string }) => c.role),
        ['representative'],
        'other templates are untouched',
      )
    } finally {
      await admin.close()
    }
  })

  it('refuses bad input with a clear error and changes nothing', async () => {
    const before = await list()
    const id = String(template)
    const cases: [string[], string, { message: string; path: string }[] | null][] = [
      [['add', '--club', 'chess', '--achievement', id, '--url', 'https://x.example'], 'usage', null],
      [['add', '--club', 'chess', '--achievement', id, '--name', 'X'], 'usage', null],
      [['add', '--club', 'chess', '--achievement', 'first', '--name', 'X', '--url', 'https://x.example'], 'usage', null],
      [
        ['add', '--club', 'chess', '--achievement', id, '--name', '   ', '--url', 'https://x.example'],
        'validation-failed',
        [{ message: 'required', path: 'name' }],
      ],
      [
        ['add', '--club', 'chess', '--achievement', id, '--name', 'x'.repeat(201), '--url', 'https://x.example'],
        'validation-failed',
        [{ message: 'too-long', path: 'name' }],
      ],
      [
        ['add', '--club', 'chess', '--achievement', id, '--name', 'Line\nbreak', '--url', 'https://x.example'],
        'validation-failed',
        [{ message: 'control-character', path: 'name' }],
      ],
      [
        ['add', '--club', 'chess', '--achievement', id, '--name', 'X', '--url', 'ftp://x.example/'],
        'validation-failed',
        [{ message: 'invalid-url', path: 'url' }],
      ],
      [['add', '--club', 'chess', '--achievement', id, '--name', 'X', '--url', '/partners/x'], 'validation-failed', [{ message: 'invalid-url', path: 'url' }]],
      [
        ['add', '--club', 'chess', '--achievement', id, '--name', 'X', '--url', 'javascript:alert(1)'],
        'validation-failed',
        [{ message: 'invalid-url', path: 'url' }],
      ],
      [['add', '--club', 'nope', '--achievement', id, '--name', 'X', '--url', 'https://x.example'], 'club-not-found', null],
      [['add', '--club', 'chess', '--achievement', '999', '--name', 'X', '--url', 'https://x.example'], 'achievement-not-found', null],
      [['add', '--club', 'chess', '--achievement', String(other), '--name', 'X', '--url', 'https://x.example'], 'achievement-not-found', null],
      [['list', '--club', 'chess', '--achievement', '999'], 'achievement-not-found', null],
      [
        ['remove', '--club', 'chess', '--achievement', id, '--url', 'https://never-added.example'],
        'validation-failed',
        [{ message: 'co-issuer-not-found', path: 'url' }],
      ],
      [['remove', '--club', 'chess', '--achievement', id], 'usage', null],
    ]
    for (const [args, code, errors] of cases) {
      const error = assertFailure(await run(...args), code)
      if (errors) assert.deepStrictEqual(error.errors, errors, args.join(' '))
    }
    assert.deepStrictEqual(await list(), before, 'nothing changed')
  })
})
