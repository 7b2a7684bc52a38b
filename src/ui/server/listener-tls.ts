// How "Send test event" trusts a listener serving HTTPS: by the certificate the saved settings give it, or openly not at all.
import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { rootCertificates } from 'node:tls';
import type { PeerCertificate } from 'node:tls';

import { savedWebhooks } from './saved-config.js';

/** The certificate file the saved entry of this plugin listening on `port` names; the running listener was started with it. */
export async function savedCertFile(configPath: string | undefined, port: number): Promise<string | undefined> {
  const webhook = (await savedWebhooks(configPath)).find((saved) => saved.port === port && saved.tlsCertFile?.trim());
  return webhook?.tlsCertFile?.trim();
}

/** What undici passes to tls.connect. */
export interface TlsConnectOptions {
  ca?: string[];
  rejectUnauthorized: boolean;
  checkServerIdentity?: (host: string, cert: PeerCertificate) => Error | undefined;
}

export type ListenerTrust =
  | { kind: 'pinned'; file: string; connect: TlsConnectOptions }
  /** `why` completes "Its certificate was not verified: …". */
  | { kind: 'unverified'; why: string; connect: TlsConnectOptions };

/** The error code a listener presenting another certificate than the saved one fails with. */
export const OTHER_CERTIFICATE = 'AC_OTHER_CERTIFICATE';

/**
 * The listener is reached by address (127.0.0.1 most often), which no certificate names, and is often self-signed.
 * So the check is not the host name but the certificate itself: the chain must verify against the system's
 * authorities plus the saved file (a self-signed one trusts itself), and the listener must present the very
 * certificate the file starts with. Without a readable saved file, the key is sent unverified and the page says so.
 */
export async function listenerTrust(certFile: string | undefined, port: number): Promise<ListenerTrust> {
  if (certFile === undefined) {
    return { kind: 'unverified', why: `the saved settings name no certificate for port ${port}`, connect: { rejectUnauthorized: false } };
  }
  let pem: string;
  let expected: string;
  try {
    pem = await readFile(certFile, 'utf8');
    expected = new X509Certificate(pem).fingerprint256;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { kind: 'unverified', why: `${certFile} could not be read${code ? ` (${code})` : ''}`, connect: { rejectUnauthorized: false } };
  }
  return {
    kind: 'pinned',
    file: certFile,
    connect: {
      ca: [...rootCertificates, pem],
      rejectUnauthorized: true,
      checkServerIdentity: (_host, cert) =>
        cert.fingerprint256 === expected
          ? undefined
          : Object.assign(new Error(`the listener presents another certificate than ${certFile}`), { code: OTHER_CERTIFICATE }),
    },
  };
}
