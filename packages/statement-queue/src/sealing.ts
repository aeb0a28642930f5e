// Associated data bound into sealed values, so a sealed value only opens where it was sealed for.

/** A webhook secret sealed for one job's record. */
export function webhookSecretContext(jobId: string): string {
  return `statement-webhook:${jobId}`;
}

/** A search cursor of one owner's jobs of one domain. */
export function cursorContext(owner: string, domain: string): string {
  return `statement-search:${owner}:${domain}`;
}
