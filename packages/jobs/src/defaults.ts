/** Defaults every job family starts from; the API side and the workers must agree on them. */
export const JOB_DEFAULTS = {
  /** Validity of an upload URL (`json_url`, `csv_url`, ...). */
  uploadTtlSeconds: 24 * 3600,
  /** Largest upload accepted in each slot. */
  maxUploadBytes: 50 * 1024 * 1024,
  /** Validity of the download URLs in a poll answer or webhook. */
  downloadTtlSeconds: 3600,
} as const;
