/**
 * Types for Digital Bazaar's untyped rdf-canonize (RDFC-1.0): only what adapters/node/data-integrity/ calls.
 * Terms are RDF/JS-like plain objects; a blank node's `value` is its label without `_:`.
 */
declare module 'rdf-canonize' {
  interface Term {
    termType: 'NamedNode' | 'BlankNode' | 'Literal' | 'DefaultGraph'
    value: string
    datatype?: { termType: 'NamedNode'; value: string }
    language?: string
  }
  interface Quad {
    subject: Term
    predicate: Term
    object: Term
    graph: Term
  }
  const rdfCanonize: {
    canonize(dataset: readonly Quad[], options: { algorithm: 'RDFC-1.0' }): Promise<string>
    NQuads: { serializeQuadComponents(subject: Term, predicate: Term, object: Term, graph: Term): string }
  }
  export default rdfCanonize
}
