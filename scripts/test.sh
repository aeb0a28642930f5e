#!/usr/bin/env bash
# `npm test`: build, type-check the tests, then both mocha runs (single Redis, then Redis Cluster). The cluster
# run goes ahead even when the first failed, so one red run never hides the other; the script fails if either did.
set -uo pipefail
cd "$(dirname "$0")/.."

npm run build --silent || exit 1
npm run typecheck:tests --silent || exit 1

npx mocha 'packages/*/test/**/*.test.ts' 'test/**/*.test.ts'
main=$?
npm run test:cluster --silent
cluster=$?

if [ "$main" -ne 0 ] || [ "$cluster" -ne 0 ]; then
  echo "npm test FAILED: single-Redis run exit $main, Redis Cluster run exit $cluster" >&2
  exit 1
fi
