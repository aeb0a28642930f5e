#!/usr/bin/env node
// The satyapan-admin command. A committed shim rather than a path into dist/, so that npm links the command when the
// package is installed in the workspace, before dist/ has been built (npm skips bins whose file is missing).
try {
  await import('../dist/cli/bin.js');
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/cli/bin.js')) {
    process.stderr.write('satyapan-admin: this package has not been built yet; run "npm run build" at the repository root\n');
    process.exitCode = 2;
  } else {
    throw error;
  }
}
