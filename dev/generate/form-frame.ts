// The form's first and last words (config.schema.json's headerDisplay and footerDisplay): what the plugin shows (the door
// kinds from their table, src/door/face.ts), and where the reference the package does not ship is read, by an address
// that opens from the Homebridge UI.
import { readFileSync } from 'node:fs';

import { FACES } from '../../src/door/face.js';
import type { FaceTable } from '../../src/door/face.js';

/** What the frame reads of package.json. */
export interface Manifest {
  name: string;
  version?: string;
  repository?: string | { url?: string };
}

export interface FormFrame {
  headerDisplay: string;
  footerDisplay: string;
}

/** package.json, two folders up both as source (dev/generate/) and as built (dist-dev/generate/). */
export const PACKAGE_MANIFEST = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as Manifest;

/** The repository's web address on GitHub, from package.json's `repository` ("github:o/r", "https://github.com/o/r.git"…). */
export function repositoryUrl(manifest: Manifest): string | undefined {
  const given = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
  const match = /^(?:github:|git\+https:\/\/github\.com\/|https:\/\/github\.com\/|git@github\.com:)?([\w.-]+\/[\w.-]+?)(?:\.git)?\/?$/.exec(
    given?.trim() ?? '',
  );
  return given === undefined || match === null ? undefined : `https://github.com/${match[1]}`;
}

/** Every kind of "Show in Home as", from the table of kinds: "as a garage door or as a lock". */
export function asEachKind(faces: FaceTable = FACES): string {
  const each = Object.values(faces).map(({ words }) => `as ${words}`);
  return each.length <= 1 ? (each[0] ?? '') : `${each.slice(0, -1).join(', ')} or ${each.at(-1) ?? ''}`;
}

const HEADER =
  `Every gate, garage door and door of your access-control account appears in Apple Home, ${asEachKind()} ` +
  '(Show in Home as, for all doors or per door), and with the Matter option on Homebridge 2 in Google Home and Alexa. You need ' +
  "the service's base address and an access token for your account.";

/**
 * A file the package ships, by an address that opens it from the Homebridge UI without a repository: the public CDN that
 * serves every published npm package's files, pinned to this version so the reference is the installed plugin's.
 */
const shipped = (manifest: Manifest, file: string): string =>
  `https://cdn.jsdelivr.net/npm/${manifest.name}${manifest.version === undefined ? '' : `@${manifest.version}`}/${file}`;

/**
 * The footer links docs/options.md and docs/troubleshooting.md: in the repository when package.json names one; else as
 * the package ships them (package.json's `files` holds docs/*.md), by the npm CDN's address of this version.
 */
export function formFrame(manifest: Manifest): FormFrame {
  const repository = repositoryUrl(manifest);
  const where =
    repository === undefined
      ? `Every option: [docs/options.md](${shipped(manifest, 'docs/options.md')}). Every log line and what to do: [docs/troubleshooting.md](${shipped(manifest, 'docs/troubleshooting.md')}). The README is on [npm](https://www.npmjs.com/package/${manifest.name}).`
      : `Every option: [docs/options.md](${repository}/blob/HEAD/docs/options.md). Every log line and what to do: [docs/troubleshooting.md](${repository}/blob/HEAD/docs/troubleshooting.md).`;
  return {
    headerDisplay: HEADER,
    footerDisplay: `Door states are synced by polling, and in real time when webhooks are set up. A setting left empty uses its default, named in its description. ${where}`,
  };
}
