/** Failures inside the job framework that are not caller errors; `code` is stable for operators and tests. */
export class JobsError extends Error {
  override readonly name: string = 'JobsError';
  constructor(readonly code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
