import { createHash } from 'node:crypto'
import rdfCanonize from 'rdf-canonize'
import type { BlankNode, NamedNode, Quad } from './credential-quads.ts'

const { NQuads } = rdfCanonize

/**
 * RDFC-1.0 of `quads`, the canonical N-Quads rdf-canonize makes of them, byte for byte. The common case is
 * done here, in rdf-canonize's own steps with its own serializer: each blank node's first-degree hash (its
 * quads, itself as `_:a` and any other as `_:z`, serialized, sorted, concatenated, SHA-256 in hex); when
 * every hash is unique, RDFC-1.0 issues the canonical identifiers `c14n0`, `c14n1`, … in the order of
 * those hashes and never reaches its N-degree step, so the labels are these. Then every quad with them,
 * serialized, sorted, concatenated. Two blank nodes with one hash (two identical evidences without an
 * address) need the N-degree step: rdf-canonize runs the whole algorithm then.
 */
export async function canonicalNQuads(quads: Quad[]): Promise<string> {
  const byBlankNode = new Map<string, Quad[]>()
  for (const quad of quads) {
    for (const term of [quad.subject, quad.object]) {
      if (term.termType !== 'BlankNode') continue
      const held = byBlankNode.get(term.value)
      // A quad whose subject and object are one blank node counts once, as rdf-canonize's set does.
      if (!held) byBlankNode.set(term.value, [quad])
      else if (held.at(-1) !== quad) held.push(quad)
    }
  }
  const byHash = new Map<string, string>()
  for (const [id, touching] of byBlankNode) {
    const lines = touching.map((quad) =>
      NQuads.serializeQuadComponents(firstDegree(id, quad.subject), quad.predicate, firstDegree(id, quad.object), quad.graph),
    )
    lines.sort()
    const hash = createHash('sha256').update(lines.join(''), 'utf8').digest('hex')
    if (byHash.has(hash)) return rdfCanonize.canonize(quads, { algorithm: 'RDFC-1.0' })
    byHash.set(hash, id)
  }
  const canonical = new Map<string, string>()
  for (const hash of [...byHash.keys()].sort()) canonical.set(byHash.get(hash)!, `c14n${canonical.size}`)
  const relabel = <T extends Quad['object']>(term: T): T | BlankNode =>
    term.termType === 'BlankNode' ? { termType: 'BlankNode', value: canonical.get(term.value)! } : term
  const lines = quads.map((quad) => NQuads.serializeQuadComponents(relabel(quad.subject), quad.predicate, relabel(quad.object), quad.graph))
  lines.sort()
  return lines.join('')
}

function firstDegree<T extends NamedNode | BlankNode | Quad['object']>(id: string, term: T): T | BlankNode {
  return term.termType === 'BlankNode' ? { termType: 'BlankNode', value: term.value === id ? 'a' : 'z' } : term
}
