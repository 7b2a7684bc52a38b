// The form's first and last words (config.schema.json's headerDisplay and footerDisplay): what the plugin shows, and where
// the reference the package does not ship is read, by an address that opens from the Homebridge UI.
import { readFileSync } from 'node:fs';

/** What the frame reads of package.json. */
export interface Manifest {
  name: string;
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

const HEADER =
  'Every gate, garage door and door of your access-control account appears in Apple Home, as a garage door or as a lock ' +
  '(Show in Home as, for all doors or per door), and with the Matter option on Homebridge 2 in Google Home and Alexa. You need ' +
  "the service's base address and an access token for your account.";

/**
 * The footer links docs/options.md and docs/troubleshooting.md, which the package does not ship, in the repository; while
 * package.json names none, it names the files and links the package's page on npm, where the README is.
 */
export function formFrame(manifest: Manifest): FormFrame {
  const repository = repositoryUrl(manifest);
  const where =
    repository === undefined
      ? `The reference of every option (docs/options.md) and of every log line (docs/troubleshooting.md) is in the plugin's repository; its README is on [npm](https://www.npmjs.com/package/${manifest.name}).`
      : `Every option: [docs/options.md](${repository}/blob/HEAD/docs/options.md). Every log line and what to do: [docs/troubleshooting.md](${repository}/blob/HEAD/docs/troubleshooting.md).`;
  return {
    headerDisplay: HEADER,
    footerDisplay: `Door states are synced by polling, and in real time when webhooks are set up. A setting left empty uses its default, named in its description. ${where}`,
  };
}
