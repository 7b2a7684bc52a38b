// The real service's request gate: a matching bearer token and (strictly) every required header, else 401.
import type { IncomingHttpHeaders } from 'node:http';

const BEARER_PATTERN = /^Bearer\s+(\S+)\s*$/i;

function hasBearer(headers: IncomingHttpHeaders, token: string): boolean {
  const match = BEARER_PATTERN.exec(headers.authorization ?? '');
  return match?.[1] === token;
}

/** Section 5.3: removed or overridden required headers yield the invalid-token error too. */
function hasRequiredHeaders(headers: IncomingHttpHeaders): boolean {
  const charset = headers['accept-charset'];
  const accept = (headers.accept ?? '').toLowerCase();
  const contentType = (headers['content-type'] ?? '').toLowerCase();
  return (
    accept.includes('application/json') &&
    contentType.startsWith('application/json') &&
    typeof charset === 'string' &&
    charset.trim() !== '' &&
    (headers['accept-encoding'] ?? '').trim() !== ''
  );
}

export function isAuthorized(headers: IncomingHttpHeaders, token: string, strictHeaders: boolean): boolean {
  return hasBearer(headers, token) && (!strictHeaders || hasRequiredHeaders(headers));
}
