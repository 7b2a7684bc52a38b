// Writes a programmed fault to the wire: error statuses, bad bodies, broken gzip, cut or reset connections, silence.
import { STATUS_CODES } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimEndpoint, SimFault } from './faults.js';
import { hasNoBody, parseJsonOrUndefined, sendEmpty, sendText } from './http-util.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Cut off mid-object so no JSON parser accepts it. */
const INVALID_JSON_TEXT = '{"devices": [{"id": "7b2e9d40", "doors": [';

/** Valid JSON in the wrong shape for each endpoint. */
const SCHEMA_VIOLATIONS: Record<SimEndpoint, unknown> = {
  sync: { devices: 'nope' },
  toggle: { success: 'yes', timestamp: 'soon', message: 200 },
  history: { success: true, timestamp: 'later', data: { toggle_events: 'nope' } },
};

/** A gzip header followed by bytes that are not a valid deflate stream (and no trailer). */
const CORRUPT_GZIP_BYTES = Buffer.concat([
  Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03]),
  Buffer.from('\xff\xfe this is not a deflate stream', 'latin1'),
]);

/** Body announced in full but only half sent, for the truncated and reset faults. */
const PARTIAL_BODY_TEXT = JSON.stringify({ devices: [], padding: 'x'.repeat(4096) });

function sendStatus(req: IncomingMessage, res: ServerResponse, fault: Extract<SimFault, { kind: 'status' }>): void {
  const body = fault.body ?? JSON.stringify({ success: false, message: STATUS_CODES[fault.status] ?? 'Error' });
  // A proxy's HTML error page must not be labelled JSON; a custom JSON body should be.
  const contentType = parseJsonOrUndefined(body) === undefined ? 'text/html; charset=utf-8' : JSON_TYPE;
  const retryAfter = fault.retryAfter ?? (fault.retryAfterS === undefined ? undefined : String(fault.retryAfterS));
  const headers = retryAfter === undefined ? {} : { 'Retry-After': retryAfter };
  if (hasNoBody(fault.status)) {
    sendEmpty(res, fault.status, headers);
    return;
  }
  sendText(req, res, fault.status, body, contentType, headers);
}

/** Announces the whole body, sends half, then ends (FIN) or resets (RST) the connection. */
function sendPartial(res: ServerResponse, abrupt: boolean): void {
  const full = Buffer.from(PARTIAL_BODY_TEXT, 'utf8');
  res.writeHead(200, { 'Content-Type': JSON_TYPE, 'Content-Length': full.length });
  res.write(full.subarray(0, Math.floor(full.length / 2)), () => {
    if (abrupt) {
      res.socket?.resetAndDestroy();
    } else {
      res.socket?.end();
    }
  });
}

/** Headers at once, then a space (valid JSON padding) at every tick until the client or stop() closes the connection. */
function sendTrickle(res: ServerResponse, intervalMs: number): void {
  res.writeHead(200, { 'Content-Type': JSON_TYPE });
  res.flushHeaders();
  const timer = setInterval(() => res.write(' '), intervalMs);
  res.once('close', () => clearInterval(timer));
}

export function serveFault(req: IncomingMessage, res: ServerResponse, fault: SimFault, endpoint: SimEndpoint): void {
  switch (fault.kind) {
    case 'status':
      sendStatus(req, res, fault);
      return;
    case 'invalid-json':
      sendText(req, res, 200, INVALID_JSON_TEXT, JSON_TYPE);
      return;
    case 'schema':
      sendText(req, res, 200, JSON.stringify(SCHEMA_VIOLATIONS[endpoint]), JSON_TYPE);
      return;
    case 'corrupt-gzip':
      res.writeHead(200, { 'Content-Type': JSON_TYPE, 'Content-Encoding': 'gzip', 'Content-Length': CORRUPT_GZIP_BYTES.length });
      res.end(CORRUPT_GZIP_BYTES);
      return;
    case 'truncated':
      sendPartial(res, false);
      return;
    case 'reset':
      sendPartial(res, true);
      return;
    case 'hang':
      // Never answer; stop() destroys the connection.
      return;
    case 'refuse':
      req.socket.destroy();
      return;
    case 'trickle':
      sendTrickle(res, fault.intervalMs);
      return;
    case 'delay':
      // Dispatch waits and then answers normally; nothing to write here.
      return;
  }
}
