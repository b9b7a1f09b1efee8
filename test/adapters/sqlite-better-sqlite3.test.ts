import { openTempSqlite } from '../support/temp-sqlite.ts'
import { storageSuite } from '../conformance/storage.suite.ts'

storageSuite({ name: 'sqlite/better-sqlite3', open: openTempSqlite })
