import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createIssuer, defaultUrls, type Issuer } from '../../index.ts'
import { createSqliteStorage } from '../../adapters/sqlite/index.ts'
import { betterSqlite3Driver } from '../../adapters/sqlite/driver-better-sqlite3.ts'
import type { Clock } from '../../core/ports/clock.ts'
import { createKeyStore } from '../../core/keys/create-key-store.ts'
import type { KeyStore } from '../../core/ports/key-store.ts'
import type { StoragePort } from '../../core/ports/storage.ts'
import type { CertificateRenderer } from '../../core/ports/certificate-renderer.ts'
import type { FileLimits } from '../../core/config.ts'

export const ORIGIN = 'http://localhost:8787'

export interface ApiResponse {
  status: number
  headers: Headers
  body: any
}

export interface Api {
  issuer: Issuer
  /** The storage the harness opened the issuer on, for tests that arrange or inspect rows. */
  storage: StoragePort
  /** The issuer's key store (the harness builds it), for tests that check or forge signatures. */
  keys: KeyStore
  club: string
  token: string
  /** A request through `issuer.fetch`, the same handler the server mounts; JSON in, JSON out. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse>
  /** A GET through `issuer.fetch` with the all-scope token, answered as raw bytes (files, images). */
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; bytes: Uint8Array; text: string; json: any }>
  /** A token for another client of this club with only these scopes. */
  tokenWith(scopes: string[]): Promise<string>
  close(): Promise<void>
}

/**
 * An issuer on a fresh SQLite file with one club and an all-scope client, called in-process through
 * its fetch handler.
 */
export async function openApi({
  club = 'chess',
  clock,
  certificates,
  files,
}: { club?: string; clock?: Clock; certificates?: CertificateRenderer; files?: Partial<FileLimits> } = {}): Promise<Api> {
  const dir = mkdtempSync(join(tmpdir(), 'clubcred-api-'))
  const storage = createSqliteStorage({ driver: betterSqlite3Driver(join(dir, 'clubcred.db')) })
  const keys = createKeyStore({ storage, masterKey: new Uint8Array(32).fill(7), ...(clock ? { clock } : {}) })
  const issuer = createIssuer({
    storage,
    keys,
    urls: defaultUrls(8787),
    ...(clock ? { clock } : {}),
    ...(certificates ? { certificates } : {}),
    ...(files ? { files } : {}),
    http: { onError: (error) => console.error(error) },
  })
  await issuer.clubs.create({ domain: club, name: 'Chess Club' })

  async function tokenFor(scopes?: string[]): Promise<string> {
    const client = await issuer.clients.create({ club, ...(scopes ? { scopes } : {}) })
    const response = await issuer.fetch(
      new Request(`${ORIGIN}/oauth/token`, {
        method: 'POST',
        headers: {
          authorization: 'Basic ' + btoa(`${client.client_id}:${client.client_secret}`),
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials',
      }),
    )
    const body = (await response.json()) as { access_token: string }
    return body.access_token
  }
  const token = await tokenFor()

  return {
    issuer,
    storage,
    keys,
    club,
    token,
    async call(method, path, body, headers = {}) {
      const init: RequestInit = { method, headers: { authorization: `Bearer ${token}`, ...headers } }
      if (body !== undefined) {
        init.body = typeof body === 'string' ? body : JSON.stringify(body)
        ;(init.headers as Record<string, string>)['content-type'] ??= 'application/json'
      }
      const response = await issuer.fetch(new Request(`${ORIGIN}${path}`, init))
      const text = await response.text()
      return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null }
    },
    async get(path, headers = {}) {
      const response = await issuer.fetch(new Request(`${ORIGIN}${path}`, { headers: { authorization: `Bearer ${token}`, ...headers } }))
      const bytes = new Uint8Array(await response.arrayBuffer())
      const text = new TextDecoder().decode(bytes)
      const isJson = /json/.test(response.headers.get('content-type') ?? '')
      return { status: response.status, headers: response.headers, bytes, text, json: isJson && text ? JSON.parse(text) : null }
    },
    tokenWith: tokenFor,
    async close() {
      await issuer.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
