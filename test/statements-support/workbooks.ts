// The end-to-end tests use the statement-queue package's own test workbooks: one definition of each.
export * from '../../packages/statement-queue/test/support/workbooks.js';
