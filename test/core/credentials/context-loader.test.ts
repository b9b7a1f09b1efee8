/**
 * The contexts Data Integrity signing loads (core/credentials/contexts/SOURCE.md): each copy equals the
 * published file it was taken from, every context a credential names is held, and nothing else is.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { contexts as credentialsContexts } from '@digitalbazaar/credentials-context'
import { contextLoader } from '../../../core/credentials/context-loader.ts'
import { OB3_CONTEXT } from '../../../core/credentials/build-ob3.ts'
import { OB_V3P0_CONTEXT_3_0_3 } from '../../../core/credentials/contexts/ob-v3p0-context-3.0.3.ts'
import { OB_V3P0_EXTENSIONS } from '../../../core/credentials/contexts/ob-v3p0-extensions.ts'

const FIXTURES = fileURLToPath(new URL('../../fixtures/ob3/contexts/', import.meta.url))
const fixture = (file: string): unknown => JSON.parse(readFileSync(`${FIXTURES}${file}`, 'utf8'))

describe('the context loader of Data Integrity signing', () => {
  it('holds the OB 3.0.3 and extensions contexts exactly as published, and the VC 2.0 context as the 1EdTech validator has it', () => {
    assert.deepStrictEqual(OB_V3P0_CONTEXT_3_0_3, fixture('ob_v3p0_context-3.0.3.json'))
    assert.deepStrictEqual(OB_V3P0_EXTENSIONS, fixture('ob_v3p0_extensions.json'))
    assert.deepStrictEqual(credentialsContexts.get('https://www.w3.org/ns/credentials/v2'), fixture('w3c_credentials_v2.jsonld'))
  })

  it('answers every context URL a credential names with its copy, as a JSON-LD RemoteDocument', async () => {
    const urls = OB3_CONTEXT.filter((entry): entry is Extract<typeof entry, string> => typeof entry === 'string')
    assert.equal(urls.length, 3)
    for (const url of urls) {
      const loaded = await contextLoader(url)
      assert.equal(loaded.documentUrl, url)
      assert.equal(loaded.contextUrl, null)
      assert.ok((loaded.document as { '@context': unknown })['@context'], `${url} is a context`)
    }
    assert.equal((await contextLoader('https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json')).document, OB_V3P0_CONTEXT_3_0_3)
  })

  it('refuses any other URL, naming it, without fetching it', async () => {
    for (const url of [
      'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.2.json',
      'https://www.w3.org/2018/credentials/v1',
      'http://www.w3.org/ns/credentials/v2',
      'did:web:example.org',
    ]) {
      await assert.rejects(contextLoader(url), new Error(`the JSON-LD context ${url} is not one clubcred holds, and contexts are never fetched`))
    }
  })
})
