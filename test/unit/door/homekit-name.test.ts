// Names and versions made acceptable to HomeKit.
import { describe, expect, it } from 'vitest';

import { homeKitName, homeKitVersion } from '../../../src/door/homekit-name.js';

describe('homeKitName', () => {
  it('keeps ordinary names and removes what HomeKit refuses', () => {
    expect(homeKitName('Front Gate', 'x')).toBe('Front Gate');
    expect(homeKitName('  #1 Gate (north)! ', 'x')).toBe('1 Gate north');
    expect(homeKitName("Ada's Garage", 'x')).toBe("Ada's Garage");
    // The Home app refuses a name that ends in an apostrophe.
    expect(homeKitName("The Jones' ", 'x')).toBe('The Jones');
    expect(homeKitName('🚪🚪', 'Door 1234')).toBe('Door 1234');
  });
});

describe('homeKitVersion', () => {
  it('reads x.y.z out of a version string or leaves it out', () => {
    expect(homeKitVersion('2.4.1')).toBe('2.4.1');
    expect(homeKitVersion('v1.9.0-beta')).toBe('1.9.0');
    expect(homeKitVersion('unknown')).toBeUndefined();
    expect(homeKitVersion(undefined)).toBeUndefined();
  });
});
