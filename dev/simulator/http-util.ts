// Small HTTP helpers: body reading with a size cap, gzip negotiation and JSON replies.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { MAX_REQUEST_BODY_BYTES } from './constants.js';

export class BodyTooLargeError extends Error {}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_REQUEST_BODY_BYTES) {
      throw new BodyTooLargeError(`request body over ${MAX_REQUEST_BODY_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** True when Accept-Encoding lists gzip (or `*`) with a non-zero quality. */
export function wantsGzip(req: IncomingMessage): boolean {
  const header = req.headers['accept-encoding'];
  if (!header) {
    return false;
  }
  return header.split(',').some((part) => {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const quality = params.find((param) => param.startsWith('q='));
    const accepted = quality === undefined || Number(quality.slice(2)) > 0;
    return accepted && (name === 'gzip' || name === '*');
  });
}

/** Sends a text payload, gzip-compressed when the client asked for it. */
export function sendText(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  text: string,
  contentType: string,
  extraHeaders: OutgoingHttpHeaders = {},
): void {
  const plain = Buffer.from(text, 'utf8');
  const gzip = wantsGzip(req);
  const payload = gzip ? gzipSync(plain) : plain;
  res.writeHead(status, {
    'Content-Type': contentType,
    'Content-Length': payload.length,
    Vary: 'Accept-Encoding',
    ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
    ...extraHeaders,
  });
  res.end(payload);
}

export function sendJson(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: unknown,
  extraHeaders: OutgoingHttpHeaders = {},
): void {
  sendText(req, res, status, JSON.stringify(body), 'application/json; charset=utf-8', extraHeaders);
}

/** 204, 205 and 304 carry no body by HTTP's rules, whatever a handler would write. */
export function hasNoBody(status: number): boolean {
  return status === 204 || status === 205 || status === 304;
}

/** A status alone, with no body and no Content-Type (a 204 No Content). */
export function sendEmpty(res: ServerResponse, status: number, extraHeaders: OutgoingHttpHeaders = {}): void {
  res.writeHead(status, extraHeaders);
  res.end();
}

/** Parses JSON text, or returns undefined (zod then reports the body as malformed). */
export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
