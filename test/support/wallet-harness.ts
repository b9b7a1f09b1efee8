import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createIssuer, type Issuer } from '../../index.ts'
import { createSqliteStorage } from '../../adapters/sqlite/index.ts'
import { betterSqlite3Driver } from '../../adapters/sqlite/driver-better-sqlite3.ts'
import { createTestClock, type TestClock } from './clock.ts'
import { createKeyStore } from '../../core/keys/create-key-store.ts'
import type { KeyStore } from '../../core/ports/key-store.ts'
import type { DataIntegritySigner } from '../../core/ports/data-integrity-signer.ts'
import type { PresentationVerifier } from '../../core/ports/presentation-verifier.ts'
import type { StoragePort } from '../../core/ports/storage.ts'
import { createDataIntegritySigner } from '../../adapters/node/data-integrity-signer.ts'

/** A deployment on https, as OID4VCI requires (wallets refuse http issuers): every surface on one host. */
export const HOST = 'clubcred.test'
export const HTTPS_ORIGIN = `https://${HOST}`
export const CREDENTIAL_ISSUER = `${HTTPS_ORIGIN}/open-badges/v3/issuers/chess`

export interface WalletHarness {
  issuer: Issuer
  clock: TestClock
  /** The issuer's key store (the club's Ed25519 key signs JSON-LD forms). */
  keys: KeyStore
  /** The issuer's storage (the SQLite file). */
  storage: StoragePort
  /** The SQLite file the issuer stores in. */
  dbFile: string
  /** `fetch` for a wallet: every request goes to the issuer's own fetch handler, as over the network. */
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>
  /** Issues one credential of a fresh template to one recipient and signs it; returns its pointer. */
  issueOne(options?: { expiresAt?: string; mode?: 'none' | 'email' }): Promise<{ issuanceId: number; id: string; shareUrl: string; jwtUrl: string }>
  close(): Promise<void>
}

/**
 * An issuer on a fresh SQLite file, a test clock and club `chess`, reached through its fetch handler;
 * with `proofs`, it makes Data Integrity proofs (the JSON-LD form) as the server does.
 */
export async function openWalletHarness({
  proofs = false,
  ...options
}: { proofs?: boolean; presentationVerifier?: PresentationVerifier; dataIntegritySigner?: DataIntegritySigner } = {}): Promise<WalletHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'clubcred-wallet-'))
  const dbFile = join(dir, 'clubcred.db')
  const clock = createTestClock()
  const storage = createSqliteStorage({ driver: betterSqlite3Driver(dbFile) })
  const keys = createKeyStore({ storage, masterKey: new Uint8Array(32).fill(9), clock })
  const issuer = createIssuer({
    storage,
    keys,
    clock,
    ...(proofs ? { dataIntegritySigner: createDataIntegritySigner() } : {}),
    ...options,
    urls: { base: HTTPS_ORIGIN, auth: `${HTTPS_ORIGIN}/oauth`, public: HTTPS_ORIGIN, shareHost: HOST, legacyBase: HTTPS_ORIGIN },
    http: { onError: (error) => console.error(error) },
  })
  await issuer.clubs.create({ domain: 'chess', name: '체스 클럽' })
  const template = await issuer.achievements.create('chess', { name: '체스 입문', nameEn: 'Chess basics', description: '기본 규칙을 배웠습니다.' })

  return {
    issuer,
    clock,
    keys,
    storage,
    dbFile,
    fetch: (input, init) => issuer.fetch(new Request(input, init)),
    async issueOne({ expiresAt, mode = 'none' } = {}) {
      const { result } = await issuer.issuances.issue('chess', {
        achievementFormId: template.id,
        mode,
        recipients: [{ name: 'Kim Minsu', email: `minsu.${Math.random().toString(36).slice(2)}@chess.example` }],
        ...(expiresAt ? { expiresAt } : {}),
      })
      const issuanceId = (result.results[0] as { resourceId: number }).resourceId
      await issuer.worker.drain()
      const { credential } = await issuer.issuances.read('chess', issuanceId)
      if (!credential) throw new Error('no credential after the worker drained')
      return { issuanceId, id: credential.id, shareUrl: credential.shareUrl, jwtUrl: credential.jwtUrl }
    },
    async close() {
      await issuer.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** The `href` of the share page's "add to wallet" link, unescaped, as a phone reads it from the page. */
export function walletLinkOf(html: string): string {
  const tag = /<a class="button button--wallet" href="([^"]*)">/.exec(html)
  if (!tag) throw new Error('the page has no "add to wallet" link')
  return tag[1]!
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}
