// zod for the plugin and the settings page: zod/mini with English messages; every schema in src/ imports zod from here.
// zod/mini, not classic zod: the same checks and messages without JSON Schema or methods, a third of the start-up cost
// (issue 22). Unlike classic zod it sets no locale, and without one every default message reads only "Invalid input";
// importing zod from this file sets English before any schema can parse. Only `en` is imported, so a bundler leaves
// the other locales out.
import { catch as _catch, config, optional } from 'zod/mini';
import type { ZodMiniType } from 'zod/mini';
import { en } from 'zod/locales';

config(en());

export * from 'zod/mini';

/**
 * Missing when absent or of another shape, for data read liberally (the service's answers, webhook bodies, Homebridge's
 * config.json): one odd field must not cost the rest.
 */
export const missingIfNot = <T extends ZodMiniType>(schema: T) => _catch(optional(schema), undefined);
