// A TCP proxy in front of the real Redis that can cut its connections at a chosen command, to test what
// callers see when Redis goes away in the middle of an operation, or hold a command back, to make a chosen
// interleaving with other processes happen every time.
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface RedisProxy {
  url: string;
  /**
   * The next time a client sends a command containing `marker` (e.g. `evalsha`), close every connection and
   * refuse new ones until `restore()`. `forwardFirst`: let that command reach Redis before cutting (its reply
   * is lost), instead of cutting before it is sent.
   */
  cutAt(marker: string, options?: { forwardFirst?: boolean }): Promise<void>;
  /**
   * The next time a client sends a command containing `marker`, hold it (and whatever that client sends after
   * it) until the returned `release()` is called: the command reaches Redis late, as on a slow network.
   */
  holdAt(marker: string): Promise<{ release(): void }>;
  restore(): void;
  close(): Promise<void>;
}

export async function startRedisProxy(target = { host: '127.0.0.1', port: 6379 }): Promise<RedisProxy> {
  const sockets = new Set<Socket>();
  let refusing = false;
  let trap: { marker: Buffer; forwardFirst: boolean; sprung: () => void } | null = null;
  let hold: { marker: Buffer; reached: (release: () => void) => void } | null = null;

  const cutAll = (): void => {
    refusing = true;
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };

  const server: Server = createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    const upstream = createConnection(target);
    // Once the trapped command was forwarded, Redis's replies on this connection are dropped: they are lost.
    let mute = false;
    // While a command is held, it and everything after it from this client wait here, in order.
    let held: Buffer[] | null = null;
    sockets.add(client);
    sockets.add(upstream);
    client.on('data', (chunk: Buffer) => {
      if (held) {
        held.push(chunk);
        return;
      }
      const holding = hold;
      if (holding && chunk.toString('latin1').toLowerCase().includes(holding.marker.toString('latin1'))) {
        hold = null;
        const waiting: Buffer[] = [chunk];
        held = waiting;
        holding.reached(() => {
          held = null;
          for (const queued of waiting) upstream.write(queued);
        });
        return;
      }
      const armed = trap;
      if (armed && chunk.toString('latin1').toLowerCase().includes(armed.marker.toString('latin1'))) {
        trap = null;
        if (armed.forwardFirst) {
          mute = true;
          upstream.write(chunk, () => setTimeout(() => { cutAll(); armed.sprung(); }, 50));
        } else {
          cutAll();
          armed.sprung();
        }
        return;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!mute) client.write(chunk);
    });
    const end = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    cutAt(marker, options = {}) {
      return new Promise((resolve) => {
        trap = { marker: Buffer.from(marker.toLowerCase(), 'latin1'), forwardFirst: options.forwardFirst ?? false, sprung: resolve };
      });
    },
    holdAt(marker) {
      return new Promise((resolve) => {
        hold = { marker: Buffer.from(marker.toLowerCase(), 'latin1'), reached: (release) => resolve({ release }) };
      });
    },
    restore() {
      refusing = false;
    },
    async close() {
      cutAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
