// Listening socket lifecycle: start on host/port, report the base URL, stop with every connection closed.
import { createServer } from 'node:http';
import type { RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KEEP_ALIVE_TIMEOUT_MS } from './constants.js';

export class SimHttpServer {
  private server: Server | undefined;

  async start(host: string, port: number, listener: RequestListener): Promise<void> {
    if (this.server) {
      throw new Error('simulator already started');
    }
    const server = createServer({ keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS }, listener);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
  }

  get baseUrl(): string {
    const address = this.server?.address();
    if (!address || typeof address === 'string') {
      throw new Error('simulator not started');
    }
    return `http://${formatHost(address)}:${address.port}`;
  }

  /** Resolves once the port is released; idle keep-alive and never-answered connections are destroyed. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) {
      return;
    }
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}

function formatHost(address: AddressInfo): string {
  return address.family === 'IPv6' ? `[${address.address}]` : address.address;
}
