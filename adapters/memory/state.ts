import type { AchievementTemplate, Requirement } from '../../core/achievements/template.ts'
import type { ApiClient } from '../../core/clients/api-client.ts'
import type { Design, StoredImage } from '../../core/designs/design.ts'
import type { Club } from '../../core/clubs/club.ts'
import type { Admin, AdminLoginFailureWindow } from '../../core/admins/admin.ts'
import type { AdminSession } from '../../core/admins/admin-session.ts'
import type { AdminPasskey, PasskeyChallenge } from '../../core/admins/passkey.ts'
import type { CsvFile, CsvUpload, CsvUploadRow } from '../../core/csv-uploads/csv-upload.ts'
import type { Issuance, TemplateSnapshot } from '../../core/issuances/issuance.ts'
import type { CredentialRecord } from '../../core/credentials/credential-record.ts'
import type { ResendRequest } from '../../core/issuances/resend-request.ts'
import type { IssuanceClaim } from '../../core/issuances/issuance-claim.ts'
import type {
  ApiKeyRecord,
  ClientAuthFailureWindow,
  ClubEvent,
  IdempotencyRecord,
  OutboxMessage,
  SigningJob,
  StatusList,
  StoredKey,
  SweepPosition,
  WebhookDelivery,
  WebhookEndpoint,
} from '../../core/ports/storage.ts'
import type { CredentialVersion, ReissueRecord } from '../../core/reissues/reissue-record.ts'

/** Everything the memory storage holds; owned by one storage instance, never module-global. */
export interface State {
  clubs: Map<string, Club>
  clients: Map<string, ApiClient>
  /** Keyed by client id; only ids in `clients` (deleting a client deletes its window). */
  clientAuthFailures: Map<string, ClientAuthFailureWindow>
  admins: Map<string, Admin>
  /** Keyed by admin id; only ids in `admins` (deleting an admin deletes its window). */
  adminLoginFailures: Map<string, AdminLoginFailureWindow>
  /** Keyed by the session id's hash. */
  adminSessions: Map<string, AdminSession>
  /** Keyed by the passkey's id; only of admins in `admins` (deleting an admin deletes its passkeys). */
  adminPasskeys: Map<string, AdminPasskey>
  /** Keyed by the challenge. */
  passkeyChallenges: Map<string, PasskeyChallenge>
  csvUploads: Map<string, CsvUpload>
  /** Keyed by upload id, then by line. */
  csvUploadRows: Map<string, Map<number, CsvUploadRow>>
  /** Previewed files, keyed by club and digest (`csvFileKey`). */
  csvFiles: Map<string, CsvFile>
  keys: Map<string, StoredKey>
  achievements: Map<number, Omit<AchievementTemplate, 'requirements'>>
  requirements: Map<number, Requirement & { templateId: number }>
  snapshots: Map<number, TemplateSnapshot>
  issuances: Map<number, Issuance>
  credentials: Map<string, CredentialRecord>
  /** Index of `credentials`: issuance id → credential id; also the one-credential-per-issuance rule. */
  credentialByIssuance: Map<number, string>
  /** Keyed by issuance id: its claims, oldest first; an issuance has an entry once claimed. */
  claims: Map<number, IssuanceClaim[]>
  /** Keyed by issuance id, then notice (`expired`, a reminder's duration): when it was recorded. */
  notices: Map<number, Map<string, number>>
  /** Keyed by sweep name (core/issuances/expiry-sweep.ts). */
  sweeps: Map<string, SweepPosition>
  /** Keyed by credential id. */
  shareViews: Map<string, { views: number; lastViewedAt: number }>
  /** The proof round's lease of credentials whose proof is still to be made, keyed by credential id. */
  proofLeases: Map<string, { leaseUntil: number; attempts: number; error: string | null }>
  /** Keyed by issuance id: at most one job per issuance. */
  signingJobs: Map<number, SigningJob>
  statusLists: Map<number, StatusList>
  events: Map<number, ClubEvent>
  /** Keyed by `idempotencyKey(scope, key)`. */
  idempotency: Map<string, IdempotencyRecord>
  outbox: Map<number, OutboxMessage>
  resends: Map<number, ResendRequest>
  designs: Map<number, Design>
  /** Keyed by content hash. */
  images: Map<string, StoredImage>
  apiKeys: Map<string, ApiKeyRecord>
  webhookEndpoints: Map<string, WebhookEndpoint>
  webhookDeliveries: Map<number, WebhookDelivery>
  /** Keyed by the order they were recorded in (`sequences.reissue`). */
  reissues: Map<number, ReissueRecord>
  /** A credential's earlier versions, keyed by `<credential id> <version>`. */
  credentialVersions: Map<string, CredentialVersion>
  /** Id sequences; never rolled back, so an id is never handed out twice. */
  sequences: {
    achievement: number
    requirement: number
    snapshot: number
    issuance: number
    statusList: number
    event: number
    outbox: number
    resend: number
    design: number
    webhookDelivery: number
    reissue: number
  }
}

export function createState(): State {
  return {
    clubs: new Map(),
    clients: new Map(),
    clientAuthFailures: new Map(),
    admins: new Map(),
    adminLoginFailures: new Map(),
    adminSessions: new Map(),
    adminPasskeys: new Map(),
    passkeyChallenges: new Map(),
    csvUploads: new Map(),
    csvUploadRows: new Map(),
    csvFiles: new Map(),
    keys: new Map(),
    achievements: new Map(),
    requirements: new Map(),
    snapshots: new Map(),
    issuances: new Map(),
    credentials: new Map(),
    proofLeases: new Map(),
    claims: new Map(),
    notices: new Map(),
    sweeps: new Map(),
    shareViews: new Map(),
    credentialByIssuance: new Map(),
    signingJobs: new Map(),
    statusLists: new Map(),
    events: new Map(),
    idempotency: new Map(),
    outbox: new Map(),
    resends: new Map(),
    designs: new Map(),
    images: new Map(),
    apiKeys: new Map(),
    webhookEndpoints: new Map(),
    webhookDeliveries: new Map(),
    reissues: new Map(),
    credentialVersions: new Map(),
    sequences: {
      achievement: 0,
      requirement: 0,
      snapshot: 0,
      issuance: 0,
      statusList: 0,
      event: 0,
      outbox: 0,
      design: 0,
      webhookDelivery: 0,
      reissue: 0,
      resend: 0,
    },
  }
}
