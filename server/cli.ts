/**
 * The admin CLI, the dashboard stand-in (docs/decisions.md, Admin CLI): `npm run -s cli -- <command>`.
 * Prints exactly one JSON object on stdout; on failure `{ "error": { code, message } }` and a non-zero
 * exit.
 */
import { readFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { extname } from 'node:path'
import { parseArgs } from 'node:util'
import { recipientsFromCsv } from './csv.ts'
import { createProgress } from './progress.ts'
import { ProblemError } from '../core/errors.ts'
import { MAX_RECIPIENTS } from '../core/issuances/schema.ts'
import { readServerConfig, resolveUrls } from './config.ts'
import { BackupRefused, BackupUnverified, RestoreKeyMismatch } from './backup-errors.ts'
import { MasterKeyMismatch } from '../core/keys/check-master-key.ts'
import type { Issuer } from '../index.ts'
import type { DesignCreateBody, IssueBody } from '../core/inputs.ts'

class UsageError extends Error {}

const USAGE = `commands:
  club create --domain D --name N [--no-issue]
  club verify --club D [--off]
  client create --club D [--scopes "issuance:write issuance:read ..."]
  client rotate --client ID
  client delete --client ID
  apikey create --club D
  apikey list --club D
  apikey revoke --key ID
  design create --club D --kind badge|certificate --name N [--file image.svg|png]
  key rotate --club D
  issue --club D --achievement N --csv FILE [--mode email|none]
  coissuer add --club D --achievement N --name NAME --url URL [--verified]
  coissuer list --club D --achievement N
  coissuer remove --club D --achievement N --url URL
  webhook create --club D --url URL [--events "issuance.issued issuance.credential_issued ..."]
  webhook list --club D
  webhook update --webhook ID [--url URL] [--events "..."] [--enable|--disable]
  webhook rotate-secret --webhook ID
  webhook delete --webhook ID
  webhook deliveries --webhook ID [--limit N]
  webhook replay --webhook ID --after EVENT_ID
  storage copy --to postgres://...   (the data dir's SQLite file into an empty PostgreSQL database)
  backup --out FILE                  (a consistent copy of the data dir's SQLite file, also while the server runs)
  restore --from FILE                (a backup into a data dir without a database)
  verify-backup FILE                 (every key opens with the master key, every credential verifies)`

type Options = Record<string, string | boolean | undefined>
type Command = (issuer: Issuer, options: Options) => Promise<unknown>

const required = (options: Options, name: string): string => {
  const value = options[name]
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`)
  return value
}

/**
 * `--key` of `apikey revoke`: the id `apikey list` prints, or the key's visible prefix `cck_<id>`. A whole
 * key is refused without echoing it: a secret does not belong on a command line (shell history).
 */
function apiKeyId(value: string): string {
  const match = /^(?:cck_)?([0-9a-f]{16})$/.exec(value)
  if (!match) throw new UsageError('--key must be the id that apikey list prints (16 hex digits), or cck_<id>; never the whole key')
  return match[1]!
}

const COMMANDS: Record<string, Command> = {
  'club create': (issuer, o) => issuer.clubs.create({ domain: required(o, 'domain'), name: required(o, 'name'), canIssue: !o['no-issue'] }),
  'club verify': (issuer, o) => issuer.clubs.setVerified(required(o, 'club'), !o.off),
  'client create': (issuer, o) =>
    issuer.clients.create({
      club: required(o, 'club'),
      ...(typeof o.scopes === 'string' ? { scopes: o.scopes.split(/[\s,]+/).filter(Boolean) } : {}),
    }),
  'client rotate': (issuer, o) => issuer.clients.rotate(required(o, 'client')),
  'client delete': (issuer, o) => issuer.clients.delete(required(o, 'client')),
  'apikey create': (issuer, o) => issuer.legacy.createApiKey(required(o, 'club')),
  'apikey list': (issuer, o) => issuer.legacy.listApiKeys(required(o, 'club')),
  'apikey revoke': (issuer, o) => issuer.legacy.revokeApiKey(apiKeyId(required(o, 'key'))),
  'design create': (issuer, o) => {
    const kind = required(o, 'kind')
    const file = typeof o.file === 'string' ? o.file : null
    const image: DesignCreateBody['image'] = file
      ? { mediaType: extname(file).toLowerCase() === '.png' ? 'image/png' : 'image/svg+xml', data: readFileSync(file).toString('base64') }
      : undefined
    return issuer.designs.create(required(o, 'club'), { kind: kind as DesignCreateBody['kind'], name: required(o, 'name'), ...(image ? { image } : {}) })
  },
  issue: issueFromCsv,
  // Each prints `{ coIssuers: [...] }`, the template's co-issuers as its read shows them (club first).
  'coissuer add': async (issuer, o) => ({
    coIssuers: await issuer.achievements.coIssuers.add(required(o, 'club'), templateId(o), {
      name: required(o, 'name'),
      url: required(o, 'url'),
      isVerified: Boolean(o.verified),
    }),
  }),
  'coissuer list': async (issuer, o) => ({ coIssuers: await issuer.achievements.coIssuers.list(required(o, 'club'), templateId(o)) }),
  'coissuer remove': async (issuer, o) => ({
    coIssuers: await issuer.achievements.coIssuers.remove(required(o, 'club'), templateId(o), { url: required(o, 'url') }),
  }),
  'key rotate': async (issuer, o) => {
    const club = required(o, 'club')
    if (!(await issuer.clubs.find(club))) throw new ProblemError('club-not-found', { detail: `There is no club ${club}.` })
    const key = await issuer.keys.rotate(club)
    return { kid: key.kid, club, createdAt: new Date(key.createdAt).toISOString() }
  },
  ...webhookCommands(),
}

/** `webhook ...` (issue 17): the secret is printed by create and rotate-secret only, never stored in clear. */
function webhookCommands(): Record<string, Command> {
  const events = (o: Options) => (typeof o.events === 'string' ? o.events : undefined)
  return {
    'webhook create': async (issuer, o) => {
      const { id, url, events: types, secret } = await issuer.webhooks.create({ club: required(o, 'club'), url: required(o, 'url'), events: events(o) })
      return { id, url, events: types, secret }
    },
    'webhook list': async (issuer, o) => ({ webhooks: await issuer.webhooks.list(required(o, 'club')) }),
    'webhook update': (issuer, o) => {
      if (o.enable && o.disable) throw new UsageError('--enable and --disable exclude each other')
      return issuer.webhooks.update(required(o, 'webhook'), {
        ...(typeof o.url === 'string' && { url: o.url }),
        ...(events(o) !== undefined && { events: events(o) }),
        ...((o.enable || o.disable) && { enabled: Boolean(o.enable) }),
      })
    },
    'webhook rotate-secret': (issuer, o) => issuer.webhooks.rotateSecret(required(o, 'webhook')),
    'webhook delete': (issuer, o) => issuer.webhooks.delete(required(o, 'webhook')),
    'webhook deliveries': async (issuer, o) => {
      const limit = o.limit === undefined ? undefined : Number(o.limit)
      if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 1000)) throw new UsageError('--limit must be from 1 to 1000')
      return { deliveries: await issuer.webhooks.deliveries(required(o, 'webhook'), limit) }
    },
    'webhook replay': (issuer, o) => issuer.webhooks.replay(required(o, 'webhook'), required(o, 'after')),
  }
}

/** `--achievement N`: a template id (a positive integer), else a usage error. */
function templateId(o: Options): number {
  const id = Number(required(o, 'achievement'))
  if (!Number.isSafeInteger(id) || id < 1) throw new UsageError('--achievement must be a template id')
  return id
}

/**
 * Bulk issue from a CSV in batches of MAX_RECIPIENTS (the API's limit, spec §4.3). Each batch carries an Idempotency-Key
 * derived from the file and the batch, so running the same file again after a failure issues nothing twice.
 */
async function issueFromCsv(issuer: Issuer, o: Options) {
  const club = required(o, 'club')
  const file = required(o, 'csv')
  const achievementFormId = templateId(o)
  const text = readFileSync(file, 'utf8')
  let recipients
  try {
    recipients = recipientsFromCsv(text)
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  const fingerprint = createHash('sha256').update(text).digest('hex').slice(0, 16)
  const summary = { total: 0, ok: 0, skipped: 0, failed: 0 }
  const problems: unknown[] = []
  const progress = createProgress(recipients.length)
  for (let start = 0; start < recipients.length; start += MAX_RECIPIENTS) {
    const batch = recipients.slice(start, start + MAX_RECIPIENTS)
    const { result } = await issuer.issuances.issue(
      club,
      { achievementFormId, mode: (typeof o.mode === 'string' ? o.mode : 'none') as IssueBody['mode'], recipients: batch },
      { idempotencyKey: `cli-csv-${fingerprint}-${start}`, idempotencyScope: 'cli' },
    )
    for (const key of ['total', 'ok', 'skipped', 'failed'] as const) summary[key] += result.summary[key]
    // Results come in the order of the entries: line = header + position in the file.
    result.results.forEach((item, i) => {
      if (item.status !== 'issued') problems.push({ line: start + i + 2, ...item })
    })
    progress.update(start + batch.length)
  }
  progress.finish()
  return { summary, notIssued: problems }
}

/**
 * `backup`, `restore` and `verify-backup` (docs/backup.md): they work on SQLite files, not through an
 * issuer. Returns what to print, or `undefined` when the command is another one.
 */
async function backupCommand(positionals: string[], values: Options): Promise<unknown> {
  const [name, ...rest] = positionals
  if (name === 'backup' && rest.length === 0) return (await import('./backup.ts')).backupDataDir(readServerConfig(), required(values, 'out'))
  if (name === 'restore' && rest.length === 0) return (await import('./restore.ts')).restoreDataDir(readServerConfig(), required(values, 'from'))
  if (name === 'verify-backup') {
    if (rest.length !== 1) throw new UsageError('verify-backup FILE: name one backup file')
    return (await import('./verify-backup.ts')).verifyBackup(readServerConfig(), rest[0]!)
  }
  return undefined
}

async function main(argv: string[]): Promise<number> {
  let issuer: Issuer | undefined
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        domain: { type: 'string' },
        name: { type: 'string' },
        club: { type: 'string' },
        client: { type: 'string' },
        key: { type: 'string' },
        scopes: { type: 'string' },
        kind: { type: 'string' },
        file: { type: 'string' },
        achievement: { type: 'string' },
        csv: { type: 'string' },
        mode: { type: 'string' },
        url: { type: 'string' },
        verified: { type: 'boolean' },
        'no-issue': { type: 'boolean' },
        off: { type: 'boolean' },
        to: { type: 'string' },
        webhook: { type: 'string' },
        events: { type: 'string' },
        enable: { type: 'boolean' },
        disable: { type: 'boolean' },
        limit: { type: 'string' },
        after: { type: 'string' },
        out: { type: 'string' },
        from: { type: 'string' },
      },
    })
    const name = positionals[0] === 'issue' ? 'issue' : positionals.slice(0, 2).join(' ')
    if (name === 'storage copy' && positionals.length === 2) {
      // Works on the two databases themselves, not through an issuer.
      const to = required(values, 'to')
      const [{ copyStorage }, { betterSqlite3Driver }] = await Promise.all([import('./storage-copy.ts'), import('../adapters/sqlite/driver-better-sqlite3.ts')])
      try {
        print(await copyStorage(readServerConfig(), to, betterSqlite3Driver))
      } catch (error) {
        // The refusals (no source file, a target with rows, a wrong URL) are the operator's to fix.
        throw error instanceof TypeError ? new UsageError(error.message) : error
      }
      return 0
    }
    const onFiles = await backupCommand(positionals, values)
    if (onFiles !== undefined) {
      print(onFiles)
      return 0
    }
    const command = COMMANDS[name]
    if (!command || positionals.length !== name.split(' ').length) throw new UsageError(`unknown command: ${positionals.join(' ') || '(none)'}\n${USAGE}`)
    const config = readServerConfig()
    // Loaded only once the command is known: a usage error answers without loading the issuer.
    const [{ wireIssuer }, { betterSqlite3Driver }, { createNodeSigner }] = await Promise.all([
      import('./wire.ts'),
      import('../adapters/sqlite/driver-better-sqlite3.ts'),
      import('../adapters/node/signer.ts'),
    ])
    issuer = await wireIssuer({ config, urls: resolveUrls(config, config.port), openDriver: betterSqlite3Driver, signer: createNodeSigner() })
    print(await command(issuer, values))
    return 0
  } catch (error) {
    if (error instanceof UsageError || error instanceof BackupRefused || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      print({ error: { code: 'usage', message: (error as Error).message } })
      return 2
    }
    if (error instanceof BackupUnverified) {
      print({ error: { code: 'backup-unverified', message: error.message, ...error.report } })
      return 1
    }
    if (error instanceof MasterKeyMismatch || error instanceof RestoreKeyMismatch) {
      print({ error: { code: 'master-key-mismatch', message: error.message } })
      return 1
    }
    if (error instanceof ProblemError) {
      print({ error: { code: error.code, message: error.detail ?? error.message, ...(error.errors ? { errors: error.errors } : {}) } })
      return 1
    }
    console.error(error)
    print({ error: { code: 'internal-error', message: (error as Error).message } })
    return 1
  } finally {
    await issuer?.close()
  }
}

function print(value: unknown): void {
  process.stdout.write(JSON.stringify(value) + '\n')
}

const exitCode = await main(process.argv.slice(2))
// Exit explicitly once stdout is flushed: a command is done when it has printed, whatever handles a
// library left open (a worker thread, a timer), so that scripts calling the CLI never hang.
process.stdout.write('', () => process.exit(exitCode))
