/**
 * The admin CLI, the dashboard stand-in (docs/decisions/0002-admin-cli.md): `npm run -s cli -- <command>`.
 * Prints exactly one JSON object on stdout; on failure `{ "error": { code, message } }` and a non-zero
 * exit.
 */
import { readFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { extname } from 'node:path'
import { pathToFileURL } from 'node:url'
import { csvRecipients, parseCsvRecords } from '../core/issuances/recipients-csv.ts'
import { decodeCsv } from '../core/issuances/decode-csv.ts'
import { issueCsv } from '../core/issuances/issue-csv.ts'
import { MAX_REVOKE_IDS, type RevokeManyResult } from '../core/issuances/revoke-many.ts'
import { createProgress } from './progress.ts'
import { ProblemError } from '../core/errors.ts'
import { MAX_RECIPIENTS } from '../core/issuances/schema.ts'
import { ConfigurationError, readServerConfig, resolveUrls, type ServerConfig } from './config.ts'
import { warnOfUnknownVariables } from './environment.ts'
import {
  commandHelp,
  findCommand,
  parseOptions,
  required,
  splitCommand,
  usageLine,
  UsageError,
  wantsHelp,
  type CommandSpec,
  type OptionSpec,
  type Options,
} from './command-line.ts'
import { REISSUE_COMMAND, runReissue } from './reissue-command.ts'
import { BackupRefused, BackupRejected, BackupUnverified, RestoreKeyMismatch } from './backup-errors.ts'
import { MasterKeyMismatch } from '../core/keys/check-master-key.ts'
import { DriverMissing, loadDriver } from './load-driver.ts'
import type { Issuer } from '../index.ts'
import type { DesignCreateBody } from '../core/inputs.ts'
import type { SqliteDriver } from '../adapters/sqlite/driver.ts'

/** Where output goes: a stream of the process, or a test's collector. */
export interface CliOutput {
  write(text: string): unknown
  /** A progress bar is drawn only on a terminal. */
  isTTY?: boolean
}

/**
 * What a command reads and where it writes: the process's environment, stdout and stderr when run as
 * a command; a test gives its own, so that commands run in its process, side by side, each on its own
 * data dir.
 */
export interface CliIo {
  env: Record<string, string | undefined>
  stdout: CliOutput
  stderr: CliOutput
}

const processIo = (): CliIo => ({ env: process.env, stdout: process.stdout, stderr: process.stderr })

/** What a command gets besides its options: the configuration, its output, and the data dir's issuer on first use. */
export interface CommandContext {
  config: ServerConfig
  io: CliIo
  /** Wires the issuer on the configured storage once; it is closed after the command. */
  issuer(): Promise<Issuer>
}

type Command = CommandSpec<CommandContext>

/** A command that works through the issuer. */
const withIssuer =
  (run: (issuer: Issuer, options: Options, context: CommandContext) => Promise<unknown>): Command['run'] =>
  async (options, context) =>
    run(await context.issuer(), options, context)

const option = (name: string, value: string | undefined, description: string, isRequired = false): OptionSpec => ({
  name,
  ...(value ? { value } : {}),
  ...(isRequired ? { required: true } : {}),
  description,
})
const CLUB = option('club', 'D', 'the club, by its domain', true)
const CLIENT = option('client', 'ID', 'the API client id (`cc_…`)', true)
const WEBHOOK = option('webhook', 'ID', 'the webhook endpoint id that `webhook create` printed', true)
const ACHIEVEMENT = option('achievement', 'N', 'the achievement template id', true)
/** The CLI's SQLite driver, for the commands that work on SQLite files (the schema check runs the migrations on it). */
const sqliteDriver = () => loadSqliteDriver()
const UNSEALED = option(
  'unsealed',
  undefined,
  'accept a backup without a seal, made before backups were sealed (schema 12 or older; a later schema without a seal is always refused); its data cannot be checked for changes, its schema and keys still are',
)
const EVENTS = option('events', '"TYPE ..."', 'event types (issuance.issued issuance.credential_issued ...), space- or comma-separated; default every type')

/**
 * `--key` of `apikey revoke`: the id `apikey list` prints, or the key's visible prefix `cck_<id>`. A whole
 * key is refused without echoing it: a secret does not belong on a command line (shell history).
 */
function apiKeyId(value: string): string {
  const match = /^(?:cck_)?([0-9a-f]{16})$/.exec(value)
  if (!match) throw new UsageError('--key must be the id that apikey list prints (16 hex digits), or cck_<id>; never the whole key')
  return match[1]!
}

/** Every admin command, by its words; the usage list, `--help` and the option parser come from here. */
export const COMMANDS: Record<string, Command> = {
  'club create': {
    summary: 'Creates a club; prints it.',
    options: [
      option('domain', 'D', 'the club id in every URL (lower-case letters, digits, hyphens)', true),
      option('name', 'N', 'the display name', true),
      option('no-issue', undefined, 'the club may not issue (yet)'),
    ],
    run: withIssuer((issuer, o) => issuer.clubs.create({ domain: required(o, 'domain'), name: required(o, 'name'), canIssue: !o['no-issue'] })),
  },
  'club verify': {
    summary: "Sets the club's `issuerVerified` attestation, or with --off clears it; prints the club.",
    options: [CLUB, option('off', undefined, 'remove the verification')],
    run: withIssuer((issuer, o) => issuer.clubs.setVerified(required(o, 'club'), !o.off)),
  },
  'client create': {
    summary: 'Creates an API client of a club; prints `{ client_id, client_secret, scopes }`, the only time the secret is shown.',
    options: [CLUB, option('scopes', '"SCOPE ..."', 'the scopes it may ask for (issuance:write issuance:read ...); default every scope')],
    run: withIssuer((issuer, o) =>
      issuer.clients.create({
        club: required(o, 'club'),
        ...(typeof o.scopes === 'string' ? { scopes: o.scopes.split(/[\s,]+/).filter(Boolean) } : {}),
      }),
    ),
  },
  'client rotate': {
    summary: 'Gives an API client a new secret; the old secret and every token obtained with it stop working.',
    options: [CLIENT],
    run: withIssuer((issuer, o) => issuer.clients.rotate(required(o, 'client'))),
  },
  'client delete': {
    summary: 'Deletes an API client; its tokens stop working at once.',
    options: [CLIENT],
    run: withIssuer((issuer, o) => issuer.clients.delete(required(o, 'client'))),
  },
  ...adminCommands(),
  'apikey create': {
    summary: 'Creates an API key for legacy form creation; shown once, stored hashed.',
    options: [CLUB],
    run: withIssuer((issuer, o) => issuer.legacy.createApiKey(required(o, 'club'))),
  },
  'apikey list': {
    summary: "Lists a club's API keys (id, createdAt, revokedAt), oldest first; never a secret.",
    options: [CLUB],
    run: withIssuer((issuer, o) => issuer.legacy.listApiKeys(required(o, 'club'))),
  },
  'apikey revoke': {
    summary: 'Revokes an API key: it gets 401 at once.',
    options: [option('key', 'ID', 'the id that `apikey list` prints, or `cck_<id>`; never the whole key', true)],
    run: withIssuer((issuer, o) => issuer.legacy.revokeApiKey(apiKeyId(required(o, 'key')))),
  },
  'design create': {
    summary: 'Creates a badge or certificate design of a club, optionally with an SVG or PNG image.',
    options: [
      CLUB,
      option('kind', 'badge|certificate', 'what the design is for', true),
      option('name', 'N', 'the design name', true),
      option('file', 'image.svg|png', 'the image (by its extension: .png is PNG, anything else SVG)'),
    ],
    run: withIssuer((issuer, o) => {
      const kind = required(o, 'kind')
      const file = typeof o.file === 'string' ? o.file : null
      const image: DesignCreateBody['image'] = file
        ? { mediaType: extname(file).toLowerCase() === '.png' ? 'image/png' : 'image/svg+xml', data: readFileSync(file).toString('base64') }
        : undefined
      return issuer.designs.create(required(o, 'club'), { kind: kind as DesignCreateBody['kind'], name: required(o, 'name'), ...(image ? { image } : {}) })
    }),
  },
  'key rotate': {
    summary: 'Gives a club new credential signing keys (ES256 for VC-JWTs, Ed25519 for Data Integrity proofs); older keys stay in the DID document.',
    options: [CLUB],
    run: withIssuer(async (issuer, o) => {
      const club = required(o, 'club')
      if (!(await issuer.clubs.find(club))) throw new ProblemError('club-not-found', { detail: `There is no club ${club}.` })
      const key = await issuer.keys.rotate(club)
      return { kid: key.kid, dataIntegrityKid: key.dataIntegrity.kid, club, createdAt: new Date(key.createdAt).toISOString() }
    }),
  },
  reissue: { ...REISSUE_COMMAND, run: withIssuer(runReissue) },
  issue: {
    summary: `Issues an achievement to every recipient of a CSV (header externalUserId,name,email; UTF-8 or EUC-KR), in batches of ${MAX_RECIPIENTS}; prints { summary, notIssued[] }, each not issued with the line of the file its row starts on; running the same file again issues nothing twice.`,
    options: [
      CLUB,
      ACHIEVEMENT,
      option('csv', 'FILE', 'the recipients: a CSV in UTF-8 (a byte order mark or not) or EUC-KR', true),
      option('mode', 'email|none', 'mail each recipient (email) or not (none, the default)'),
    ],
    run: withIssuer(issueFromCsv),
  },
  // Each prints `{ coIssuers: [...] }`, the template's co-issuers as its read shows them (club first).
  'coissuer add': {
    summary: "Adds a co-issuer (a partner organisation) to an achievement template; prints the template's co-issuers.",
    options: [
      CLUB,
      ACHIEVEMENT,
      option('name', 'NAME', "the co-issuer's name", true),
      option('url', 'URL', "the co-issuer's URL (its identity)", true),
      option('verified', undefined, 'the club has verified the co-issuer'),
    ],
    run: withIssuer(async (issuer, o) => ({
      coIssuers: await issuer.achievements.coIssuers.add(required(o, 'club'), templateId(o), {
        name: required(o, 'name'),
        url: required(o, 'url'),
        isVerified: Boolean(o.verified),
      }),
    })),
  },
  'coissuer list': {
    summary: "Lists an achievement template's co-issuers (the club first).",
    options: [CLUB, ACHIEVEMENT],
    run: withIssuer(async (issuer, o) => ({ coIssuers: await issuer.achievements.coIssuers.list(required(o, 'club'), templateId(o)) })),
  },
  'coissuer remove': {
    summary: 'Removes a co-issuer, by its URL, from an achievement template.',
    options: [CLUB, ACHIEVEMENT, option('url', 'URL', "the co-issuer's URL", true)],
    run: withIssuer(async (issuer, o) => ({
      coIssuers: await issuer.achievements.coIssuers.remove(required(o, 'club'), templateId(o), { url: required(o, 'url') }),
    })),
  },
  ...webhookCommands(),
  ...issuanceCommands(),
  'storage copy': {
    summary: "Copies the data dir's SQLite file into an empty PostgreSQL database (docs/deployment.md); prints the row counts of both.",
    options: [option('to', 'postgres://...', 'the target database', true)],
    // Works on the two databases themselves, not through an issuer.
    run: async (o, { config }) => {
      const to = required(o, 'to')
      const [{ copyStorage }, openDriver] = await Promise.all([import('./storage-copy.ts'), loadSqliteDriver()])
      try {
        return await copyStorage(config, to, openDriver)
      } catch (error) {
        // The refusals (no source file, a target with rows, a wrong URL) are the operator's to fix.
        throw error instanceof TypeError ? new UsageError(error.message) : error
      }
    },
  },
  // docs/backup.md: these work on SQLite files with better-sqlite3 itself, not through an issuer.
  backup: {
    summary: "A consistent copy of the data dir's SQLite file, also while the server runs (SQLite's online backup); the master key is not in it.",
    options: [option('out', 'FILE', 'where to write the copy; an existing file is never overwritten', true)],
    run: async (o, { config }) =>
      (await loadDriver('better-sqlite3', () => import('./backup.ts'))).backupDataDir(config, required(o, 'out'), await sqliteDriver()),
  },
  restore: {
    summary:
      'Restores a backup into a data dir without a database; the master key must be there first: the seal, the schema and every key are checked before anything is written.',
    options: [option('from', 'FILE', 'the backup file', true), UNSEALED],
    run: async (o, { config }) =>
      (await loadDriver('better-sqlite3', () => import('./restore.ts'))).restoreDataDir(config, required(o, 'from'), {
        allowUnsealed: Boolean(o.unsealed),
        openDriver: await sqliteDriver(),
      }),
  },
  'verify-backup': {
    summary:
      'Checks a backup without writing beside it: its seal and schema, every key opens with the master key and every credential verifies; exit 1 naming what fails.',
    options: [UNSEALED],
    argument: { name: 'FILE', description: 'the backup file (never the live database)' },
    run: async (o, { config }) =>
      (await loadDriver('better-sqlite3', () => import('./verify-backup.ts'))).verifyBackup(config, required(o, 'FILE'), {
        allowUnsealed: Boolean(o.unsealed),
        openDriver: await sqliteDriver(),
      }),
  },
}

/** `admin ...`: the staff console's accounts (docs/admin-console.md); a setup link is printed by create and reset only. */
function adminCommands(): Record<string, Command> {
  const EMAIL = option('email', 'E', "the admin's e-mail address (one club per address)", true)
  return {
    'admin create': {
      summary: 'Creates a staff console admin of a club; prints a one-time setup link, valid 24 hours, where the admin chooses a password.',
      options: [CLUB, EMAIL, option('name', 'N', 'the display name; default the part of the e-mail before @')],
      run: withIssuer((issuer, o) =>
        issuer.admins.create({ club: required(o, 'club'), email: required(o, 'email'), name: typeof o.name === 'string' ? o.name : null }),
      ),
    },
    'admin reset': {
      summary: "Prints a new setup link for an admin; the old link and password stop working and the admin's sessions end.",
      options: [CLUB, EMAIL],
      run: withIssuer((issuer, o) => issuer.admins.reset({ club: required(o, 'club'), email: required(o, 'email') })),
    },
    'admin list': {
      summary: "Lists a club's console admins (e-mail, name, active or pending); never a secret.",
      options: [CLUB],
      run: withIssuer((issuer, o) => issuer.admins.list(required(o, 'club'))),
    },
    'admin remove': {
      summary: 'Removes a console admin; their sessions end at once.',
      options: [CLUB, EMAIL],
      run: withIssuer((issuer, o) => issuer.admins.remove({ club: required(o, 'club'), email: required(o, 'email') })),
    },
  }
}

/** `webhook ...`: the secret is printed by create and rotate-secret only, never stored in clear. */
function webhookCommands(): Record<string, Command> {
  const events = (o: Options) => (typeof o.events === 'string' ? o.events : undefined)
  return {
    'webhook create': {
      summary: 'Registers a webhook endpoint of a club; prints it with its signing secret, shown this once.',
      options: [CLUB, option('url', 'URL', 'where events are POSTed (https:// on a public address, docs/webhooks.md)', true), EVENTS],
      run: withIssuer(async (issuer, o) => {
        const { id, url, events: types, secret } = await issuer.webhooks.create({ club: required(o, 'club'), url: required(o, 'url'), events: events(o) })
        return { id, url, events: types, secret }
      }),
    },
    'webhook list': {
      summary: "Lists a club's webhook endpoints (never their secrets).",
      options: [CLUB],
      run: withIssuer(async (issuer, o) => ({ webhooks: await issuer.webhooks.list(required(o, 'club')) })),
    },
    'webhook update': {
      summary: "Changes a webhook endpoint's URL or events, or enables or disables it.",
      options: [
        WEBHOOK,
        option('url', 'URL', 'the new URL'),
        option('events', '"TYPE ..."', 'the new event types'),
        option('enable', undefined, 'deliver again'),
        option('disable', undefined, 'stop delivering (events are still recorded)'),
      ],
      run: withIssuer((issuer, o) => {
        if (o.enable && o.disable) throw new UsageError('--enable and --disable exclude each other')
        return issuer.webhooks.update(required(o, 'webhook'), {
          ...(typeof o.url === 'string' && { url: o.url }),
          ...(events(o) !== undefined && { events: events(o) }),
          ...((o.enable || o.disable) && { enabled: Boolean(o.enable) }),
        })
      }),
    },
    'webhook rotate-secret': {
      summary: 'Gives a webhook endpoint a new signing secret, shown this once; the old one still signs for 24 h.',
      options: [WEBHOOK],
      run: withIssuer((issuer, o) => issuer.webhooks.rotateSecret(required(o, 'webhook'))),
    },
    'webhook delete': {
      summary: 'Deletes a webhook endpoint.',
      options: [WEBHOOK],
      run: withIssuer((issuer, o) => issuer.webhooks.delete(required(o, 'webhook'))),
    },
    'webhook deliveries': {
      summary: "Prints a webhook endpoint's delivery log (attempts, last status and error, next attempt).",
      options: [WEBHOOK, option('limit', 'N', 'how many, 1 to 1000')],
      run: withIssuer(async (issuer, o) => {
        const limit = o.limit === undefined ? undefined : Number(o.limit)
        if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 1000)) throw new UsageError('--limit must be from 1 to 1000')
        return { deliveries: await issuer.webhooks.deliveries(required(o, 'webhook'), limit) }
      }),
    },
    'webhook replay': {
      summary: 'Delivers again every event after the given one to a webhook endpoint.',
      options: [WEBHOOK, option('after', 'EVENT_ID', 'the last event the receiver has; every later one is sent again', true)],
      run: withIssuer((issuer, o) => issuer.webhooks.replay(required(o, 'webhook'), required(o, 'after'))),
    },
  }
}

/**
 * `revoke` and `notify` (docs/decisions/0045-resend-and-bulk-revoke.md): revoking many issuances, by a CSV
 * of ids or every issuance of a template, in calls of MAX_REVOKE_IDS; and mailing one recipient again.
 */
function issuanceCommands(): Record<string, Command> {
  return {
    revoke: {
      summary: `Revokes every issuance of a CSV (a column issuanceId), or every issuance of a template (--achievement N --yes), in calls of ${MAX_REVOKE_IDS}; prints a result per id and the summary.`,
      options: [
        CLUB,
        option('csv', 'FILE', 'the issuances to revoke: a CSV with a column issuanceId'),
        option('achievement', 'N', 'revoke every issuance of this template instead (needs --yes)'),
        option('yes', undefined, 'with --achievement: do it (without, nothing is revoked and the count is told)'),
        option('reason', 'TEXT', 'why, kept with each issuance (never public)'),
      ],
      run: withIssuer(revokeFromCommand),
    },
    notify: {
      summary: "Mails an issuance's recipient again (share and wallet links), as POST …/notify: at most 3 times in 24 hours.",
      options: [CLUB, option('issuance', 'ID', 'the issuance id', true)],
      run: withIssuer(async (issuer, o) => {
        const id = Number(required(o, 'issuance'))
        if (!Number.isSafeInteger(id) || id < 1) throw new UsageError('--issuance must be an issuance id')
        const detail = await issuer.issuances.notify(required(o, 'club'), id)
        // The address stays out of the output, which ends up in terminals' scrollback and scripts' logs.
        return { issuance: detail.id, status: detail.status, mail: detail.status === 'pending' ? 'once-signed' : 'queued' }
      }),
    },
  }
}

async function revokeFromCommand(issuer: Issuer, o: Options): Promise<RevokeManyResult> {
  const club = required(o, 'club')
  if ((typeof o.csv === 'string') === (o.achievement !== undefined)) throw new UsageError('give one of --csv FILE or --achievement N')
  const ids = typeof o.csv === 'string' ? issuanceIdsFromCsv(readFileSync(o.csv, 'utf8')) : await unrevokedOfTemplate(issuer, club, templateId(o))
  if (typeof o.csv !== 'string' && !o.yes) {
    throw new UsageError(`${ids.length} issuances of template ${templateId(o)} would be revoked; run again with --yes to revoke them`)
  }
  const reason = typeof o.reason === 'string' ? { reason: o.reason } : {}
  const all: RevokeManyResult = { results: [], summary: { total: 0, ok: 0, skipped: 0, failed: 0 } }
  for (let start = 0; start < ids.length; start += MAX_REVOKE_IDS) {
    const { result } = await issuer.issuances.revokeMany(club, { issuanceIds: ids.slice(start, start + MAX_REVOKE_IDS), ...reason })
    all.results.push(...result.results)
    for (const key of ['total', 'ok', 'skipped', 'failed'] as const) all.summary[key] += result.summary[key]
  }
  return all
}

/** The `issuanceId` column of a CSV; a value that is no id is a usage error naming its line. */
function issuanceIdsFromCsv(text: string): number[] {
  let records
  try {
    records = parseCsvRecords(text)
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  const [header, ...rows] = records
  const column = header?.cells.map((cell) => cell.trim()).indexOf('issuanceId') ?? -1
  if (column === -1) throw new UsageError('CSV: no issuanceId column')
  return rows
    .filter((row) => row.cells.some((cell) => cell.trim() !== ''))
    .map((row) => {
      const value = (row.cells[column] ?? '').trim()
      if (!/^[1-9]\d{0,15}$/.test(value) || !Number.isSafeInteger(Number(value)))
        throw new UsageError(`CSV line ${row.line}: issuanceId ${JSON.stringify(value)} is not an issuance id`)
      return Number(value)
    })
}

/** Every issuance of the template that is not revoked yet, newest first; `achievement-not-found` for no such template. */
async function unrevokedOfTemplate(issuer: Issuer, club: string, achievementId: number): Promise<number[]> {
  await issuer.achievements.read(club, achievementId)
  const ids: number[] = []
  let cursor: string | null = null
  do {
    const page = await issuer.issuances.list(club, { achievementId: String(achievementId), limit: '100', cursor })
    ids.push(...page.data.filter((item) => item.status !== 'revoked').map((item) => item.id))
    cursor = page.meta.nextCursor
  } while (cursor !== null)
  return ids
}

/** `--achievement N`: a template id (a positive integer), else a usage error. */
function templateId(o: Options): number {
  const id = Number(required(o, 'achievement'))
  if (!Number.isSafeInteger(id) || id < 1) throw new UsageError('--achievement must be a template id')
  return id
}

/**
 * Bulk issue from a CSV on the staff console's path (core/issuances/issue-csv.ts): the file read as UTF-8
 * (a byte order mark or not) or EUC-KR, each row known by the line it starts on, issued in batches of
 * MAX_RECIPIENTS (the API's limit, docs/api.md §4.3). Each batch carries an Idempotency-Key derived from
 * the file and the batch, so running the same file again after a failure issues nothing twice.
 */
async function issueFromCsv(issuer: Issuer, o: Options, { io }: CommandContext) {
  const club = required(o, 'club')
  const file = required(o, 'csv')
  const achievementFormId = templateId(o)
  const bytes = readFileSync(file)
  const text = await decodeCsv(bytes)
  if (text === null) throw new UsageError('CSV: the file is neither UTF-8 nor EUC-KR')
  let recipients
  try {
    recipients = csvRecipients(text)
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  // Of the file's bytes, as an older version hashed the UTF-8 it read (byte order mark included): its files replay.
  const fingerprint = createHash('sha256').update(bytes).digest('hex').slice(0, 16)
  const summary = { total: 0, ok: 0, skipped: 0, failed: 0 }
  const problems: unknown[] = []
  const progress = createProgress(recipients.length, io.stderr)
  let done = 0
  const input = { achievementFormId, mode: typeof o.mode === 'string' ? o.mode : 'none', recipients }
  await issueCsv((club, body, key) => issuer.issuances.issue(club, body, key), club, input, {
    idempotencyScope: 'cli',
    // The key of the batch starting at row `start`, as before the console's path: a file issued then replays.
    keyOf: (index) => `cli-csv-${fingerprint}-${index * MAX_RECIPIENTS}`,
    issued: ({ outcomes, result }) => {
      for (const key of ['total', 'ok', 'skipped', 'failed'] as const) summary[key] += result.summary[key]
      for (const { recipient, item } of outcomes) if (item.status !== 'issued') problems.push({ line: recipient.line, ...item })
      progress.update((done += outcomes.length))
    },
  })
  progress.finish()
  return { summary, notIssued: problems }
}

/** `clubcred --help`: the server, then every admin command by its usage line. */
export function overallHelp(): string {
  return [
    'usage: clubcred <command> [options]',
    '',
    '  serve    start the server (configured by environment variables: clubcred serve --help)',
    '  version  print the version of the installed package',
    '',
    'admin commands (each prints one JSON object; on failure { "error": { code, message } } and a non-zero exit):',
    ...Object.entries(COMMANDS).map(([name, spec]) => `  ${usageLine(name, spec)}`),
    '',
    'clubcred <command> --help (or clubcred help <command>) describes a command and its options.',
  ].join('\n')
}

/**
 * The words of an unknown command as its error quotes them: those shaped like a command's word, each
 * other one as `…`. A word may be a secret typed without its option (`apikey revoke cck_<id>.<secret>`
 * for `--key`), and the error lands in a terminal's scrollback or a script's log.
 */
function shownWords(words: string[]): string {
  return words.map((word) => (/^[a-z][a-z-]{0,31}$/.test(word) ? word : '…')).join(' ')
}

/** `clubcred webhook --help`: the commands of one group. */
function groupHelp(group: string): string | undefined {
  const names = Object.keys(COMMANDS).filter((name) => name.startsWith(`${group} `))
  if (names.length === 0) return undefined
  return [`usage: clubcred ${group} <command> [options]`, '', ...names.map((name) => `  ${name.padEnd(24)}  ${COMMANDS[name]!.summary}`)].join('\n') + '\n'
}

/**
 * Runs one admin command and returns its exit code: 0 with its one JSON object on stdout, 2 for a usage
 * error, 1 for any other failure (`{ "error": { code, message } }` on stdout). `--help` prints the
 * command's help (text, not JSON) and returns 0. It never exits the process, and what it opens (the
 * storage, the signer) it closes before it returns.
 *
 * @example
 * const code = await main(['club', 'create', '--domain', 'chess', '--name', 'Chess'], { env: { CLUBCRED_DATA_DIR: dir }, stdout, stderr })
 */
export async function main(args: string[], io: CliIo = processIo()): Promise<number> {
  const print = (value: unknown) => io.stdout.write(JSON.stringify(value) + '\n')
  let issuer: Promise<Issuer> | undefined
  // `help webhook create` is `webhook create --help`.
  const argv = args[0] === 'help' ? [...args.slice(1), '--help'] : args
  try {
    const { words, rest } = splitCommand(argv)
    const { name, command, argument } = findCommand(COMMANDS, words)
    if (wantsHelp(argv)) {
      const help = command ? commandHelp('clubcred', name, command) : words.length === 0 ? `${overallHelp()}\n` : groupHelp(name)
      if (help === undefined) throw new UsageError(`unknown command: ${shownWords(words)}\n${overallHelp()}`)
      io.stdout.write(help)
      return 0
    }
    // The words only: an option's value may be a secret (a key pasted in the wrong place).
    if (!command) throw new UsageError(`unknown command: ${shownWords(words) || '(none)'}\n${overallHelp()}`)
    const options = parseOptions(command, rest, argument)
    // Before the check, as `clubcred serve` does: a mistyped name is most often why the check fails.
    warnOfUnknownVariables(io.env, io.stderr)
    const config = readServerConfig(io.env)
    const context: CommandContext = {
      config,
      io,
      // Loaded only when a command needs it: a usage error answers without loading the issuer.
      issuer: () => (issuer ??= openIssuer(config, io)),
    }
    print(await command.run(options, context))
    return 0
  } catch (error) {
    if (error instanceof UsageError || error instanceof BackupRefused) {
      print({ error: { code: 'usage', message: error.message } })
      return 2
    }
    if (error instanceof BackupRejected) {
      print({ error: { code: error.code, message: error.message, ...error.details } })
      return 1
    }
    if (error instanceof BackupUnverified) {
      print({ error: { code: 'backup-unverified', message: error.message, ...error.report } })
      return 1
    }
    if (error instanceof MasterKeyMismatch || error instanceof RestoreKeyMismatch) {
      print({ error: { code: 'master-key-mismatch', message: error.message } })
      return 1
    }
    if (error instanceof DriverMissing) {
      print({ error: { code: 'driver-missing', message: error.message } })
      return 1
    }
    if (error instanceof ConfigurationError) {
      print({ error: { code: 'configuration', message: error.message } })
      return 1
    }
    if (error instanceof ProblemError) {
      print({ error: { code: error.code, message: error.detail ?? error.message, ...(error.errors ? { errors: error.errors } : {}) } })
      return 1
    }
    // Through the log's masking (docs/logs.md): a library's error can carry an address or a secret in its
    // message or its other fields (a driver's detail, a mailer's envelope), and stderr is a log.
    const { createLogger, errorFields } = await import('./log.ts')
    createLogger({ level: 'error', destination: logDestination(io) }).error({ err: error }, 'command failed')
    print({ error: { code: 'internal-error', message: errorFields(error).message } })
    return 1
  } finally {
    await (await issuer?.catch(() => undefined))?.close()
  }
}

async function openIssuer(config: ServerConfig, io: CliIo): Promise<Issuer> {
  const [{ wireIssuer }, { createNodeSigner }, { createLogger }] = await Promise.all([
    import('./wire.ts'),
    import('../adapters/node/signer.ts'),
    import('./log.ts'),
  ])
  // Loaded only on SQLite: a command on PostgreSQL needs no better-sqlite3.
  const openDriver = async (filename: string) => (await loadSqliteDriver())(filename)
  const logger = createLogger({ level: config.logLevel, destination: logDestination(io) })
  return wireIssuer({ config, urls: resolveUrls(config, config.port), openDriver, signer: createNodeSigner(), logger })
}

/** The log goes to stderr: the process's own synchronously (the last line before an exit is kept), else the given one. */
function logDestination(io: CliIo): 'stderr' | { write(text: string): void } {
  return io.stderr === process.stderr ? 'stderr' : { write: (text) => void io.stderr.write(text) }
}

/**
 * The SQLite driver of this runtime: better-sqlite3 on Node (where it is not installed, `DriverMissing`,
 * `driver-missing`, exit 1); `node:sqlite` on Deno, which loads no native module, as the Deno entry does.
 */
async function loadSqliteDriver(): Promise<(filename: string) => SqliteDriver> {
  if ('Deno' in globalThis) return (await import('../adapters/sqlite/driver-node-sqlite.ts')).nodeSqliteDriver
  return (await loadDriver('better-sqlite3', () => import('../adapters/sqlite/driver-better-sqlite3.ts'))).betterSqlite3Driver
}

/**
 * Runs `main` and exits once stdout is flushed: a command is done when it has printed, whatever handles
 * a library left open (a worker thread, a timer), so that scripts calling the CLI never hang.
 */
export async function runCli(argv: string[]): Promise<never> {
  const exitCode = await main(argv)
  return new Promise(() => process.stdout.write('', () => process.exit(exitCode)))
}

// `npm run cli` runs this file; `clubcred` (server/bin.ts) imports it.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runCli(process.argv.slice(2))
