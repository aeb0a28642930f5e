// Associated data bound into sealed values, so a sealed value only opens where it was sealed for.

/** The password of the certificate a Form 16 job signs with. */
export function certificatePasswordContext(jobId: string): string {
  return `form16-certificate:${jobId}`;
}

/** The client's webhook secret, sealed into one Form 16 job's record. */
export function form16WebhookSecretContext(jobId: string): string {
  return `form16-webhook:${jobId}`;
}
