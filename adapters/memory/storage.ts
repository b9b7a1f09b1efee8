import { StorageConflict } from '../../core/errors.ts'
import { createMutex } from '../shared/mutex.ts'
import type { AchievementTemplate, NewRequirement, Requirement } from '../../core/achievements/template.ts'
import type { ApiClient } from '../../core/clients/api-client.ts'
import type { Design, StoredImage } from '../../core/designs/design.ts'
import type { Club } from '../../core/clubs/club.ts'
import type { CredentialRecord, Issuance, TemplateSnapshot } from '../../core/issuances/issuance.ts'
import type {
  ApiKeyRecord,
  ClubEvent,
  IdempotencyRecord,
  OutboxMessage,
  SigningJob,
  StatusList,
  StoragePort,
  StoredKey,
  Stores,
} from '../../core/ports/storage.ts'

/** Everything the memory storage holds; owned by one storage instance, never module-global. */
interface State {
  clubs: Map<string, Club>
  clients: Map<string, ApiClient>
  keys: Map<string, StoredKey>
  achievements: Map<number, Omit<AchievementTemplate, 'requirements'>>
  requirements: Map<number, Requirement & { templateId: number }>
  snapshots: Map<number, TemplateSnapshot>
  issuances: Map<number, Issuance>
  credentials: Map<string, CredentialRecord>
  /** Index of `credentials`: issuance id → credential id; also the one-credential-per-issuance rule. */
  credentialByIssuance: Map<number, string>
  /** Keyed by issuance id: at most one job per issuance. */
  signingJobs: Map<number, SigningJob>
  statusLists: Map<number, StatusList>
  events: Map<number, ClubEvent>
  /** Keyed by `idempotencyKey(scope, key)`. */
  idempotency: Map<string, IdempotencyRecord>
  outbox: Map<number, OutboxMessage>
  designs: Map<number, Design>
  /** Keyed by content hash. */
  images: Map<string, StoredImage>
  apiKeys: Map<string, ApiKeyRecord>
  /** Id sequences; never rolled back, so an id is never handed out twice. */
  sequences: { achievement: number; requirement: number; snapshot: number; issuance: number; statusList: number; event: number; outbox: number; design: number }
}

function createState(): State {
  return {
    clubs: new Map(),
    clients: new Map(),
    keys: new Map(),
    achievements: new Map(),
    requirements: new Map(),
    snapshots: new Map(),
    issuances: new Map(),
    credentials: new Map(),
    credentialByIssuance: new Map(),
    signingJobs: new Map(),
    statusLists: new Map(),
    events: new Map(),
    idempotency: new Map(),
    outbox: new Map(),
    designs: new Map(),
    images: new Map(),
    apiKeys: new Map(),
    sequences: { achievement: 0, requirement: 0, snapshot: 0, issuance: 0, statusList: 0, event: 0, outbox: 0, design: 0 },
  }
}

/** Undo steps of the running unit of work, replayed in reverse on rollback. */
type Journal = (() => void)[]

const copy = <T>(value: T): T => structuredClone(value)

/** `list(...)` of any id-keyed rows: the club's, strictly below `beforeId`, highest id first, at most `limit`. */
function keysetPage<T extends { id: number }>(rows: Iterable<T>, beforeId: number | null, limit: number): T[] {
  return [...rows]
    .filter((row) => beforeId === null || row.id < beforeId)
    .sort((a, b) => b.id - a.id)
    .slice(0, limit)
    .map(copy)
}

/** One Map key for the pair; JSON keeps `('a:b', 'c')` and `('a', 'b:c')` apart. */
const idempotencyKey = (scope: string, key: string): string => JSON.stringify([scope, key])

/** E-mail addresses compare case-insensitively (Issuance.recipient.email). */
const sameEmail = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase()

/** Sets `map[key] = value` and records how to undo it. */
function put<K, V>(journal: Journal, map: Map<K, V>, key: K, value: V): void {
  const had = map.has(key)
  const before = map.get(key)
  map.set(key, value)
  journal.push(() => (had ? map.set(key, before as V) : map.delete(key)))
}

function remove<K, V>(journal: Journal, map: Map<K, V>, key: K): boolean {
  if (!map.has(key)) return false
  const before = map.get(key) as V
  map.delete(key)
  journal.push(() => map.set(key, before))
  return true
}

function createStores(state: State, journal: Journal): Stores {
  function requirementsOf(templateId: number): Requirement[] {
    return [...state.requirements.values()]
      .filter((requirement) => requirement.templateId === templateId)
      .map(({ templateId: _, ...requirement }) => copy(requirement))
  }
  function insertRequirements(templateId: number, requirements: NewRequirement[]): Requirement[] {
    return requirements.map((requirement) => {
      const stored = { ...copy(requirement), id: ++state.sequences.requirement }
      put(journal, state.requirements, stored.id, { ...stored, templateId })
      return stored
    })
  }
  const withRequirements = (template: Omit<AchievementTemplate, 'requirements'>): AchievementTemplate => ({
    ...copy(template),
    requirements: requirementsOf(template.id),
  })

  return {
    clubs: {
      async insert(club) {
        if (state.clubs.has(club.domain)) throw new StorageConflict(`club ${club.domain} exists`)
        put(journal, state.clubs, club.domain, copy(club))
      },
      async findByDomain(domain) {
        const club = state.clubs.get(domain)
        return club ? copy(club) : null
      },
      async update(domain, changes) {
        const club = state.clubs.get(domain)
        if (!club) return null
        const updated = { ...club, ...definedOnly(changes) }
        put(journal, state.clubs, domain, updated)
        return copy(updated)
      },
      async count() {
        return state.clubs.size
      },
    },
    clients: {
      async insert(client) {
        if (state.clients.has(client.id)) throw new StorageConflict(`client ${client.id} exists`)
        put(journal, state.clients, client.id, copy(client))
      },
      async findById(id) {
        const client = state.clients.get(id)
        return client ? copy(client) : null
      },
      async updateSecret(id, secretHash, secretSetAt) {
        const client = state.clients.get(id)
        if (!client) return false
        put(journal, state.clients, id, { ...client, secretHash, secretSetAt })
        return true
      },
      async delete(id) {
        return remove(journal, state.clients, id)
      },
    },
    achievements: {
      async insert(template) {
        const { requirements, ...fields } = copy(template)
        const id = ++state.sequences.achievement
        put(journal, state.achievements, id, { ...fields, id, issuedCount: 0 })
        insertRequirements(id, requirements)
        return withRequirements(state.achievements.get(id)!)
      },
      async findById(club, id) {
        const template = state.achievements.get(id)
        return template && template.club === club ? withRequirements(template) : null
      },
      async update(template) {
        const current = state.achievements.get(template.id)
        if (!current || current.club !== template.club) return false
        const { requirements: _, id, club, issuedCount, createdAt, ...fields } = copy(template)
        put(journal, state.achievements, id, { ...current, ...fields })
        return true
      },
      async replaceRequirements(templateId, requirements) {
        for (const [id, requirement] of state.requirements) {
          if (requirement.templateId === templateId) remove(journal, state.requirements, id)
        }
        return insertRequirements(templateId, requirements)
      },
      async list(club, { limit, beforeId }) {
        return [...state.achievements.values()]
          .filter((template) => template.club === club && (beforeId === null || template.id < beforeId))
          .sort((a, b) => b.id - a.id)
          .slice(0, limit)
          .map(withRequirements)
      },
      async incrementIssuedCount(templateId, by) {
        const template = state.achievements.get(templateId)
        if (template) put(journal, state.achievements, templateId, { ...template, issuedCount: template.issuedCount + by })
      },
    },
    snapshots: {
      async insert(snapshot) {
        const id = ++state.sequences.snapshot
        put(journal, state.snapshots, id, { ...copy(snapshot), id })
        return id
      },
      async findById(id) {
        const snapshot = state.snapshots.get(id)
        return snapshot ? copy(snapshot) : null
      },
    },
    issuances: {
      async insert(issuance) {
        // The id is the caller's (random); a taken one is a conflict, as the SQLite primary key makes it.
        if (state.issuances.has(issuance.id)) throw new StorageConflict(`issuance ${issuance.id} exists`)
        const stored: Issuance = { ...copy(issuance), sequence: ++state.sequences.issuance }
        put(journal, state.issuances, stored.id, stored)
        return copy(stored)
      },
      async findById(club, id) {
        const issuance = state.issuances.get(id)
        return issuance && issuance.club === club ? copy(issuance) : null
      },
      async findByIdAcrossClubs(id) {
        const issuance = state.issuances.get(id)
        return issuance ? copy(issuance) : null
      },
      async findByIds(club, ids) {
        return ids
          .map((id) => state.issuances.get(id))
          .filter((issuance) => issuance !== undefined && issuance.club === club)
          .map((issuance) => copy(issuance!))
      },
      async findHeld(club, achievementId, recipient) {
        return [...state.issuances.values()]
          .filter(
            (issuance) =>
              issuance.club === club &&
              issuance.achievementId === achievementId &&
              (recipient.externalUserId !== null
                ? issuance.recipient.externalUserId === recipient.externalUserId
                : sameEmail(issuance.recipient.email, recipient.email)),
          )
          .map(copy)
      },
      async list(club, { limit, beforeSequence, achievementId }) {
        return [...state.issuances.values()]
          .filter(
            (issuance) =>
              issuance.club === club &&
              (achievementId == null || issuance.achievementId === achievementId) &&
              (beforeSequence === null || issuance.sequence < beforeSequence),
          )
          .sort((a, b) => b.sequence - a.sequence)
          .slice(0, limit)
          .map(copy)
      },
      async revoke(club, id, revokedAt, reason) {
        const issuance = state.issuances.get(id)
        if (!issuance || issuance.club !== club || issuance.revokedAt !== null) return false
        put(journal, state.issuances, id, { ...issuance, revokedAt, revocationReason: reason })
        return true
      },
    },
    credentials: {
      async insert(credential) {
        if (state.credentials.has(credential.id)) throw new StorageConflict(`credential ${credential.id} exists`)
        if (state.credentialByIssuance.has(credential.issuanceId)) {
          throw new StorageConflict(`issuance ${credential.issuanceId} has a credential`)
        }
        put(journal, state.credentials, credential.id, copy(credential))
        put(journal, state.credentialByIssuance, credential.issuanceId, credential.id)
      },
      async findById(id) {
        const credential = state.credentials.get(id)
        return credential ? copy(credential) : null
      },
      async findByIssuance(issuanceId) {
        const id = state.credentialByIssuance.get(issuanceId)
        return id === undefined ? null : copy(state.credentials.get(id)!)
      },
      async findByIssuances(issuanceIds) {
        return [...new Set(issuanceIds)].flatMap((issuanceId) => {
          const id = state.credentialByIssuance.get(issuanceId)
          return id === undefined ? [] : [copy(state.credentials.get(id)!)]
        })
      },
      async listRevokedIndexes(statusListId) {
        return [...state.credentials.values()]
          .filter((credential) => credential.statusListId === statusListId && state.issuances.get(credential.issuanceId)?.revokedAt != null)
          .map((credential) => credential.statusListIndex)
      },
    },
    signingJobs: {
      async enqueue({ issuanceId, club }) {
        if (state.signingJobs.has(issuanceId)) throw new StorageConflict(`issuance ${issuanceId} has a signing job`)
        put(journal, state.signingJobs, issuanceId, {
          issuanceId,
          club,
          statusListId: null,
          statusListIndex: null,
          attempts: 0,
          leaseUntil: null,
          lastError: null,
        })
      },
      async claim(now, leaseMs, limit) {
        // `leaseUntil` is the last instant the lease holds: the job is free once it is before `now`.
        const sequenceOf = (job: SigningJob) => state.issuances.get(job.issuanceId)?.sequence ?? 0
        const free = [...state.signingJobs.values()]
          .filter((job) => job.leaseUntil === null || job.leaseUntil < now)
          .sort((a, b) => sequenceOf(a) - sequenceOf(b))
          .slice(0, limit)
        return free.map((job) => {
          const leased = { ...job, leaseUntil: now + leaseMs, attempts: job.attempts + 1 }
          put(journal, state.signingJobs, job.issuanceId, leased)
          return copy(leased)
        })
      },
      async reserveStatusSlot(issuanceId, statusListId, statusListIndex) {
        const job = state.signingJobs.get(issuanceId)
        if (job) put(journal, state.signingJobs, issuanceId, { ...job, statusListId, statusListIndex })
      },
      async release(issuanceId, error, retryAt) {
        const job = state.signingJobs.get(issuanceId)
        // A lease that ends at `retryAt - 1` makes the job claimable from `retryAt` on.
        if (job) put(journal, state.signingJobs, issuanceId, { ...job, leaseUntil: retryAt - 1, lastError: error })
      },
      async complete(issuanceId) {
        remove(journal, state.signingJobs, issuanceId)
      },
      async count() {
        return state.signingJobs.size
      },
    },
    statusLists: {
      async insert(list) {
        const stored: StatusList = { ...copy(list), id: ++state.sequences.statusList, allocated: 0 }
        put(journal, state.statusLists, stored.id, stored)
        return copy(stored)
      },
      async current(club, purpose) {
        let newest: StatusList | null = null
        for (const list of state.statusLists.values()) {
          if (list.club === club && list.purpose === purpose && (newest === null || list.id > newest.id)) newest = list
        }
        return newest ? copy(newest) : null
      },
      async findById(id) {
        const list = state.statusLists.get(id)
        return list ? copy(list) : null
      },
      async listByClub(club) {
        return [...state.statusLists.values()]
          .filter((list) => list.club === club)
          .sort((a, b) => a.id - b.id)
          .map(copy)
      },
      async takeSlots(listId, count) {
        const list = state.statusLists.get(listId)
        if (!list || list.allocated >= list.size) return null
        const taken = Math.min(count, list.size - list.allocated)
        put(journal, state.statusLists, listId, { ...list, allocated: list.allocated + taken })
        return { first: list.allocated, count: taken }
      },
    },
    events: {
      async append(event) {
        const id = ++state.sequences.event
        put(journal, state.events, id, { ...copy(event), id })
        return id
      },
      async list(club, { limit, beforeId }) {
        return keysetPage(
          [...state.events.values()].filter((event) => event.club === club),
          beforeId,
          limit,
        )
      },
    },
    idempotency: {
      async find(scope, key) {
        const record = state.idempotency.get(idempotencyKey(scope, key))
        return record ? copy(record) : null
      },
      async insert(record) {
        const mapKey = idempotencyKey(record.scope, record.key)
        if (state.idempotency.has(mapKey)) throw new StorageConflict(`idempotency key ${record.key} exists in ${record.scope}`)
        put(journal, state.idempotency, mapKey, copy(record))
      },
      async complete(scope, key, response) {
        const mapKey = idempotencyKey(scope, key)
        const record = state.idempotency.get(mapKey)
        if (record) put(journal, state.idempotency, mapKey, { ...record, response: copy(response) })
      },
      async delete(scope, key) {
        remove(journal, state.idempotency, idempotencyKey(scope, key))
      },
      async purgeExpired(now) {
        let purged = 0
        for (const [mapKey, record] of state.idempotency) {
          if (record.expiresAt < now && remove(journal, state.idempotency, mapKey)) purged++
        }
        return purged
      },
    },
    outbox: {
      async enqueue(message) {
        const id = ++state.sequences.outbox
        put(journal, state.outbox, id, { ...copy(message), id, attempts: 0, sentAt: null, lastError: null })
        return id
      },
      async claimDue(now, leaseMs, limit, maxAttempts) {
        const due = [...state.outbox.values()]
          .filter((message) => message.sentAt === null && message.nextAttemptAt <= now && message.attempts < maxAttempts)
          .sort((a, b) => a.id - b.id)
          .slice(0, limit)
        return due.map((message) => {
          const leased = { ...message, nextAttemptAt: now + leaseMs, attempts: message.attempts + 1 }
          put(journal, state.outbox, message.id, leased)
          return copy(leased)
        })
      },
      async markSent(id, sentAt) {
        const message = state.outbox.get(id)
        if (message) put(journal, state.outbox, id, { ...message, sentAt, lastError: null })
      },
      async markFailed(id, error, nextAttemptAt) {
        const message = state.outbox.get(id)
        if (message) put(journal, state.outbox, id, { ...message, lastError: error, nextAttemptAt })
      },
      async listByIssuance(issuanceId) {
        return [...state.outbox.values()]
          .filter((message) => message.issuanceId === issuanceId)
          .sort((a, b) => a.id - b.id)
          .map(copy)
      },
    },
    designs: {
      async insert(design) {
        const id = ++state.sequences.design
        const stored = { ...copy(design), id }
        put(journal, state.designs, id, stored)
        return copy(stored)
      },
      async findById(club, id) {
        const design = state.designs.get(id)
        return design && design.club === club ? copy(design) : null
      },
      async update(design) {
        const current = state.designs.get(design.id)
        if (!current || current.club !== design.club) return false
        put(journal, state.designs, design.id, { ...current, name: design.name, image: design.image, layout: copy(design.layout), updatedAt: design.updatedAt })
        return true
      },
      async list(club, { limit, beforeId }) {
        return keysetPage([...state.designs.values()].filter((design) => design.club === club), beforeId, limit)
      },
    },
    apiKeys: {
      async insert(key) {
        if (state.apiKeys.has(key.id)) throw new StorageConflict(`api key ${key.id} exists`)
        put(journal, state.apiKeys, key.id, copy(key))
      },
      async findById(id) {
        const key = state.apiKeys.get(id)
        return key ? copy(key) : null
      },
      async listByClub(club) {
        return [...state.apiKeys.values()]
          .filter((key) => key.club === club)
          .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
          .map(copy)
      },
      async revoke(id, revokedAt) {
        const key = state.apiKeys.get(id)
        if (!key || key.revokedAt !== null) return false
        put(journal, state.apiKeys, id, { ...key, revokedAt })
        return true
      },
    },
    images: {
      async put(image) {
        if (!state.images.has(image.hash)) put(journal, state.images, image.hash, copy(image))
      },
      async findByHash(hash) {
        const image = state.images.get(hash)
        return image ? copy(image) : null
      },
    },
    keys: {
      async insert(key) {
        if (state.keys.has(key.kid)) throw new StorageConflict(`key ${key.kid} exists`)
        if (key.active && [...state.keys.values()].some((k) => k.owner === key.owner && k.active)) {
          throw new StorageConflict(`owner ${key.owner} has an active key`)
        }
        put(journal, state.keys, key.kid, copy(key))
      },
      async findActive(owner) {
        const key = [...state.keys.values()].find((k) => k.owner === owner && k.active)
        return key ? copy(key) : null
      },
      async findByKid(kid) {
        const key = state.keys.get(kid)
        return key ? copy(key) : null
      },
      async listByOwner(owner) {
        return [...state.keys.values()]
          .filter((k) => k.owner === owner)
          .sort((a, b) => a.createdAt - b.createdAt || (a.kid < b.kid ? -1 : 1))
          .map(copy)
      },
      async deactivateAll(owner) {
        for (const key of state.keys.values()) {
          if (key.owner === owner && key.active) put(journal, state.keys, key.kid, { ...key, active: false })
        }
      },
    },
  }
}

function definedOnly<T extends object>(changes: T): Partial<T> {
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as Partial<T>
}

/**
 * The stores as seen outside a unit of work: every call is a unit of its own, so that reads queue
 * behind a running unit (never seeing its uncommitted writes) and writes stay all-or-nothing.
 */
function outsideUnits(unit: <T>(work: (tx: Stores) => Promise<T>) => Promise<T>, shape: Stores): Stores {
  const stores: Record<string, Record<string, unknown>> = {}
  for (const [name, store] of Object.entries(shape)) {
    stores[name] = {}
    for (const method of Object.keys(store)) {
      stores[name][method] = (...args: unknown[]) =>
        unit((tx) => (tx as unknown as Record<string, Record<string, (...a: unknown[]) => Promise<unknown>>>)[name]![method]!(...args))
    }
  }
  return stores as unknown as Stores
}

/**
 * The reference storage: plain Maps, all-or-nothing units of work by an undo journal. For tests and
 * embedders who keep nothing across restarts.
 *
 * @example
 * const storage = createMemoryStorage()
 */
export function createMemoryStorage(): StoragePort {
  const state = createState()
  const mutex = createMutex()
  let closed = false

  function unit<T>(work: (tx: Stores) => Promise<T>): Promise<T> {
    if (closed) return Promise.reject(new Error('storage is closed'))
    return mutex.exclusive(async () => {
      const journal: Journal = []
      try {
        return await work(createStores(state, journal))
      } catch (error) {
        for (const undo of journal.reverse()) undo()
        throw error
      }
    })
  }

  return {
    ...outsideUnits(unit, createStores(state, [])),
    transaction: unit,
    async close() {
      closed = true
    },
  }
}
