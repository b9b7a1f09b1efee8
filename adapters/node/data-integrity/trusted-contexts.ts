import { LOCAL_CONTEXTS } from '../../../core/credentials/context-loader.ts'
import type { DocumentLoader } from '../../../core/ports/data-integrity-signer.ts'
import { DOCUMENT_SHAPES, type DocumentShape } from './shapes.ts'

const verdicts = new WeakMap<DocumentLoader, Promise<DocumentShape['name'][]>>()

/**
 * The document shapes whose quads may be written without jsonld under `documentLoader`: those whose every
 * context URL it answers with clubcred's own copy (core/credentials/context-loader.ts), the contexts the
 * shapes were read from. Any other loader (one that refuses a URL, or answers another document) leaves
 * the shape to the reference path, which loads through it as before. Asked once per loader: clubcred's
 * loaders are constants, and their answers never change (`static`).
 */
export function shapesTrustedBy(documentLoader: DocumentLoader): Promise<DocumentShape['name'][]> {
  let verdict = verdicts.get(documentLoader)
  if (!verdict) {
    verdict = Promise.all(DOCUMENT_SHAPES.map(async (shape) => ((await answersCopies(documentLoader, shape.contextUrls)) ? [shape.name] : []))).then((names) =>
      names.flat(),
    )
    verdicts.set(documentLoader, verdict)
  }
  return verdict
}

async function answersCopies(documentLoader: DocumentLoader, urls: readonly string[]): Promise<boolean> {
  for (const url of urls) {
    const copy = LOCAL_CONTEXTS.get(url)
    let answered: unknown
    try {
      answered = (await documentLoader(url)).document
    } catch {
      return false
    }
    if (copy === undefined || (answered !== copy && JSON.stringify(answered) !== JSON.stringify(copy))) return false
  }
  return true
}
