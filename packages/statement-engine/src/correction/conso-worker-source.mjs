// The conso reader's worker run from the TypeScript sources (tests, under tsx; the build runs conso-worker.js):
// Node 20 does not carry the --import loader hooks into worker threads, so this registers tsx's loader in the
// worker before it imports the script.
import { register } from 'tsx/esm/api';

register();
await import('./conso-worker.ts');
