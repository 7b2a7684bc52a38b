// The guard around api.matter: Matter is used only where the bridge runs it and the API has the shape the plugin knows.
import type { API } from 'homebridge';
import { describe, expect, it } from 'vitest';

import { matterOnBridge } from '../../../src/matter/matter-api.js';
import { MatterApiDouble } from '../../support/matter-double.js';

const asApi = (value: object): API => value as API;

describe('matterOnBridge', () => {
  it('is off on Homebridge 1.11, which has neither isMatterEnabled nor api.matter', () => {
    expect(matterOnBridge(asApi({})).kind).toBe('off');
  });

  it('is off when Homebridge 2 says Matter is off for this bridge, or offers no api.matter', () => {
    expect(matterOnBridge(asApi({ isMatterEnabled: () => false, matter: new MatterApiDouble() })).kind).toBe('off');
    expect(matterOnBridge(asApi({ isMatterEnabled: () => true })).kind).toBe('off');
  });

  it('is no answer, with what was thrown, when isMatterEnabled() or the api.matter getter throws (issue 30)', () => {
    const throwing = () => {
      throw new TypeError('settings unreadable');
    };
    expect(matterOnBridge(asApi({ isMatterEnabled: throwing }))).toEqual({ kind: 'no-answer', message: 'settings unreadable' });
    const getter = Object.defineProperty({ isMatterEnabled: () => true }, 'matter', { get: throwing });
    expect(matterOnBridge(asApi(getter))).toEqual({ kind: 'no-answer', message: 'settings unreadable' });
  });

  it('is on with a Matter API of the shape Homebridge 2.4 has, and gives that very object (its methods need it)', () => {
    const matter = new MatterApiDouble();
    const found = matterOnBridge(asApi({ isMatterEnabled: () => true, matter }));
    expect(found).toEqual({ kind: 'on', matter });
    expect(found.kind === 'on' && found.matter).toBe(matter);
  });

  it('says when api.matter lacks what the plugin uses (a later Homebridge), rather than failing later', () => {
    const { deviceTypes, clusterNames, types, status } = new MatterApiDouble();
    const noRegister = {
      deviceTypes,
      clusterNames,
      types,
      status,
      unregisterPlatformAccessories: () => Promise.resolve(),
      updateAccessoryState: () => Promise.resolve(),
    };
    expect(matterOnBridge(asApi({ isMatterEnabled: () => true, matter: noRegister })).kind).toBe('unknown-shape');
    expect(
      matterOnBridge(
        asApi({ isMatterEnabled: () => true, matter: { ...noRegister, registerPlatformAccessories: () => Promise.resolve() } }),
      ).kind,
    ).toBe('on');
  });
});
