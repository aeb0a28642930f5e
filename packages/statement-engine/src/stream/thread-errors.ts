// Errors that cross between threads. Structured cloning keeps an Error's name, message and stack but not the
// code of a failed system call (ENOSPC, EIO...), which callers look at, nor the class of the engine's own errors
// (a refusal the caller tells by its code and class): the error travels as plain data and is made the same
// kind of Error again on the other side.

import { ConsoFileError, StatementEngineError, type ConsoErrorCode, type EngineErrorCode } from '../errors.js';

export interface ErrorData {
  name: string;
  message: string;
  stack: string | undefined;
  code: unknown;
  errno: unknown;
  syscall: unknown;
  path: unknown;
  /** The engine's own error, made again with its class: a StatementEngineError, or a ConsoFileError (with its line). */
  engine?: { kind: 'engine' } | { kind: 'conso'; line: number };
}

export function errorData(error: unknown): ErrorData {
  const e = (error instanceof Error ? error : new Error(String(error))) as NodeJS.ErrnoException;
  const data: ErrorData = { name: e.name, message: e.message, stack: e.stack, code: e.code, errno: e.errno, syscall: e.syscall, path: e.path };
  if (error instanceof ConsoFileError) data.engine = { kind: 'conso', line: error.line };
  else if (error instanceof StatementEngineError) data.engine = { kind: 'engine' };
  return data;
}

export function revive(data: ErrorData): Error {
  const error = own(data);
  error.name = data.name;
  error.message = data.message;
  if (data.stack !== undefined) error.stack = data.stack;
  for (const key of ['code', 'errno', 'syscall', 'path'] as const) if (data[key] !== undefined) Object.assign(error, { [key]: data[key] });
  return error;
}

function own(data: ErrorData): Error {
  if (data.engine?.kind === 'conso') return new ConsoFileError(data.code as ConsoErrorCode, data.engine.line, '');
  if (data.engine?.kind === 'engine') return new StatementEngineError(data.code as EngineErrorCode, '');
  return new Error();
}
