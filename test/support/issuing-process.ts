import type { NodeProcess } from './node-process.ts'
import { demoClientFrom } from './server.ts'
import { accessToken } from './tokens.ts'
import type { Json } from './json.ts'

/** A bearer token of the demo club's client, printed by the process that created it. */
export async function demoToken(node: NodeProcess, stderr = node.stderr): Promise<string> {
  const client = demoClientFrom(stderr)
  if (!client) throw new Error(`no demo client in:\n${stderr}`)
  return accessToken(node, client)
}

/** Creates a template in the demo club and issues it to `count` recipients; returns the accepted issuance ids. */
export async function issueToDemo(node: NodeProcess, token: string, count: number): Promise<number[]> {
  const call = async (path: string, body: unknown) => {
    const response = await node.http(`/v2/clubs/demo${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    if (response.status >= 300) throw new Error(`POST ${path}: ${response.status} ${response.text}`)
    return response.json as Json
  }
  const template = await call('/achievements', { name: 'Night watch', description: 'Kept the night watch.', tag: ['watch'] })
  const recipients = Array.from({ length: count }, (_, i) => ({ externalUserId: `w-${i}`, name: `Watcher ${i}`, email: `w${i}@watch.example` }))
  const issued = await call('/issuances', { achievementFormId: template.data.id, mode: 'none', recipients })
  return (issued.results as { status: string; resourceId: string }[]).filter((r) => r.status === 'issued').map((r) => Number(r.resourceId))
}

/** Polls `probe` every 100 ms until it returns true, failing with `what` after `ms`. */
export async function eventually(what: string, probe: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const until = Date.now() + ms
  while (!(await probe())) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
