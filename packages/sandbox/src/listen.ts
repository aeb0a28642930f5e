import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackListenOptions {
  /** Defaults to 127.0.0.1: the simulators never leave the machine. */
  host?: string;
  /** 0 (the default) lets the system pick a free port. */
  port?: number;
}

export interface LoopbackServer {
  server: Server;
  /** `http://<host>:<port>` with the port actually bound. */
  url: string;
  /** Stops listening and drops every open connection, keep-alive ones included, so tests end promptly. */
  close(): Promise<void>;
}

/** Serves `handler` (an express app or any request listener) over HTTP and resolves once it is listening. */
export function listenOnLoopback(handler: RequestListener, options: LoopbackListenOptions = {}): Promise<LoopbackServer> {
  const host = options.host ?? '127.0.0.1';
  const server = createServer(handler);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://${host}:${port}`, close: () => closeServer(server) });
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    // Resolves even when the server was already closed: closing twice is harmless for a caller's cleanup.
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
