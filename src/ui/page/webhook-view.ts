// The webhook part of the settings page: a typed port checked against what already uses it, the key checked as 96 hex, the URL, a test.
import { server } from './api.js';
import { byId, status } from './dom.js';
import { apiKeyProblem, getField, setField, webhookEditable } from '../shared/block.js';
import type { Store } from './store.js';

/** Port checks wait until the user stops typing for this long. */
const PORT_CHECK_DELAY_MS = 400;

const text = (store: Store, path: string): string | undefined => {
  const value = getField(store.block, path);
  return typeof value === 'string' && value !== '' ? value : undefined;
};

export function webhookEnabled(store: Store): boolean {
  const block = getField(store.block, 'webhook');
  return typeof block === 'object' && block !== null && getField(store.block, 'webhook.enabled') !== false;
}

function describeUrl(store: Store): string {
  const port = getField(store.block, 'webhook.port');
  if (typeof port !== 'number') {
    return 'Type the port the plugin listens on; the address to give the service appears here.';
  }
  const path = text(store, 'webhook.path') ?? '/';
  if (text(store, 'webhook.tlsCertFile')) {
    return `Give the service https://<your public name>:${port}${path} and forward port ${port} on your router to this machine.`;
  }
  const local =
    store.info.addresses.map((address) => `http://${address}:${port}${path}`).join(' or ') || `http://<this machine>:${port}${path}`;
  return `Give the service an HTTPS address such as https://home.example.com${path}, served by a reverse proxy or tunnel that forwards to ${local} (the service refuses plain http:// and private addresses).`;
}

function showKeyStatus(store: Store): void {
  const key = text(store, 'webhook.apiKey') ?? '';
  const problem = apiKeyProblem(key);
  status(byId('ac-webhook-apiKey-status'), problem ? 'error' : 'ok', problem ?? 'The key has the right form.');
}

let portTimer: ReturnType<typeof setTimeout> | undefined;

async function showPortStatus(store: Store): Promise<void> {
  const note = byId('ac-webhook-port-status');
  const port = getField(store.block, 'webhook.port');
  if (typeof port !== 'number' || port < 1 || port > 65535) {
    status(note, 'error', port === undefined ? 'A port is required, e.g. 51828.' : 'A port is a whole number from 1 to 65535.');
    return;
  }
  const saved = store.savedPorts[store.index];
  const answer = await server.checkPort({ port, host: text(store, 'webhook.host'), entryIndex: store.index, savedPort: saved });
  status(note, answer.ok ? 'ok' : 'warn', answer.message);
}

export function schedulePortCheck(store: Store): void {
  clearTimeout(portTimer);
  portTimer = setTimeout(() => void showPortStatus(store), PORT_CHECK_DELAY_MS);
}

async function sendTest(store: Store): Promise<void> {
  const note = byId('ac-test-event-status');
  const port = getField(store.block, 'webhook.port');
  const apiKey = text(store, 'webhook.apiKey');
  if (typeof port !== 'number' || apiKey === undefined) {
    status(note, 'error', 'Type the port and the API key first.');
    return;
  }
  status(note, 'info', 'Sending…');
  const answer = await server.testEvent({
    port,
    host: text(store, 'webhook.host'),
    path: text(store, 'webhook.path'),
    apiKey,
    headerName: text(store, 'webhook.headerName'),
    tls: text(store, 'webhook.tlsCertFile') !== undefined && text(store, 'webhook.tlsKeyFile') !== undefined,
  });
  status(note, answer.ok ? 'ok' : 'warn', answer.message);
}

/** Wires the section once; the returned function shows the edited entry's values. */
export function setUpWebhook(store: Store): () => void {
  const enabled = byId('ac-webhook-enabled', HTMLInputElement);
  const body = byId('ac-webhook-body');
  enabled.addEventListener('change', () => {
    const hasSettings = getField(store.block, 'webhook.port') !== undefined || getField(store.block, 'webhook.apiKey') !== undefined;
    // Unticked, a filled-in block is kept (enabled: false) so the settings survive; an empty one goes.
    store.set(setField(store.block, 'webhook.enabled', enabled.checked ? true : hasSettings ? false : undefined));
    refresh();
  });
  byId('ac-webhook-port').addEventListener('input', () => {
    schedulePortCheck(store);
    byId('ac-webhook-url').textContent = describeUrl(store);
  });
  byId('ac-webhook-host').addEventListener('input', () => schedulePortCheck(store));
  byId('ac-webhook-apiKey').addEventListener('input', () => showKeyStatus(store));
  byId('ac-webhook-path').addEventListener('input', () => (byId('ac-webhook-url').textContent = describeUrl(store)));
  byId('ac-test-event').addEventListener('click', () => void sendTest(store));
  const refresh = (): void => {
    enabled.checked = webhookEnabled(store);
    // A webhook written as something else than a block is kept as written (its sentence is in #ac-webhook-kept).
    enabled.disabled = !webhookEditable(store.block);
    body.hidden = !enabled.checked;
    byId('ac-webhook-url').textContent = describeUrl(store);
    status(byId('ac-test-event-status'), 'info', '');
    if (enabled.checked) {
      showKeyStatus(store);
      schedulePortCheck(store);
    }
  };
  return refresh;
}
