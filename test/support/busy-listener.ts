// Fills a webhook listener's per-client cap with connections busy with a request, so the next one from that address is refused.
import { connect } from 'node:net';
import type { Socket } from 'node:net';

import { vi } from 'vitest';

import { WEBHOOK_MAX_CONNECTIONS_PER_CLIENT } from '../../src/settings.js';

export interface BusyListener {
  /** Opens one more connection from the same address; resolves with what it received once the listener closed it. */
  refused(): Promise<string>;
  /** Closes every connection opened here. */
  close(): void;
}

/**
 * `WEBHOOK_MAX_CONNECTIONS_PER_CLIENT` connections from the loopback address `from`, each sending a webhook's headers
 * with `Expect: 100-continue` and holding its body back: once the listener answered 100 Continue, each is busy.
 */
export async function fillPerClientCap(url: string, apiKey: string, from: string): Promise<BusyListener> {
  const { hostname, port } = new URL(url);
  const sockets: Socket[] = [];
  const open = (): { socket: Socket; received: () => string } => {
    const socket = connect({ host: hostname, port: Number(port), localAddress: from });
    sockets.push(socket);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined); // a refused or closed connection is reset or ended; both are expected here
    return { socket, received: () => received };
  };
  const held = Array.from({ length: WEBHOOK_MAX_CONNECTIONS_PER_CLIENT }, open);
  for (const { socket } of held) {
    socket.write(
      [
        'POST / HTTP/1.1',
        'Host: 127.0.0.1',
        `X-Service-API-Key: ${apiKey}`,
        'Content-Type: application/json',
        'Content-Length: 2',
        'Expect: 100-continue',
        '',
        '',
      ].join('\r\n'),
    );
  }
  try {
    await vi.waitFor(
      () => {
        if (!held.every((c) => c.received().startsWith('HTTP/1.1 100 Continue')))
          throw new Error('the listener has not taken every request yet');
      },
      { timeout: 5_000 },
    );
  } catch (error) {
    for (const socket of sockets) socket.destroy();
    throw error;
  }
  return {
    refused: () => {
      const extra = open();
      return new Promise((resolve) => extra.socket.once('close', () => resolve(extra.received())));
    },
    close: () => {
      for (const socket of sockets.splice(0)) socket.destroy();
    },
  };
}
