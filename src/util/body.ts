// An HTTP body read up to a byte limit and its Content-Encoding undone, bounded too: for the client's answers and the webhook's requests.
import { promisify } from 'node:util';
import type * as Zlib from 'node:zlib';

/**
 * Node's zlib, loaded by the first compressed body: a bridge whose service answers uncompressed never pays for it
 * (about 1.4 MiB resident on Node 20, BENCHMARKS.md section 9).
 */
async function zlib(): Promise<typeof Zlib> {
  return import('node:zlib');
}

/** The chunks of a body as they arrive, refused the moment the total grows past the limit (nothing is held then). */
export class BoundedChunks {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  /** Keeps `chunk`; false once the body is larger than the limit. */
  add(chunk: Buffer): boolean {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      this.chunks.length = 0;
      return false;
    }
    this.chunks.push(chunk);
    return true;
  }

  get body(): Buffer {
    return Buffer.concat(this.chunks, this.size);
  }
}

export type DecodeResult =
  { kind: 'ok'; body: Buffer } | { kind: 'too-large' } | { kind: 'unsupported'; encoding: string } | { kind: 'corrupt' };

/**
 * Undoes a gzip, deflate or br Content-Encoding (none and identity pass); the inflated size is bounded too (no zip
 * bombs). An empty body is empty in any encoding (204, 304, a bare error): gunzip would call it corrupt.
 */
export async function decodeBody(body: Buffer, contentEncoding: string | string[] | undefined, maxBytes: number): Promise<DecodeResult> {
  const encoding = (Array.isArray(contentEncoding) ? contentEncoding.join(',') : (contentEncoding ?? '')).trim().toLowerCase();
  if (body.length === 0) {
    return { kind: 'ok', body };
  }
  const options = { maxOutputLength: maxBytes };
  try {
    switch (encoding) {
      case '':
      case 'identity':
        return { kind: 'ok', body };
      case 'gzip':
      case 'x-gzip':
        return { kind: 'ok', body: await promisify((await zlib()).gunzip)(body, options) };
      case 'deflate':
        return { kind: 'ok', body: await promisify((await zlib()).inflate)(body, options) };
      case 'br':
        return { kind: 'ok', body: await promisify((await zlib()).brotliDecompress)(body, options) };
      default:
        return { kind: 'unsupported', encoding };
    }
  } catch (error) {
    return (error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE' ? { kind: 'too-large' } : { kind: 'corrupt' };
  }
}
