// "Send test event" on the settings page: one authenticated, harmless event to the running listener, and what came back in words.
import { Agent, request } from 'undici';

import { DEFAULT_WEBHOOK_HEADER_NAME, TEST_EVENT_TIMEOUT_MS, WEBHOOK_TEST_EVENT_TYPE } from '../settings.js';

export interface TestEventTarget {
  port: number;
  /** The listener's address; empty or a wildcard means this machine. */
  host: string | undefined;
  path: string | undefined;
  apiKey: string;
  headerName: string | undefined;
  tls: boolean;
}

export interface TestEventResult {
  ok: boolean;
  message: string;
}

const WILDCARD_HOSTS = new Set(['', '0.0.0.0', '::', '[::]']);

/** The address this machine reaches the listener at, in a URL. */
function listenerUrl(target: Pick<TestEventTarget, 'port' | 'host' | 'path' | 'tls'>): URL {
  const host = target.host === undefined || WILDCARD_HOSTS.has(target.host) ? '127.0.0.1' : target.host;
  const hostPart = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return new URL(`${target.tls ? 'https' : 'http'}://${hostPart}:${target.port}${target.path ?? '/'}`);
}

/** Never throws. The event names no door, so it can move none, and the plugin logs it as a test. */
export async function sendTestEvent(target: TestEventTarget, timeoutMs = TEST_EVENT_TIMEOUT_MS): Promise<TestEventResult> {
  const url = listenerUrl(target);
  // The listener is ours, on this machine, often with a self-signed certificate: the check is the key, not the certificate.
  const agent = new Agent({ connect: { timeout: timeoutMs, rejectUnauthorized: false }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const nowS = Math.floor(Date.now() / 1000);
  try {
    const response = await request(url, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', [target.headerName ?? DEFAULT_WEBHOOK_HEADER_NAME]: target.apiKey },
      body: JSON.stringify({ id: `settings-page-test-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`, eventType: WEBHOOK_TEST_EVENT_TYPE, eventOccurred: nowS }),
    });
    await response.body.dump();
    return describeStatus(response.statusCode, url);
  } catch (error) {
    return describeFailure(error as NodeJS.ErrnoException, url);
  } finally {
    void agent.destroy();
  }
}

function describeStatus(status: number, url: URL): TestEventResult {
  switch (status) {
    case 200:
      return {
        ok: true,
        message: `The listener at ${url.origin} answered 200 and accepted the key: it works on this machine. The Homebridge log says "Webhook test from the settings page received". The service must still reach it at your public HTTPS address.`,
      };
    case 401:
      return { ok: false, message: `The listener answered 401: it runs with another API key. Save, restart Homebridge, and try again.` };
    case 404:
      return { ok: false, message: `The listener answered 404: it accepts webhooks on another path. Save, restart Homebridge, and try again.` };
    default:
      return { ok: false, message: `The listener answered HTTP ${status}.` };
  }
}

function describeFailure(error: NodeJS.ErrnoException, url: URL): TestEventResult {
  const code = error.code ?? '';
  if (code === 'ECONNREFUSED') {
    return {
      ok: false,
      message: `No listener answers on ${url.host}. Save, restart Homebridge, then try again: the log says "Webhook listener on …" once it runs, or why it could not start.`,
    };
  }
  if (code === 'EPROTO' || code.startsWith('ERR_SSL') || /wrong version number|ssl/i.test(error.message)) {
    return { ok: false, message: `The listener on ${url.host} does not speak ${url.protocol === 'https:' ? 'HTTPS' : 'plain HTTP'}: save and restart Homebridge so it runs with these settings.` };
  }
  if (code.startsWith('UND_ERR') && code.includes('TIMEOUT')) {
    return { ok: false, message: `The listener on ${url.host} did not answer in time.` };
  }
  return { ok: false, message: `The listener on ${url.host} could not be reached (${code || error.message}).` };
}
