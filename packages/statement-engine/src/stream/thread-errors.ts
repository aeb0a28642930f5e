// Errors that cross between threads. Structured cloning keeps an Error's name, message and stack but not the
// code of a failed system call (ENOSPC, EIO...), which callers look at: the error travels as plain data and
// is made an Error again on the other side.

export interface ErrorData {
  name: string;
  message: string;
  stack: string | undefined;
  code: unknown;
  errno: unknown;
  syscall: unknown;
  path: unknown;
}

export function errorData(error: unknown): ErrorData {
  const e = (error instanceof Error ? error : new Error(String(error))) as NodeJS.ErrnoException;
  return { name: e.name, message: e.message, stack: e.stack, code: e.code, errno: e.errno, syscall: e.syscall, path: e.path };
}

export function revive(data: ErrorData): Error {
  const error = new Error(data.message) as NodeJS.ErrnoException;
  error.name = data.name;
  if (data.stack !== undefined) error.stack = data.stack;
  for (const key of ['code', 'errno', 'syscall', 'path'] as const) if (data[key] !== undefined) Object.assign(error, { [key]: data[key] });
  return error;
}
