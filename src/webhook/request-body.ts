// Reads a request body up to a byte limit, stopping the moment it grows past it, and undoes a gzip/deflate/br encoding.
import type { IncomingMessage } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

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
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: BodyResult): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      req.off('error', onError);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        // Stop pulling: the socket's flow control holds the rest back until the answer closes the connection.
        req.pause();
        chunks.length = 0;
        finish({ kind: 'too-large' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => finish({ kind: 'ok', body: Buffer.concat(chunks, size) });
    // 'close' without 'end' = the connection died mid-body; 'error' ("aborted") comes with it and needs a listener.
    const onClose = (): void => finish({ kind: 'aborted' });
    const onError = (): void => finish({ kind: 'aborted' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
    req.on('error', onError);
  });
}

export type DecodeResult = { kind: 'ok'; body: Buffer } | { kind: 'too-large' } | { kind: 'unsupported'; encoding: string } | { kind: 'corrupt' };

/**
 * The contract does not say whether the service compresses webhook bodies; accept the usual encodings
 * rather than answer 400 to a valid event. The inflated size is bounded too (no zip bombs).
 */
export function decodeBody(body: Buffer, contentEncoding: string | undefined, maxBytes: number): DecodeResult {
  const encoding = (contentEncoding ?? '').trim().toLowerCase();
  const options = { maxOutputLength: maxBytes };
  try {
    switch (encoding) {
      case '':
      case 'identity':
        return { kind: 'ok', body };
      case 'gzip':
      case 'x-gzip':
        return { kind: 'ok', body: gunzipSync(body, options) };
      case 'deflate':
        return { kind: 'ok', body: inflateSync(body, options) };
      case 'br':
        return { kind: 'ok', body: brotliDecompressSync(body, options) };
      default:
        return { kind: 'unsupported', encoding };
    }
  } catch (error) {
    return (error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE' ? { kind: 'too-large' } : { kind: 'corrupt' };
  }
}
