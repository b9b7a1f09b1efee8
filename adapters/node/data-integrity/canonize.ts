import { createHash } from 'node:crypto'
import rdfCanonize from 'rdf-canonize'
import { XSD_STRING } from './shapes.ts'
import type { Quad } from './credential-quads.ts'

/**
 * A quad as N-Quads text around its blank nodes: `subject` and `object` are the term's text, or `null`
 * for a blank node, whose label (`subjectLabel`, `objectLabel`) is written in as each step needs it.
 */
interface Written {
  subject: string | null
  subjectLabel: string
  middle: string
  object: string | null
  objectLabel: string
}

/**
 * RDFC-1.0 of quads from `writeQuads`: the canonical N-Quads rdf-canonize makes of them, byte for byte.
 * The common case is done here, in rdf-canonize's steps: each blank node's first-degree hash (its quads,
 * itself as `_:a` and any other as `_:z`, serialized, sorted, concatenated, SHA-256 in hex); when every
 * hash is unique, RDFC-1.0 issues the canonical identifiers `c14n0`, `c14n1`, … in the order of those
 * hashes and never reaches its N-degree step, so the labels are these. Then every quad with them,
 * serialized, sorted (as rdf-canonize sorts: by UTF-16 code unit), concatenated. Two blank nodes with one
 * hash (two identical evidences without an address) need the N-degree step: rdf-canonize then runs the
 * whole algorithm on the same quads.
 *
 * Serialized as rdf-canonize's NQuads does: an IRI as `<iri>` (writeQuads only writes IRIs with nothing
 * to escape, and the predicates and datatypes are the shapes' constants), a literal as its escaped text
 * with `^^<datatype>` unless it is xsd:string (`escapeLiteral`, checked against rdf-canonize's for every
 * character it escapes in test/adapters/data-integrity-fast-path.test.ts).
 */
export async function canonicalNQuads(quads: Quad[]): Promise<string> {
  const written: Written[] = []
  const byBlankNode = new Map<string, Written[]>()
  const touch = (label: string, quad: Written) => {
    const held = byBlankNode.get(label)
    // A quad whose subject and object are one blank node counts once, as rdf-canonize's set does.
    if (!held) byBlankNode.set(label, [quad])
    else if (held.at(-1) !== quad) held.push(quad)
  }
  for (const { subject, predicate, object } of quads) {
    const quad: Written = {
      subject: subject.termType === 'BlankNode' ? null : `<${subject.value}>`,
      subjectLabel: subject.termType === 'BlankNode' ? subject.value : '',
      middle: ` <${predicate.value}> `,
      object:
        object.termType === 'BlankNode'
          ? null
          : object.termType === 'NamedNode'
            ? `<${object.value}>`
            : object.datatype.value === XSD_STRING
              ? `"${escapeLiteral(object.value)}"`
              : `"${escapeLiteral(object.value)}"^^<${object.datatype.value}>`,
      objectLabel: object.termType === 'BlankNode' ? object.value : '',
    }
    written.push(quad)
    if (quad.subject === null) touch(quad.subjectLabel, quad)
    if (quad.object === null) touch(quad.objectLabel, quad)
  }

  const byHash = new Map<string, string>()
  for (const [label, touching] of byBlankNode) {
    const own = (text: string | null, other: string) => text ?? (other === label ? '_:a' : '_:z')
    const lines = touching.map((quad) => `${own(quad.subject, quad.subjectLabel)}${quad.middle}${own(quad.object, quad.objectLabel)} .\n`)
    lines.sort()
    const hash = createHash('sha256').update(lines.join(''), 'utf8').digest('hex')
    if (byHash.has(hash)) return rdfCanonize.canonize(quads, { algorithm: 'RDFC-1.0' })
    byHash.set(hash, label)
  }
  const canonical = new Map<string, string>()
  for (const hash of [...byHash.keys()].sort()) canonical.set(byHash.get(hash)!, `_:c14n${canonical.size}`)
  const lines = written.map(
    (quad) => `${quad.subject ?? canonical.get(quad.subjectLabel)!}${quad.middle}${quad.object ?? canonical.get(quad.objectLabel)!} .\n`,
  )
  lines.sort()
  return lines.join('')
}

/** What rdf-canonize's N-Quads writer escapes in a literal: the C0 controls and DEL, `"` and `\`. */
// eslint-disable-next-line no-control-regex -- control characters are what N-Quads escapes
const LITERAL_ESCAPES = /[\u0000-\u001F\u007F"\\]/
const LITERAL_ESCAPES_ALL = new RegExp(LITERAL_ESCAPES.source, 'g')
/** Its ECHARs; any other is `\uXXXX`, upper-case hex. */
const ECHAR: Record<string, string> = { '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r', '"': '\\"', '\\': '\\\\' }

export function escapeLiteral(value: string): string {
  if (!LITERAL_ESCAPES.test(value)) return value
  return value.replace(LITERAL_ESCAPES_ALL, (char) => ECHAR[char] ?? `\\u${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`)
}
