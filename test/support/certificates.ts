// Self-signed TLS certificates for the tests of the HTTPS webhook listener and of "Send test event" (openssl CLI).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TestCertificate {
  certFile: string;
  keyFile: string;
  /** The PEM texts of both files. */
  cert: string;
  key: string;
}

/**
 * Writes `<name>.pem` and `<name>-key.pem` into `dir`: a one-day self-signed EC certificate for `subjectAltName`
 * (e.g. `IP:127.0.0.1,DNS:localhost`). Node's crypto cannot make an X.509 certificate; the openssl CLI can.
 */
export function makeSelfSignedCertificate(dir: string, name: string, subjectAltName: string): TestCertificate {
  const certFile = join(dir, `${name}.pem`);
  const keyFile = join(dir, `${name}-key.pem`);
  const commonName = /(?:DNS|IP):([^,]+)/.exec(subjectAltName)?.[1] ?? 'localhost';
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      `/CN=${commonName}`,
      '-addext',
      `subjectAltName=${subjectAltName}`,
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { certFile, keyFile, cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
}
