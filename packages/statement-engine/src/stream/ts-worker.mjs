// A worker thread's script run from the TypeScript sources (the tests, under tsx; the build runs the .js next to
// each module): Node 20 does not carry the --import loader hooks into worker threads, so this registers tsx's
// loader in the worker, then imports the script its first argument names (worker-threads.ts).
import { register } from 'tsx/esm/api';

register();
await import(process.argv[2]);
