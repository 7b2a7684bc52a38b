// Plain servers on 127.0.0.1 for tests that need something listening there (a peer, a taken port), on a port the system picks.
import type { Server } from 'node:net';

/** Starts `server` on 127.0.0.1 at a port the system picks; resolves with that port once it listens. */
export async function listenOnLoopback(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

/** Closes `server`; resolves once it no longer listens. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
