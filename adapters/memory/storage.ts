import { StorageConflict } from '../../core/errors.ts'
import { createMutex } from '../../core/util/mutex.ts'
import type { AchievementTemplate, NewRequirement, Requirement } from '../../core/achievements/template.ts'
import type { ApiClient } from '../../core/clients/api-client.ts'
import type { Club } from '../../core/clubs/club.ts'
import type { StoragePort, StoredKey, Stores } from '../../core/ports/storage.ts'

/** Everything the memory storage holds; owned by one storage instance, never module-global. */
interface State {
  clubs: Map<string, Club>
  clients: Map<string, ApiClient>
  keys: Map<string, StoredKey>
  achievements: Map<number, Omit<AchievementTemplate, 'requirements'>>
  requirements: Map<number, Requirement & { templateId: number }>
  /** Id sequences; never rolled back, so an id is never handed out twice. */
  sequences: { achievement: number; requirement: number }
}

function createState(): State {
  return {
    clubs: new Map(),
    clients: new Map(),
    keys: new Map(),
    achievements: new Map(),
    requirements: new Map(),
    sequences: { achievement: 0, requirement: 0 },
  }
}

/** Undo steps of the running unit of work, replayed in reverse on rollback. */
type Journal = (() => void)[]

const copy = <T>(value: T): T => structuredClone(value)

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
