import type { NewOutboxMessage, OutboxStore } from '../../core/ports/storage.ts'
import { type Journal, put } from './journal.ts'
import { copy } from './rows.ts'
import type { State } from './state.ts'

export function createOutboxStore(state: State, journal: Journal): OutboxStore {
  const enqueue = (message: NewOutboxMessage): number => {
    const id = ++state.sequences.outbox
    put(journal, state.outbox, id, { ...copy(message), id, attempts: 0, sentAt: null, lastError: null })
    return id
  }
  return {
    async enqueueMany(messages) {
      return messages.map(enqueue)
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
  }
}
