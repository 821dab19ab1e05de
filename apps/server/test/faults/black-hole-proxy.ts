/**
 * A TCP proxy on 127.0.0.1 in front of PostgreSQL that a fault test can turn into a black hole: a
 * network that drops packets without refusing anything (a cut cable, a firewall that drops, a NAT
 * that forgot its table). While black-holed, new connections are accepted and then never answered,
 * and the connections already open stop forwarding in both directions; nothing is closed or reset.
 * `restore()` forwards new connections again; the connections that were held stay held until
 * `close()` (their state is lost, as behind a firewall that dropped it), so a client must give up
 * on them by itself.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface BlackHoleProxy {
  /** The port clients connect to. */
  port: number;
  /** From now on: accept and hold, forward nothing. */
  blackHole(): void;
  /** From now on new connections are forwarded again; held ones stay held. */
  restore(): void;
  /** Connections accepted so far and how many of them are held. */
  counts(): { accepted: number; held: number };
  /** Closes the listener and every socket. */
  close(): Promise<void>;
}

/** Starts a proxy from a free port of 127.0.0.1 to `127.0.0.1:targetPort`. */
export async function startBlackHoleProxy(targetPort: number): Promise<BlackHoleProxy> {
  let isBlackHoled = false;
  let accepted = 0;
  const held = new Set<Socket>();
  const open = new Set<Socket>();
  /** Pairs that forward; black-holing stops them. */
  const pairs = new Set<[Socket, Socket]>();
  const track = (socket: Socket) => {
    open.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      open.delete(socket);
      held.delete(socket);
    });
  };
  const server: Server = createServer((client) => {
    accepted += 1;
    track(client);
    if (isBlackHoled) {
      // Read nothing: whatever the client sends sits in the kernel's buffers, unanswered.
      client.pause();
      held.add(client);
      return;
    }
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    track(upstream);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    // A refusal or reset upstream reaches the client as a close, as it would without the proxy.
    upstream.on('close', () => client.destroy());
    client.on('close', () => {
      upstream.destroy();
      pairs.delete(pair);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('the proxy has no port');
  return {
    port: address.port,
    blackHole: () => {
      isBlackHoled = true;
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
        // Closes from either side are not passed on either: the network no longer carries them.
        client.removeAllListeners('close');
        upstream.removeAllListeners('close');
        held.add(client);
        held.add(upstream);
      }
      pairs.clear();
    },
    restore: () => {
      isBlackHoled = false;
    },
    counts: () => ({ accepted, held: held.size }),
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
