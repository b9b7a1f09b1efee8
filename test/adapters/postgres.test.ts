import { postgresPerFile } from '../support/postgres-storage.ts'
import { storageSuite } from '../conformance/storage.suite.ts'

const postgres = postgresPerFile()

storageSuite({ name: 'postgres', open: postgres.open })
