// Associated data bound into sealed values, so a sealed value only opens where it was sealed for.

/** The submitting client's API key, sealed into one job's record. */
export function apiKeyContext(jobId: string): string {
  return `bulk-api-key:${jobId}`;
}

/** The client's webhook secret, sealed into one bulk job's record. */
export function bulkWebhookSecretContext(jobId: string): string {
  return `bulk-webhook:${jobId}`;
}
