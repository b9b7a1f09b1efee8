/** What rdf-canonize's N-Quads writer escapes in a literal: the C0 controls and DEL, `"` and `\`. */
// eslint-disable-next-line no-control-regex -- control characters are what N-Quads escapes
const LITERAL_ESCAPES_ALL = /[\u0000-\u001F\u007F"\\]/g
/** Its ECHARs; any other is `\uXXXX`, upper-case hex. */
const ECHAR: Record<string, string> = { '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r', '"': '\\"', '\\': '\\\\' }

/**
 * A literal's text between its quotes, as rdf-canonize's N-Quads writer makes it (checked against it for
 * every UTF-16 code unit in test/adapters/data-integrity-fast-path.test.ts). Most literals need no escape
 * and are returned as they are.
 */
export function escapeLiteral(value: string): string {
  if (!needsEscape(value)) return value
  return value.replace(LITERAL_ESCAPES_ALL, (char) => ECHAR[char] ?? `\\u${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`)
}

/** Whether `value` holds a character `LITERAL_ESCAPES_ALL` matches: a loop over the code units, cheaper than a regular expression on the short texts of a credential. */
function needsEscape(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    if (code < 0x20 || code === 0x22 || code === 0x5c || code === 0x7f) return true
  }
  return false
}

/**
 * One quad of a document as the fast path writes it: its N-Quads text around its blank nodes, which
 * RDFC-1.0 labels afterwards (canonize.ts). `subject` and `object` are the term's text (`<iri>`, or a
 * literal with its quotes and datatype), `''` for a blank node, whose number in the document is
 * `subjectNode` or `objectNode` (`-1` for a term that is not one); `middle` and `rank` are its
 * predicate's (`Predicate`). A literal also keeps its `value` and `datatype` as they are, for the rare
 * graph rdf-canonize labels itself (`toQuad`); both are `''` for any other object.
 */
export interface WrittenQuad {
  subject: string
  subjectNode: number
  middle: string
  rank: number
  object: string
  objectNode: number
  value: string
  datatype: string
}

/**
 * A predicate as the writer knows it: its text between subject and object (` <iri> `), and its place
 * among every predicate the writer knows, in the order of their text (by UTF-16 code unit). No `middle`
 * is the start of another (each ends with `> ` and an IRI holds no `>`), so two lines with one subject
 * are in the order of their predicates' ranks, or of their objects where the predicate is the same.
 */
export interface Predicate {
  middle: string
  rank: number
}

/** A document's quads as written, and how many blank nodes (numbered from 0) they hold. */
export interface WrittenQuads {
  quads: WrittenQuad[]
  blankNodes: number
}

/** RDF terms as rdf-canonize takes them, and as `jsonld.toRDF` makes them. */
export interface NamedNode {
  termType: 'NamedNode'
  value: string
}
export interface BlankNode {
  termType: 'BlankNode'
  value: string
}
export interface Literal {
  termType: 'Literal'
  value: string
  datatype: NamedNode
}
export interface Quad {
  subject: NamedNode | BlankNode
  predicate: NamedNode
  object: NamedNode | BlankNode | Literal
  graph: { termType: 'DefaultGraph'; value: '' }
}

const DEFAULT_GRAPH = { termType: 'DefaultGraph', value: '' } as const

/**
 * The quad as rdf-canonize takes it. IRIs are written as `<iri>` with nothing escaped (the writer takes
 * only IRIs that need no escape), so their text without the brackets is the IRI.
 */
export function toQuad(quad: WrittenQuad): Quad {
  const blank = (node: number): BlankNode => ({ termType: 'BlankNode', value: `b${node}` })
  const named = (text: string): NamedNode => ({ termType: 'NamedNode', value: text.slice(1, -1) })
  return {
    subject: quad.subjectNode >= 0 ? blank(quad.subjectNode) : named(quad.subject),
    predicate: named(quad.middle.slice(1, -1)),
    object:
      quad.objectNode >= 0
        ? blank(quad.objectNode)
        : quad.datatype === ''
          ? named(quad.object)
          : { termType: 'Literal', value: quad.value, datatype: { termType: 'NamedNode', value: quad.datatype } },
    graph: DEFAULT_GRAPH,
  }
}
