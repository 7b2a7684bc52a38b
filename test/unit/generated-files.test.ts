// config.schema.json's option fields and docs/options.md are what `npm run generate` makes of the option catalog: an
// option changed in the catalog alone, or a generated file edited by hand, fails here.
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { generateOptionsDoc } from '../../dev/generate/options-doc.js';
import { asEachKind, formFrame, repositoryUrl } from '../../dev/generate/form-frame.js';
import { generateSchema } from '../../dev/generate/schema.js';
import { atTop, OPTIONS, optionSpec, SHOW_AS_KINDS } from '../../src/option-catalog.js';
import type { OptionSpec } from '../../src/option-catalog.js';
import { CONFIG_SCHEMA_TEXT, doorFieldsOf, NEW_DOOR_FLAG, readConfigForm as parse } from '../support/config-schema.js';
import type { ConfigForm as Form, SchemaField } from '../support/config-schema.js';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const schemaOnDisk = CONFIG_SCHEMA_TEXT;
const docOnDisk = read('docs/options.md');
const options: readonly OptionSpec[] = OPTIONS;

const STALE = 'is not what src/option-catalog.ts generates: run npm run generate';

/** The catalog with one option's label changed, as an edit of src/option-catalog.ts would change it. */
const retitled = (key: string, label: string): OptionSpec[] =>
  options.map((option) => (option.key === key ? { ...option, label } : option));

describe('the files generated from the option catalog', () => {
  it('has config.schema.json as the catalog generates it', () => {
    expect(generateSchema(options, schemaOnDisk), `config.schema.json ${STALE}`).toBe(schemaOnDisk);
  });

  it('has docs/options.md as the catalog generates it', () => {
    expect(generateOptionsDoc(options, schemaOnDisk), `docs/options.md ${STALE}`).toBe(docOnDisk);
  });

  it('sees a title changed in the catalog, in the form and in the reference', () => {
    const changed = retitled('pollInterval', 'Sync every');
    const schema = generateSchema(changed, schemaOnDisk);
    expect(schema).not.toBe(schemaOnDisk);
    expect(parse(schema).schema.properties.pollInterval?.title).toBe('Sync every (seconds)');
    const doc = generateOptionsDoc(changed, schema);
    expect(doc).not.toBe(docOnDisk);
    expect(doc).toContain('### `pollInterval`: Sync every (seconds)');
  });

  it('writes a per-door option into the door entry, and a value title into both places it is offered', () => {
    const retitledLock = (option: OptionSpec): OptionSpec =>
      option.key === 'showAs' && option.kind === 'choice'
        ? { ...option, valueTitles: { ...option.valueTitles, lock: 'Door lock' } }
        : option;
    const changed = options.map(retitledLock);
    const form = parse(generateSchema(changed, schemaOnDisk));
    const titles = (field: SchemaField | undefined) => field?.oneOf?.map((choice) => choice.title);
    // Every kind with its title, in the catalog's order; the lock's is the new one.
    const expected = SHOW_AS_KINDS.map((kind) => (kind === 'lock' ? 'Door lock' : optionSpec('showAs').valueTitles[kind]));
    expect(expected).toContain('Garage door');
    expect(titles(form.schema.properties.showAs)).toEqual(expected);
    expect(titles(doorFieldsOf(form).showAs)).toEqual(expected);
  });

  it('keeps everything that is no option as written, and in its place', () => {
    const form = parse(schemaOnDisk);
    const generated = parse(generateSchema(options, schemaOnDisk));
    const withoutFields = (whole: Form) => ({ ...whole, schema: { ...whole.schema, properties: undefined } });
    expect(withoutFields(generated)).toEqual(withoutFields(form));
    expect(Object.keys(generated)).toEqual(Object.keys(form));
    for (const key of ['accessToken', 'baseUrl', 'webhook', 'includeDeviceIds', 'excludeDoorIds']) {
      expect(generated.schema.properties[key]).toEqual(form.schema.properties[key]);
    }
    expect(doorFieldsOf(generated).id).toEqual(doorFieldsOf(form).id);
    expect(doorFieldsOf(generated).name).toEqual(doorFieldsOf(form).name);
  });

  it('puts back an option missing from the file where it belongs, and drops one the catalog no longer has there', () => {
    const form = parse(schemaOnDisk);
    delete form.schema.properties.transitionTimeout;
    form.schema.properties.retired = { title: 'An option since removed', type: 'boolean' };
    delete doorFieldsOf(form).hide;
    expect(generateSchema(options, `${JSON.stringify(form, null, 2)}\n`)).toBe(schemaOnDisk);
  });

  it('adds a new option after the catalog option before it, at the top level and in the door entry', () => {
    const added = NEW_DOOR_FLAG;
    const form = parse(generateSchema([...options, added], schemaOnDisk));
    const keys = Object.keys(form.schema.properties);
    expect(keys[keys.indexOf('nightMode') - 1]).toBe(options.filter(atTop).at(-1)?.key);
    expect(keys.at(-1)).toBe('excludeDoorIds');
    expect(Object.keys(doorFieldsOf(form)).at(-1)).toBe('nightMode');
    // Its help, and what an empty field means, which the generator adds.
    expect(form.schema.properties.nightMode).toEqual({
      title: 'Night mode',
      type: 'boolean',
      description: `${added.help} Off by default.`,
    });
  });

  it('gives the same file when run on its own output', () => {
    const once = generateSchema(options, schemaOnDisk);
    expect(generateSchema(options, once)).toBe(once);
  });

  it('lists every field of config.schema.json in the reference, options and the rest', () => {
    const form = parse(schemaOnDisk);
    const webhook = form.schema.properties.webhook?.properties ?? {};
    const paths = [
      ...Object.keys(form.schema.properties),
      ...Object.keys(webhook).map((key) => `webhook.${key}`),
      ...['id', 'name'].map((key) => `doors[].${key}`),
    ];
    for (const path of paths) expect({ path, listed: docOnDisk.includes(`\`${path}\``) }).toEqual({ path, listed: true });
    expect(docOnDisk).toMatch(/^# Options\n\n> Generated by `npm run generate` from `src\/option-catalog\.ts`.*do not edit it by hand\./);
  });
});

describe("the form's header and footer (issue 38)", () => {
  it('say doors appear as garage doors or locks, and never send the user to the README for the options', () => {
    const form = parse(schemaOnDisk) as unknown as { headerDisplay: string; footerDisplay: string };
    // Every kind of the table (src/door/face.ts): "as a garage door or as a lock".
    expect(form.headerDisplay).toContain(`appears in Apple Home, ${asEachKind()} (Show in Home as`);
    expect(form.footerDisplay).not.toMatch(/README for every option/);
    expect(form.footerDisplay).toContain('docs/options.md');
  });

  it('link docs/options.md and docs/troubleshooting.md in the repository package.json names, which the UI can open', () => {
    const { footerDisplay } = formFrame({
      name: 'homebridge-access-control',
      repository: { url: 'git+https://github.com/someone/hac.git' },
    });
    expect(footerDisplay).toContain('[docs/options.md](https://github.com/someone/hac/blob/HEAD/docs/options.md)');
    expect(footerDisplay).toContain('[docs/troubleshooting.md](https://github.com/someone/hac/blob/HEAD/docs/troubleshooting.md)');
    const schema = generateSchema(options, schemaOnDisk, formFrame({ name: 'x', repository: 'github:someone/hac' }));
    expect(schema).toContain('https://github.com/someone/hac/blob/HEAD/docs/options.md');
  });

  it('without a repository, link the docs the package ships by the npm CDN address of this version, and the npm page', () => {
    const { footerDisplay } = formFrame({ name: 'homebridge-access-control', version: '0.1.0' });
    expect(footerDisplay).toContain('[docs/options.md](https://cdn.jsdelivr.net/npm/homebridge-access-control@0.1.0/docs/options.md)');
    expect(footerDisplay).toContain(
      '[docs/troubleshooting.md](https://cdn.jsdelivr.net/npm/homebridge-access-control@0.1.0/docs/troubleshooting.md)',
    );
    expect(footerDisplay).toContain('[npm](https://www.npmjs.com/package/homebridge-access-control)');
  });

  it('ships the docs the footer links', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { files: string[] };
    expect(manifest.files).toContain('docs/*.md');
  });

  it.each([
    ['github:o/r', 'https://github.com/o/r'],
    ['https://github.com/o/r.git', 'https://github.com/o/r'],
    ['git@github.com:o/r.git', 'https://github.com/o/r'],
    ['https://gitlab.com/o/r', undefined],
  ])('reads the repository %s as %s', (given, url) => {
    expect(repositoryUrl({ name: 'x', repository: given })).toBe(url);
  });
});
