/** What a child answers on the IPC channel: once `ready`, then one reply per request. */
export type ChildReply<Result> = { ready: true } | { ok: true; result: Result } | { ok: false; error: string };

/**
 * The child's side of a {@link ChildProcessPool}: call it once in the entry module. Each request is handled in
 * turn and answered; a rejection is answered with its message (the pool's `crashed` error, retried), so an error
 * the caller must see with its own code is better returned as a result. The process exits when the pool goes away.
 */
export function serveRequests<Request, Result>(handle: (request: Request) => Promise<Result>): void {
  const send = process.send?.bind(process);
  if (!send) throw new Error('This module runs only as a forked child process');
  process.on('message', (request: Request) => {
    handle(request).then(
      (result) => send({ ok: true, result } satisfies ChildReply<Result>),
      (error: unknown) => send({ ok: false, error: error instanceof Error ? error.message : String(error) } satisfies ChildReply<Result>),
    );
  });
  // The pool holds the other end; when its process goes away, so does this one.
  process.on('disconnect', () => process.exit(0));
  // Messages sent before a listener exists are not kept: the pool waits for this before its first request.
  send({ ready: true } satisfies ChildReply<Result>);
}
