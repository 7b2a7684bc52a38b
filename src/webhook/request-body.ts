// Reads a webhook request's body up to a byte limit, pausing the request the moment it grows past it so a 413 can still be answered.
import type { IncomingMessage } from 'node:http';

import { BoundedChunks } from '../util/body.js';

export type BodyResult =
  | { kind: 'ok'; body: Buffer }
  /** More than the limit arrived (or was announced); reading stopped there. */
  | { kind: 'too-large' }
  /** The client went away (or was cut off by a time-out) before the end of the body. */
  | { kind: 'aborted' };

/** The declared Content-Length, or undefined (chunked, or absent). Node has already refused a malformed one. */
export function declaredLength(req: IncomingMessage): number | undefined {
  const header = req.headers['content-length'];
  return header === undefined ? undefined : Number(header);
}

export function readBoundedBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks = new BoundedChunks(maxBytes);
    const finish = (result: BodyResult): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      req.off('error', onError);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      if (!chunks.add(chunk)) {
        // Stop pulling: the socket's flow control holds the rest back until the answer closes the connection.
        req.pause();
        finish({ kind: 'too-large' });
      }
    };
    const onEnd = (): void => finish({ kind: 'ok', body: chunks.body });
    // 'close' without 'end' = the connection died mid-body; 'error' ("aborted") comes with it and needs a listener.
    const onClose = (): void => finish({ kind: 'aborted' });
    const onError = (): void => finish({ kind: 'aborted' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
    req.on('error', onError);
  });
}
