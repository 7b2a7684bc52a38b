// Opens the webhook listener: only on a port Homebridge does not listen on, with its TLS files read; one line says why not.
import { readFile } from 'node:fs/promises';

import type { WebhookConfig } from '../config/index.js';
import type { ReservedPort } from '../util/homebridge-ports.js';
import type { WebhookEvent } from '../webhook/event.js';
import type { WebhookLog, WebhookReceiver } from '../webhook/receiver.js';

/** Said after every reason the listener cannot start, so the user knows what still works. */
const STOPPED_ADVICE = 'webhooks are off, the plugin carries on by polling';

export interface ListenerDeps {
  log: WebhookLog;
  config: WebhookConfig;
  /** Text no webhook body may pass on besides the API key (the access token). */
  secrets?: readonly string[] | undefined;
  /** The ports Homebridge listens on, read from its config; `complete` is false when config.json could not be read. */
  reservedPorts?: (() => Promise<{ ports: ReservedPort[]; complete: boolean }>) | undefined;
  /** Settles once Homebridge's bridge has surely taken its port (after the first sync): the fallback when its port is unknown. */
  bridgeUp?: Promise<void> | undefined;
  /** Each authenticated event. */
  onEvent: (event: WebhookEvent) => void;
  /** The full listener refused a connection, which may have carried a webhook. */
  onConnectionRefused: () => void;
  /** What the listener's line about refused connections says the plugin does meanwhile. */
  refusedAdvice: string;
  /** True once the plugin stopped: a listener still being opened must not take the port after Homebridge shut down. */
  stopped: () => boolean;
}

/** The one line for a listener that cannot start: why, and what still works. */
export function couldNotStart(log: WebhookLog, reason: string): void {
  log.error(`The webhook listener could not start: ${reason}; ${STOPPED_ADVICE}.`);
}

/** The listener, started; undefined (its reason logged) when it cannot start or the plugin stopped meanwhile. */
export async function openListener(deps: ListenerDeps): Promise<WebhookReceiver | undefined> {
  const { config, log } = deps;
  if (!(await portIsOurs(deps))) {
    return undefined;
  }
  let tls: { cert: Buffer; key: Buffer } | undefined;
  try {
    tls =
      config.tlsCertFile && config.tlsKeyFile
        ? { cert: await readFile(config.tlsCertFile), key: await readFile(config.tlsKeyFile) }
        : undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    couldNotStart(log, `the TLS certificate or key file cannot be read (${code})`);
    return undefined;
  }
  try {
    // Loaded here, not at the top: the HTTP(S) server, its connection caps and request reading are only for setups
    // with a listener, and importing them costs every other bridge time and memory at start-up (BENCHMARKS.md, 9).
    const { WebhookReceiver } = await import('../webhook/receiver.js');
    const receiver = new WebhookReceiver({
      port: config.port,
      host: config.host,
      path: config.path,
      apiKey: config.apiKey,
      secrets: deps.secrets,
      headerName: config.headerName,
      tls,
      log,
      onEvent: deps.onEvent,
      onConnectionRefused: deps.onConnectionRefused,
      refusedAdvice: deps.refusedAdvice,
    });
    if (deps.stopped()) {
      return undefined;
    }
    await receiver.start();
    return receiver;
  } catch (error) {
    couldNotStart(log, error instanceof Error ? error.message : String(error));
    return undefined;
  }
}

/**
 * False (with one error line) when the webhook port is one Homebridge listens on: had the listener taken it first,
 * HAP-NodeJS would fail with EADDRINUSE and Homebridge would exit. When Homebridge's config cannot be read, the
 * listener waits until the bridge holds its port, so a clash fails the listener's own listen (one line) instead.
 */
async function portIsOurs(deps: ListenerDeps): Promise<boolean> {
  const { config, log } = deps;
  const reserved = await deps.reservedPorts?.();
  const clash = reserved?.ports.find((taken) => taken.port === config.port);
  if (clash) {
    couldNotStart(log, `port ${config.port} is ${clash.owner}; choose another webhook port`);
    return false;
  }
  if (reserved && !reserved.complete) {
    log.debug(
      "Homebridge's config.json could not be read to check the webhook port; the listener starts after the first sync, once the bridge holds its port.",
    );
    await deps.bridgeUp;
  }
  return !deps.stopped();
}
