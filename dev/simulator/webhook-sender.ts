// Delivers webhook messages to the application's URL once each (never retried), recording every outcome.
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import type { ClientRequest, OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { DEFAULT_WEBHOOK_HEADER_NAME, WEBHOOK_TIMEOUT_MS } from './constants.js';
import type { RawWebhookHeaders, RawWebhookResponse, WebhookDelivery, WebhookEvent, WebhookSpelling, WebhookTarget } from './types.js';

export class WebhookSender {
  target: WebhookTarget | null = null;
  readonly deliveries: WebhookDelivery[] = [];
  private readonly inFlight = new Set<ClientRequest>();
  private readonly settling = new Set<Promise<void>>();
  // Own agents so stop() can close every socket the sender ever opened.
  private readonly httpAgent = new HttpAgent({ keepAlive: false });
  private readonly httpsAgent = new HttpsAgent({ keepAlive: false, rejectUnauthorized: false });

  get spelling(): WebhookSpelling {
    return this.target?.spelling ?? 'example';
  }

  /** Sends one event to the current target (if any) and records the outcome when it settles. */
  deliver(event: WebhookEvent): void {
    const target = this.target;
    if (!target) {
      return;
    }
    const done = this.post(target, JSON.stringify(event), {}).then(
      (response) => {
        this.deliveries.push({ body: event, status: response.status });
      },
      (error: unknown) => {
        this.deliveries.push({ body: event, error: error instanceof Error ? error.message : String(error) });
      },
    );
    this.settling.add(done);
    void done.finally(() => this.settling.delete(done));
  }

  /** Posts an arbitrary body (even malformed) to the current target, for receiver tests. */
  async sendRaw(body: string | object, headers: RawWebhookHeaders = {}): Promise<RawWebhookResponse> {
    if (!this.target) {
      throw new Error('no webhook target configured');
    }
    return this.post(this.target, typeof body === 'string' ? body : JSON.stringify(body), headers);
  }

  /** Resolves once every delivery started so far has been recorded. */
  async flush(): Promise<void> {
    while (this.settling.size > 0) {
      await Promise.all([...this.settling]);
    }
  }

  stop(): void {
    for (const request of this.inFlight) {
      request.destroy(new Error('simulator stopped'));
    }
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  private post(target: WebhookTarget, body: string, extra: RawWebhookHeaders): Promise<RawWebhookResponse> {
    const url = new URL(target.url);
    const https = url.protocol === 'https:';
    const headers = buildHeaders(target, Buffer.byteLength(body), extra);
    return new Promise((resolve, reject) => {
      const request = (https ? httpsRequest : httpRequest)(url, {
        method: 'POST',
        headers,
        agent: https ? this.httpsAgent : this.httpAgent,
        timeout: WEBHOOK_TIMEOUT_MS,
      });
      this.inFlight.add(request);
      request.on('close', () => this.inFlight.delete(request));
      request.on('timeout', () => request.destroy(new Error(`no answer within ${WEBHOOK_TIMEOUT_MS} ms`)));
      request.on('error', reject);
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      });
      request.end(body);
    });
  }
}

function buildHeaders(target: WebhookTarget, length: number, extra: RawWebhookHeaders): OutgoingHttpHeaders {
  const merged: Record<string, string | null> = {
    'content-type': 'application/json',
    [(target.headerName ?? DEFAULT_WEBHOOK_HEADER_NAME).toLowerCase()]: target.apiKey,
  };
  for (const [name, value] of Object.entries(extra)) {
    merged[name.toLowerCase()] = value;
  }
  const headers: OutgoingHttpHeaders = { 'content-length': length };
  for (const [name, value] of Object.entries(merged)) {
    if (value !== null) {
      headers[name] = value;
    }
  }
  return headers;
}
