/** A thread module that does not load (pool.test.ts). */
throw new Error('this module does not load')
