// Vitest globalSetup of the ui project: build, pack and install the plugin with the Homebridge UI once, for every test file
// (or take the install `npm test` prepared beside the fast projects).
import type { TestProject } from 'vitest/node';

import { preparedUiEnv } from './ui-env.js';

export default async function setup(project: TestProject): Promise<void> {
  project.provide('uiEnv', await preparedUiEnv());
}
