/**
 * The once-only rules of expiry on several nodes (docs/decisions/0047-claims-and-expiry.md § Expiry reminders and `issuance.expired`): two issuers on one
 * database sweeping at the same time record each reminder and each `issuance.expired` once. Run beside
 * `twoNodesSuite` by every storage that serves several nodes, with the same factory. The nodes keep the
 * system clock, so the credentials expire a few seconds after issue, inside a one-minute reminder's window.
 *
 * @see docs/decisions/0047-claims-and-expiry.md
 */
import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import type { TwoNodes } from './two-nodes.suite.ts'

const CLUB = 'chess'

/**
 * `together`: the nodes' workers run at the same time (default). Two SQLite connections' workers do not:
 * draining both at once on one file ends in SQLITE_BUSY whatever the rounds hold (so it was before the
 * sweeps), and a file serialises their units anyway; there they drain one after the other.
 */
export function twoNodesExpirySuite({ name, open, together = true }: { name: string; open: () => Promise<TwoNodes>; together?: boolean }): void {
  describe(`two nodes on one database, expiry › ${name}`, { timeout: 60_000 }, () => {
    let nodes: TwoNodes
    beforeEach(async () => {
      nodes = await open()
    })
    afterEach(async () => {
      await nodes.close()
    })

    it('both nodes sweeping at once record each reminder and each issuance.expired once per issuance', async () => {
      const { a, b } = nodes
      await a.clubs.create({ domain: CLUB, name: 'Chess Club' })
      const template = await a.achievements.create(CLUB, { name: 'Blitz night', description: 'Played the blitz night.', expiryReminders: ['PT1M'] })
      const expiresAt = Date.now() + 3000
      const recipients = Array.from({ length: 6 }, (_, i) => ({ name: `Member ${i}`, email: `member.${i}@chess.example` }))
      const { result } = await b.issuances.issue(CLUB, {
        achievementFormId: template.id,
        mode: 'email',
        expiresAt: new Date(expiresAt).toISOString(),
        recipients,
      })
      const ids = result.results.map((item) => String((item as { resourceId: number }).resourceId)).sort()

      const counts = async () => {
        const events = (await b.events.list(CLUB, { limit: '100' })).data
        const of = (type: string) =>
          events
            .filter((event) => event.type === type)
            .map((event) => event.subject.id)
            .sort()
        return { expiring: of('issuance.expiring'), expired: of('issuance.expired') }
      }
      const drainBoth = async () => {
        if (together) await Promise.all([a.worker.drain(), b.worker.drain()])
        else for (const node of [a, b]) await node.worker.drain()
      }
      // Made inside the one-minute window: each reminder at once, whichever node sees it first.
      await drainBoth()
      await drainBoth()
      assert.deepEqual(await counts(), { expiring: ids, expired: [] })

      await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt + 1100 - Date.now())))
      await drainBoth()
      await drainBoth()
      assert.deepEqual(await counts(), { expiring: ids, expired: ids })
    })
  })
}
