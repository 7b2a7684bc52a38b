// Vitest globalSetup of the ui project: build, pack and install the plugin with the Homebridge UI once, for every test file.
import type { TestProject } from 'vitest/node';

import { prepareUiEnv } from './ui-env.js';

export default async function setup(project: TestProject): Promise<void> {
  project.provide('uiEnv', await prepareUiEnv());
}
