import { Writable } from 'node:stream';
import { createLogger, isServiceError, type Logger } from '@satyapan/core';

/** A logger whose lines the test can read back. */
export function capturedLogger(): { logger: Logger; text: () => string } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: createLogger({ stream, level: 'debug' }), text: () => lines.join('') };
}

/** The ServiceError a promise rejects with, as status, message and headers. */
export async function failure(promise: Promise<unknown>): Promise<{ status: number; message: string; headers: Record<string, string> }> {
  try {
    await promise;
  } catch (error) {
    if (!isServiceError(error)) throw error;
    return { status: error.status, message: error.message, headers: { ...error.headers } };
  }
  throw new Error('expected a ServiceError');
}
