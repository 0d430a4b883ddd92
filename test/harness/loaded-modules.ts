/**
 * Preloaded (`node -r`) into a child process by the start-up specs: at exit it writes every module the
 * process loaded to the file IDEM_TEST_LOADED_MODULES names, one path a line — require.cache, which holds
 * each CommonJS file and the entry file of each ES module loaded through require (Nest's packages).
 */
import { writeFileSync } from 'node:fs';

const file = process.env.IDEM_TEST_LOADED_MODULES;
if (file) process.on('exit', () => writeFileSync(file, Object.keys(require.cache).join('\n')));
